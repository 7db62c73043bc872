// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// An ordered list of a policy's items (rules, delay hints) as a one-column model: one summary line per
// item, the item's validation problems (red, with the reasons as tooltip) and whether it differs from the
// reference (the preset). Rows are inserted, duplicated, removed and moved with the standard model calls.

#include <QAbstractListModel>
#include <QList>
#include <QStringList>

class PolicyListModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role {
        ProblemsRole = Qt::UserRole + 1, // QStringList: what validate() says about the row
        ChangedRole, // bool: differs from the reference item at the same position (or is new)
    };

    explicit PolicyListModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QHash<int, QByteArray> roleNames() const override;
    // Inserts new default items.
    bool insertRows(int row, int count, const QModelIndex& parent = {}) override;
    bool removeRows(int row, int count, const QModelIndex& parent = {}) override;
    bool moveRows(const QModelIndex& sourceParent, int sourceRow, int count, const QModelIndex& destinationParent,
        int destinationChild) override;
    // Inserts a copy of ROW right after it.
    bool duplicateRow(int row);

    // Problems per row (index = row; missing rows have none).
    void setProblems(const QList<QStringList>& perRow);
    QStringList problems(int row) const { return m_problems.value(row); }

protected:
    virtual int itemCount() const = 0;
    virtual QString summary(int row) const = 0;
    virtual QString details(int row) const = 0; // the tooltip's explanation
    virtual bool changed(int row) const = 0;
    virtual void insertDefaults(int row, int count) = 0;
    virtual void insertCopy(int row) = 0; // a copy of ROW at ROW + 1
    virtual void removeItems(int row, int count) = 0;
    virtual void moveItem(int from, int to) = 0; // QList::move semantics
    // After the items were replaced or the reference changed: every row may read differently.
    void allRowsChanged();
    void clearProblems() { m_problems.clear(); }

private:
    QList<QStringList> m_problems;
};

// The storage for items of type T, with the reference list "changed" is measured against.
template<typename T>
class PolicyItemListModel : public PolicyListModel
{
public:
    using PolicyListModel::PolicyListModel;

    const QList<T>& items() const { return m_items; }
    const T& item(int row) const { return m_items.at(row); }
    // Replaces every item: a reset when the count changes, else one dataChanged (selection stays).
    void setItems(const QList<T>& items)
    {
        if (items.size() != m_items.size()) {
            beginResetModel();
            m_items = items;
            clearProblems();
            endResetModel();
        } else if (items != m_items) {
            m_items = items;
            allRowsChanged();
        }
    }
    void setItem(int row, const T& value)
    {
        if (row < 0 || row >= m_items.size() || m_items.at(row) == value)
            return;
        m_items[row] = value;
        const QModelIndex at = index(row);
        emit dataChanged(at, at);
    }
    void setReference(const QList<T>& reference)
    {
        m_reference = reference;
        allRowsChanged();
    }
    // The reference item at ROW's position, or nullptr when the reference has fewer items.
    const T* referenceItem(int row) const { return row >= 0 && row < m_reference.size() ? &m_reference.at(row) : nullptr; }

protected:
    virtual T defaultItem() const = 0;

    int itemCount() const override { return int(m_items.size()); }
    bool changed(int row) const override
    {
        const T* reference = referenceItem(row);
        return !reference || !(*reference == m_items.at(row));
    }
    void insertDefaults(int row, int count) override
    {
        for (int i = 0; i < count; ++i)
            m_items.insert(row + i, defaultItem());
    }
    void insertCopy(int row) override { m_items.insert(row + 1, T(m_items.at(row))); }
    void removeItems(int row, int count) override { m_items.remove(row, count); }
    void moveItem(int from, int to) override { m_items.move(from, to); }

private:
    QList<T> m_items;
    QList<T> m_reference;
};
