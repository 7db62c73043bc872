// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QAreaSeries;
class QChart;
class QLabel;
class QLineSeries;
class QValueAxis;
struct DelayDistribution;

// Two small charts of a policy's waits before anything is sent: the min–max band of the delay before
// retries 1…N with the sampled mean, and a histogram of 10 000 sampled delays (the jitter family's
// shape and where the cap cuts). Series are updated with replace(), never point by point.
class DelayPreview : public QWidget
{
    Q_OBJECT
public:
    explicit DelayPreview(QWidget* parent = nullptr);

    void setDistribution(const DelayDistribution& distribution);
    QLineSeries* upperSeries() const { return m_upper; }
    QLineSeries* meanSeries() const { return m_mean; }
    QLineSeries* histogramOutline() const { return m_histTop; }
    QValueAxis* histogramAxis() const { return m_histX; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void applyPalette();

    QChart* m_bandChart;
    QChart* m_histChart;
    QLineSeries* m_upper;
    QLineSeries* m_lower;
    QLineSeries* m_mean;
    QAreaSeries* m_band;
    QLineSeries* m_histTop;
    QLineSeries* m_histBase;
    QAreaSeries* m_hist;
    QValueAxis* m_bandX;
    QValueAxis* m_bandY;
    QValueAxis* m_histX;
    QValueAxis* m_histY;
    QLabel* m_caption;
};
