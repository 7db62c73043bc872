// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Builds the rows of the herd experiment form, as PolicyFormBuilder builds the policy form: one typed helper
// per kind of field, each taking the JSON path, the label and an accessor
// `[](auto& e) -> auto& { return e.server.concurrency; }` that works on a const and a mutable experiment,
// so reading and writing a field are written once. Every editor reports its edits through EDITED.

#include "herd/form/herdfield.h"

#include <QList>
#include <QStringList>

#include <functional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QSpinBox;
class QVBoxLayout;

class HerdFormBuilder
{
public:
    HerdFormBuilder(QWidget* parent, QVBoxLayout* sections, QList<HerdField>* fields, std::function<void()> edited);

    // Starts a titled group; the following fields go into it.
    QGroupBox* section(const QString& title, const QString& help = {});

    // A whole number from MIN to MAX; MIN reads SPECIAL when it is set ("unlimited").
    HerdField& integer(const QString& path, const QString& label, std::function<int&(HerdExperiment&)> acc, int min,
        int max, const QString& help, const QString& special = {});
    // An optional whole number: -1 reads "none".
    HerdField& optionalInteger(
        const QString& path, const QString& label, std::function<std::optional<int>&(HerdExperiment&)> acc, const QString& help);
    HerdField& number(const QString& path, const QString& label, std::function<double&(HerdExperiment&)> acc, double min,
        double max, int decimals, const QString& suffix, const QString& help);
    // A share (0..1) edited as a percentage.
    HerdField& percent(const QString& path, const QString& label, std::function<double&(HerdExperiment&)> acc, const QString& help);
    HerdField& millis(const QString& path, const QString& label, std::function<Millis&(HerdExperiment&)> acc, const QString& help);
    // An optional duration in milliseconds: -1 reads "none".
    HerdField& optionalMillis(
        const QString& path, const QString& label, std::function<std::optional<Millis>&(HerdExperiment&)> acc, const QString& help);
    // A duration on the experiment's axis, edited in seconds.
    HerdField& seconds(const QString& path, const QString& label, std::function<Millis&(HerdExperiment&)> acc, const QString& help);
    // An enumeration shown by NAMES; the enum's values are the list's indexes.
    template<typename Enum>
    HerdField& choice(const QString& path, const QString& label, const QStringList& names,
        std::function<Enum&(HerdExperiment&)> acc, const QString& help)
    {
        return choiceIndex(path, label, names,
            [acc](const HerdExperiment& e) { return int(acc(const_cast<HerdExperiment&>(e))); },
            [acc](HerdExperiment& e, int index) { acc(e) = Enum(index); }, help);
    }
    HerdField& flag(const QString& path, const QString& label, std::function<bool&(HerdExperiment&)> acc, const QString& help);
    // A distribution's mean (ms) and kind on one row; its spread (sd) is a field of its own (spread()).
    HerdField& distribution(
        const QString& path, const QString& label, std::function<HerdDistribution&(HerdExperiment&)> acc, const QString& help);
    HerdField& spread(
        const QString& path, const QString& label, std::function<HerdDistribution&(HerdExperiment&)> acc, const QString& help);
    // An optional window [start, end) in seconds, turned on by the check box that is its label.
    HerdField& window(
        const QString& path, const QString& label, std::function<std::optional<HerdWindow>&(HerdExperiment&)> acc, const QString& help);
    // An HTTP method, picked or typed.
    HerdField& method(const QString& path, const QString& label, std::function<QString&(HerdExperiment&)> acc, const QString& help);
    // The seed: any unsigned 64-bit number.
    HerdField& seed(const QString& path, const QString& label, std::function<std::uint64_t&(HerdExperiment&)> acc, const QString& help);

private:
    HerdField& choiceIndex(const QString& path, const QString& label, const QStringList& names,
        std::function<int(const HerdExperiment&)> read, std::function<void(HerdExperiment&, int)> write, const QString& help);
    // Adds a row for EDITOR under LABEL (a QLabel is made when LABEL_WIDGET is null) and returns its field.
    HerdField& row(const QString& path, const QString& label, QWidget* editor, const QString& help, QWidget* labelWidget = nullptr);
    QSpinBox* intSpin(int min, int max, const QString& suffix);
    QDoubleSpinBox* doubleSpin(double min, double max, int decimals, const QString& suffix);
    QDoubleSpinBox* secondsSpin();

    QWidget* m_parent;
    QVBoxLayout* m_sections;
    QFormLayout* m_form = nullptr;
    QList<HerdField>* m_fields;
    std::function<void()> m_edited;
};
