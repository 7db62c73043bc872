// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Builds the rows of the policy form: one typed helper per kind of field, each taking the JSON path,
// the label and an accessor `[](auto& p) -> auto& { return p.backoff.base; }` that works on a const and a
// mutable policy, so reading and writing a field are written once.

#include "editors/policyfield.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QList>
#include <QSpinBox>

#include <climits>
#include <utility>

class QFormLayout;
class QGroupBox;
class QVBoxLayout;

class PolicyFormBuilder
{
public:
    PolicyFormBuilder(QWidget* parent, QVBoxLayout* sections, QList<PolicyField>* fields);

    // Starts a titled group; the following fields go into it.
    QGroupBox* section(const QString& title, const QString& help = {});
    // Adds a row for EDITOR and returns the field to finish (load/store are set by the typed helpers).
    PolicyField& row(const QString& path, const QString& label, QWidget* editor, const QString& help);
    // As row(), with the label above and EDITOR across the whole width (lists with their own editors).
    PolicyField& wideRow(const QString& path, const QString& label, QWidget* editor, const QString& help);

    template<typename Acc>
    PolicyField& integer(const QString& path, const QString& label, Acc acc, const QString& help = {})
    {
        auto* spin = intSpin(INT_MIN / 2, INT_MAX / 2, {});
        PolicyField& f = row(path, label, spin, help);
        f.load = [acc, spin](const RetryPolicy& p) { spin->setValue(int(acc(p))); };
        f.store = [acc, spin](RetryPolicy& p) { acc(p) = spin->value(); };
        return f;
    }
    template<typename Acc>
    PolicyField& millis(const QString& path, const QString& label, Acc acc, const QString& help = {})
    {
        auto* spin = intSpin(INT_MIN, INT_MAX, QStringLiteral(" ms"));
        PolicyField& f = row(path, label, spin, help);
        f.load = [acc, spin](const RetryPolicy& p) { spin->setValue(int(acc(p).count())); };
        f.store = [acc, spin](RetryPolicy& p) { acc(p) = Millis(spin->value()); };
        return f;
    }
    // An optional duration: the lowest value (-1) reads "none".
    template<typename Acc>
    PolicyField& optionalMillis(const QString& path, const QString& label, Acc acc, const QString& help = {})
    {
        auto* spin = intSpin(-1, INT_MAX, QStringLiteral(" ms"));
        spin->setSpecialValueText(noneText());
        PolicyField& f = row(path, label, spin, help);
        f.load = [acc, spin](const RetryPolicy& p) { spin->setValue(acc(p) ? int(acc(p)->count()) : -1); };
        f.store = [acc, spin](RetryPolicy& p) {
            acc(p) = spin->value() < 0 ? std::nullopt : std::optional<Millis>(Millis(spin->value()));
        };
        return f;
    }
    template<typename Acc>
    PolicyField& optionalInteger(const QString& path, const QString& label, Acc acc, const QString& help = {})
    {
        auto* spin = intSpin(-1, INT_MAX / 2, {});
        spin->setSpecialValueText(noneText());
        PolicyField& f = row(path, label, spin, help);
        f.load = [acc, spin](const RetryPolicy& p) { spin->setValue(acc(p) ? *acc(p) : -1); };
        f.store = [acc, spin](RetryPolicy& p) { acc(p) = spin->value() < 0 ? std::nullopt : std::optional<int>(spin->value()); };
        return f;
    }
    template<typename Acc>
    PolicyField& number(const QString& path, const QString& label, Acc acc, const QString& help = {})
    {
        auto* spin = doubleSpin();
        PolicyField& f = row(path, label, spin, help);
        f.load = [acc, spin](const RetryPolicy& p) { spin->setValue(acc(p)); };
        f.store = [acc, spin](RetryPolicy& p) { acc(p) = spin->value(); };
        return f;
    }
    // An enumeration shown by its JSON spellings; the enum's values are the list's indexes.
    template<typename Acc>
    PolicyField& choice(const QString& path, const QString& label, const QStringList& names, Acc acc, const QString& help = {})
    {
        auto* combo = comboBox(names);
        PolicyField& f = row(path, label, combo, help);
        using E = std::remove_cvref_t<decltype(acc(std::declval<RetryPolicy&>()))>;
        f.load = [acc, combo](const RetryPolicy& p) { combo->setCurrentIndex(int(acc(p))); };
        f.store = [acc, combo](RetryPolicy& p) { acc(p) = E(combo->currentIndex()); };
        return f;
    }
    template<typename Acc>
    PolicyField& flag(const QString& path, const QString& label, Acc acc, const QString& help = {})
    {
        auto* box = checkBox();
        PolicyField& f = row(path, label, box, help);
        f.load = [acc, box](const RetryPolicy& p) { box->setChecked(acc(p)); };
        f.store = [acc, box](RetryPolicy& p) { acc(p) = box->isChecked(); };
        return f;
    }
    template<typename Acc>
    PolicyField& text(const QString& path, const QString& label, Acc acc, const QString& help = {})
    {
        auto* edit = lineEdit();
        PolicyField& f = row(path, label, edit, help);
        f.load = [acc, edit](const RetryPolicy& p) {
            edit->setText(acc(p));
            edit->setCursorPosition(0);
            edit->setToolTip(acc(p));
        };
        f.store = [acc, edit](RetryPolicy& p) { acc(p) = edit->text(); };
        return f;
    }
    // A list of words edited as "POST, PUT".
    template<typename Acc>
    PolicyField& words(const QString& path, const QString& label, Acc acc, const QString& help = {})
    {
        auto* edit = lineEdit();
        PolicyField& f = row(path, label, edit, help);
        f.load = [acc, edit](const RetryPolicy& p) { edit->setText(acc(p).join(QStringLiteral(", "))); };
        f.store = [acc, edit](RetryPolicy& p) { acc(p) = splitWords(edit->text()); };
        return f;
    }

    static QStringList splitWords(const QString& text);

private:
    // The field for EDITOR and the cell holding it with its message; not yet in the form.
    std::pair<PolicyField, QWidget*> makeField(const QString& path, const QString& label, QWidget* editor, const QString& help);
    QSpinBox* intSpin(int min, int max, const QString& suffix);
    QDoubleSpinBox* doubleSpin();
    QComboBox* comboBox(const QStringList& items);
    QCheckBox* checkBox();
    QLineEdit* lineEdit();
    static QString noneText();

    QWidget* m_parent;
    QVBoxLayout* m_sections;
    QFormLayout* m_form = nullptr;
    QList<PolicyField>* m_fields;
};
