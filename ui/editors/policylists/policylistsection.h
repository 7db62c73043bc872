// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// An ordered list of policy items with its tool row (add, duplicate, remove, move up/down; also on
// Insert, Ctrl+D, Delete, Alt+Up and Alt+Down in the list) and the editor of the selected item below.
// Problems from validate() under PATH ("rules[2].when.statuses[0]") turn their row red and, for the
// selected row, the offending field.

#include "policy/retrypolicy.h"

#include <QList>
#include <QWidget>

#include <functional>

class PolicyItemEditor;
class PolicyListModel;
class QAction;
class QLabel;
class QListView;
class QMenu;
class QToolButton;

class PolicyListSection : public QWidget
{
    Q_OBJECT
public:
    // PATH is the list's JSON name ("rules"); HELP is shown under the list.
    PolicyListSection(const QString& path, PolicyListModel* model, PolicyItemEditor* editor, const QString& help,
        QWidget* parent = nullptr);

    PolicyListModel* model() const { return m_model; }
    PolicyItemEditor* itemEditor() const { return m_editor; }
    QListView* view() const { return m_view; }
    int currentRow() const;
    void setCurrentRow(int row);

    // The tool row's operations, on the selected row.
    void addItem();
    void duplicateItem();
    void removeItem();
    void moveItem(int delta);

    // Items of several kinds (the pipeline's strategies): Add (the button and Insert) opens a menu of
    // CHOICES instead of adding a default item. Picking choice C calls INSERT(selected row or -1, C), a
    // structural model call that returns the row to select, or -1 when it added nothing.
    void setAddChoices(const QStringList& choices, std::function<int(int current, int choice)> insert);
    QMenu* addMenu() const { return m_addMenu; }
    // Adds as picking CHOICE from that menu does.
    void addChoice(int choice);
    // Puts WIDGET (a picture of the list) between the tool row and the item editor.
    void addBelowList(QWidget* widget);

    // Shows the selected item afresh in the editor, dropping text typed there that did not parse.
    void reloadItem();
    // Shows the problems that lie under this list's path; returns those no row owns.
    QList<PolicyProblem> placeProblems(const QList<PolicyProblem>& problems);
    // The selected item's unreadable input, with full paths ("rules[2].when.statuses").
    QList<PolicyProblem> inputProblems() const;

Q_SIGNALS:
    void edited();

private:
    QAction* makeAction(const QString& text, const QString& tip, const QKeySequence& key);
    // Runs CHANGE (a structural model call), then selects row SELECT and reports the edit.
    void restructure(const std::function<bool()>& change, int select);
    void onCurrentChanged();
    void onModelDataChanged();
    void onModelReset();
    void updateActions();
    void fitHeight();
    void showRowProblems();
    // The row of PATH when it is "<m_path>[row]…"; -1 otherwise. REST receives what follows ("when.x").
    int rowOf(const QString& path, QString* rest) const;

    QString m_path;
    PolicyListModel* m_model;
    PolicyItemEditor* m_editor;
    QListView* m_view;
    QLabel* m_help;
    QAction* m_add;
    QAction* m_duplicate;
    QAction* m_remove;
    QAction* m_up;
    QAction* m_down;
    QToolButton* m_addButton = nullptr;
    QMenu* m_addMenu = nullptr;
    std::function<int(int, int)> m_insertChoice;
    QList<PolicyProblem> m_problems; // those placed, with full paths
    bool m_restructuring = false;
};
