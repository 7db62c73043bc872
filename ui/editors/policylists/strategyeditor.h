// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Edits one strategy of a StrategyListModel: the fields of its kind only (a timeout's duration; the
// breaker's window, thresholds, break and half-open; hedging's copies and delay; a limiter's permits and
// queue), with the paths of the `pipeline` JSON ("sampling_ms"), so validatePipeline()'s
// "pipeline[3].sampling_ms" lands on its field. What counts as a failure is shown, not edited: the rules'
// conditions have no editor of their own yet (the JSON tab edits them).

#include "editors/policylists/policyitemeditor.h"

#include "policy/retrypolicy.h"

#include <QHash>

#include <functional>

class PolicyFormBuilder;
class QFormLayout;
class QLabel;
class StrategyListModel;

class StrategyEditor : public PolicyItemEditor
{
    Q_OBJECT
public:
    explicit StrategyEditor(StrategyListModel* model, QWidget* parent = nullptr);

    void loadRow(int row) override;
    bool showsModelItem() const override;
    void refreshMarks() override;

    // The input of field PATH ("timeout_ms": a QSpinBox, "window": a QComboBox…), or nullptr.
    QWidget* input(const QString& path) const { return m_inputs.value(path); }
    // Whether field PATH's row is shown: only the selected strategy's kind's fields are.
    bool isShown(const QString& path) const;

private:
    using Strategy = ResilienceStrategy;
    using Shown = std::function<bool(const Strategy&)>;

    void build();
    void buildBreaker(PolicyFormBuilder& b);
    void commit();
    void updateRows();
    void updateTexts();
    template<typename Acc>
    PolicyField& addRow(PolicyFormBuilder& b, const QString& path, const QString& label, QWidget* editor, Acc acc,
        Shown shown, const QString& help = {});
    template<typename Acc>
    void integerRow(PolicyFormBuilder& b, const QString& path, const QString& label, Acc acc, Shown shown,
        const QString& help = {});
    template<typename Acc>
    void millisRow(PolicyFormBuilder& b, const QString& path, const QString& label, Acc acc, Shown shown,
        const QString& help = {});
    template<typename Acc>
    void optionalMillisRow(PolicyFormBuilder& b, const QString& path, const QString& label, Acc acc, Shown shown,
        const QString& help = {});
    template<typename Acc>
    void numberRow(PolicyFormBuilder& b, const QString& path, const QString& label, Acc acc, double min, double max,
        Shown shown, const QString& help = {});
    template<typename Acc>
    void choiceRow(PolicyFormBuilder& b, const QString& path, const QString& label, const QStringList& names, Acc acc,
        Shown shown, const QString& help = {});
    template<typename Acc>
    void flagRow(PolicyFormBuilder& b, const QString& path, const QString& label, const QString& text, Acc acc,
        Shown shown, const QString& help = {});

    StrategyListModel* m_model;
    Strategy m_item;
    QFormLayout* m_form = nullptr;
    QHash<QString, std::function<bool(const Strategy&, const Strategy&)>> m_same;
    QHash<QString, Shown> m_shown;
    QHash<QString, QWidget*> m_inputs;
    QList<std::function<void()>> m_loaders; // each shows m_item's value in its field
    QLabel* m_kind = nullptr;
    QLabel* m_delayMode = nullptr;
    QLabel* m_failures = nullptr;
    QLabel* m_note = nullptr; // under the form: what the retry strategy is
};
