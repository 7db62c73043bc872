// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Compare: two sessions — two recordings, or a recording and its what-if replay under another policy —
// side by side: the summary differences (B against A, better in the palette's success colour, worse in
// its failure colour) above two timelines kept on one time axis (zoom or pan one, the other follows).

#include <QWidget>

#include <memory>

class CompareModel;
class LiveSession;
class QLabel;
class QSplitter;
class QStackedWidget;
class QTableView;
class Session;
class SessionFeeder;
class TimelineView;

class CompareView final : public QWidget
{
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);
    ~CompareView() override;

    void setSessions(std::shared_ptr<const Session> a, const QString& nameA, std::shared_ptr<const Session> b,
        const QString& nameB);
    void clear();
    bool isEmpty() const;

    CompareModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    TimelineView* timelineA() const { return m_timelineA; }
    TimelineView* timelineB() const { return m_timelineB; }
    QLabel* title() const { return m_title; }
    bool warnsOfDifferentRequests() const { return m_differentRequests; }

protected:
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    static constexpr int kLegendHeight = 760; // shorter: the timelines' legend is left out
    static constexpr int kLeastLaneHeight = 190; // a timeline's least height: three lanes and the time axis
    void fitBoth();
    void splitFiguresAndLanes(); // the figures as tall as they need, at most 45 %: once shown

    CompareModel* m_model;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_labelA = nullptr;
    QLabel* m_labelB = nullptr;
    QTableView* m_table = nullptr;
    QSplitter* m_split = nullptr;
    LiveSession* m_liveA = nullptr;
    LiveSession* m_liveB = nullptr;
    SessionFeeder* m_feederA = nullptr;
    SessionFeeder* m_feederB = nullptr;
    TimelineView* m_timelineA = nullptr;
    TimelineView* m_timelineB = nullptr;
    bool m_differentRequests = false;
    bool m_splitPending = false;
    int m_tableHeight = 0;
};
