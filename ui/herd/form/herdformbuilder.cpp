// SPDX-License-Identifier: GPL-3.0-or-later
#include "herd/form/herdformbuilder.h"

#include "herd/form/herdsecondsspinbox.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QVBoxLayout>

#include <climits>
#include <cmath>

using namespace Qt::StringLiterals;

namespace {

// Accessors take a mutable experiment; a field only reads through this one.
HerdExperiment& reading(const HerdExperiment& e)
{
    return const_cast<HerdExperiment&>(e);
}

QString noneText()
{
    return QObject::tr("none");
}

} // namespace

HerdFormBuilder::HerdFormBuilder(QWidget* parent, QVBoxLayout* sections, QList<HerdField>* fields, std::function<void()> edited)
    : m_parent(parent)
    , m_sections(sections)
    , m_fields(fields)
    , m_edited(std::move(edited))
{
}

QGroupBox* HerdFormBuilder::section(const QString& title, const QString& help)
{
    auto* group = new QGroupBox(title, m_parent);
    group->setToolTip(help);
    m_form = new QFormLayout(group);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    const int em = m_parent->fontMetrics().height();
    m_form->setContentsMargins(em / 2, em / 2, em / 2, em / 2);
    m_form->setVerticalSpacing(em / 4);
    m_sections->addWidget(group);
    return group;
}

HerdField& HerdFormBuilder::row(const QString& path, const QString& label, QWidget* editor, const QString& help, QWidget* labelWidget)
{
    HerdField f;
    f.path = path;
    if (!labelWidget) {
        auto* text = new QLabel(label, m_parent);
        text->setBuddy(editor);
        labelWidget = text;
    }
    f.label = labelWidget;
    f.label->setStatusTip(help.isEmpty() ? path : path + u" — "_s + help);
    f.label->setToolTip(help);
    f.editor = editor;
    f.editor->setObjectName(path);
    f.editor->setWhatsThis(help);
    f.editor->setToolTip(help);
    f.editor->setAccessibleName(label);
    f.message = new QLabel(m_parent);
    f.message->setWordWrap(true);
    f.message->hide();
    auto* cell = new QWidget(m_parent);
    auto* box = new QVBoxLayout(cell);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(1);
    box->addWidget(editor);
    box->addWidget(f.message);
    m_form->addRow(f.label, cell);
    // Spin boxes and combo boxes ask for the width of their largest value ("2,147,483,647 ms"); the column
    // would be as wide as that. They get a modest least width and grow with the column.
    const int em = m_parent->fontMetrics().height();
    QList<QWidget*> inputs = editor->findChildren<QWidget*>();
    inputs.prepend(editor);
    for (QWidget* input : std::as_const(inputs)) {
        // A combo beside a spin box keeps its own least width: "exponential" is read whole.
        if (qobject_cast<QAbstractSpinBox*>(input) || (editor == input && qobject_cast<QComboBox*>(input)))
            input->setMinimumWidth(editor == input ? 6 * em : 4 * em);
    }
    m_fields->append(f);
    return m_fields->last();
}

QSpinBox* HerdFormBuilder::intSpin(int min, int max, const QString& suffix)
{
    auto* spin = new QSpinBox(m_parent);
    spin->setRange(min, max);
    spin->setSuffix(suffix);
    spin->setGroupSeparatorShown(true);
    QObject::connect(spin, &QSpinBox::valueChanged, m_parent, [edited = m_edited] { edited(); });
    return spin;
}

QDoubleSpinBox* HerdFormBuilder::doubleSpin(double min, double max, int decimals, const QString& suffix)
{
    auto* spin = new QDoubleSpinBox(m_parent);
    spin->setDecimals(decimals);
    spin->setRange(min, max);
    spin->setSuffix(suffix);
    spin->setGroupSeparatorShown(true);
    QObject::connect(spin, &QDoubleSpinBox::valueChanged, m_parent, [edited = m_edited] { edited(); });
    return spin;
}

QDoubleSpinBox* HerdFormBuilder::secondsSpin()
{
    auto* spin = new HerdSecondsSpinBox(m_parent);
    spin->setGroupSeparatorShown(true);
    QObject::connect(spin, &QDoubleSpinBox::valueChanged, m_parent, [edited = m_edited] { edited(); });
    return spin;
}

HerdField& HerdFormBuilder::integer(const QString& path, const QString& label, std::function<int&(HerdExperiment&)> acc,
    int min, int max, const QString& help, const QString& special)
{
    QSpinBox* spin = intSpin(min, max, {});
    spin->setSpecialValueText(special);
    HerdField& f = row(path, label, spin, help);
    f.load = [acc, spin](const HerdExperiment& e) { spin->setValue(acc(reading(e))); };
    f.store = [acc, spin](HerdExperiment& e) { acc(e) = spin->value(); };
    return f;
}

HerdField& HerdFormBuilder::optionalInteger(
    const QString& path, const QString& label, std::function<std::optional<int>&(HerdExperiment&)> acc, const QString& help)
{
    QSpinBox* spin = intSpin(-1, INT_MAX / 2, {});
    spin->setSpecialValueText(noneText());
    HerdField& f = row(path, label, spin, help);
    f.load = [acc, spin](const HerdExperiment& e) { spin->setValue(acc(reading(e)).value_or(-1)); };
    f.store = [acc, spin](HerdExperiment& e) { acc(e) = spin->value() < 0 ? std::nullopt : std::optional<int>(spin->value()); };
    return f;
}

HerdField& HerdFormBuilder::number(const QString& path, const QString& label, std::function<double&(HerdExperiment&)> acc,
    double min, double max, int decimals, const QString& suffix, const QString& help)
{
    QDoubleSpinBox* spin = doubleSpin(min, max, decimals, suffix);
    HerdField& f = row(path, label, spin, help);
    f.load = [acc, spin](const HerdExperiment& e) { spin->setValue(acc(reading(e))); };
    f.store = [acc, spin](HerdExperiment& e) { acc(e) = spin->value(); };
    return f;
}

HerdField& HerdFormBuilder::percent(
    const QString& path, const QString& label, std::function<double&(HerdExperiment&)> acc, const QString& help)
{
    QDoubleSpinBox* spin = doubleSpin(0, 100, 1, QObject::tr(" %"));
    HerdField& f = row(path, label, spin, help);
    f.load = [acc, spin](const HerdExperiment& e) { spin->setValue(acc(reading(e)) * 100.0); };
    f.store = [acc, spin](HerdExperiment& e) { acc(e) = spin->value() / 100.0; };
    return f;
}

HerdField& HerdFormBuilder::millis(
    const QString& path, const QString& label, std::function<Millis&(HerdExperiment&)> acc, const QString& help)
{
    QSpinBox* spin = intSpin(0, INT_MAX, QObject::tr(" ms"));
    HerdField& f = row(path, label, spin, help);
    f.load = [acc, spin](const HerdExperiment& e) { spin->setValue(int(std::min<qint64>(acc(reading(e)).count(), INT_MAX))); };
    f.store = [acc, spin](HerdExperiment& e) { acc(e) = Millis(spin->value()); };
    return f;
}

HerdField& HerdFormBuilder::optionalMillis(
    const QString& path, const QString& label, std::function<std::optional<Millis>&(HerdExperiment&)> acc, const QString& help)
{
    QSpinBox* spin = intSpin(-1, INT_MAX, QObject::tr(" ms"));
    spin->setSpecialValueText(noneText());
    HerdField& f = row(path, label, spin, help);
    f.load = [acc, spin](const HerdExperiment& e) {
        const std::optional<Millis>& value = acc(reading(e));
        spin->setValue(value ? int(std::min<qint64>(value->count(), INT_MAX)) : -1);
    };
    f.store = [acc, spin](HerdExperiment& e) {
        acc(e) = spin->value() < 0 ? std::nullopt : std::optional<Millis>(Millis(spin->value()));
    };
    return f;
}

HerdField& HerdFormBuilder::seconds(
    const QString& path, const QString& label, std::function<Millis&(HerdExperiment&)> acc, const QString& help)
{
    QDoubleSpinBox* spin = secondsSpin();
    HerdField& f = row(path, label, spin, help);
    f.load = [acc, spin](const HerdExperiment& e) { spin->setValue(double(acc(reading(e)).count()) / 1000.0); };
    f.store = [acc, spin](HerdExperiment& e) { acc(e) = Millis(qint64(std::llround(spin->value() * 1000.0))); };
    return f;
}

HerdField& HerdFormBuilder::choiceIndex(const QString& path, const QString& label, const QStringList& names,
    std::function<int(const HerdExperiment&)> read, std::function<void(HerdExperiment&, int)> write, const QString& help)
{
    auto* combo = new QComboBox(m_parent);
    combo->addItems(names);
    QObject::connect(combo, &QComboBox::currentIndexChanged, m_parent, [edited = m_edited] { edited(); });
    HerdField& f = row(path, label, combo, help);
    f.load = [read, combo](const HerdExperiment& e) { combo->setCurrentIndex(read(e)); };
    f.store = [write, combo](HerdExperiment& e) { write(e, std::max(0, combo->currentIndex())); };
    return f;
}

HerdField& HerdFormBuilder::flag(const QString& path, const QString& label, std::function<bool&(HerdExperiment&)> acc, const QString& help)
{
    auto* box = new QCheckBox(m_parent);
    QObject::connect(box, &QCheckBox::toggled, m_parent, [edited = m_edited] { edited(); });
    HerdField& f = row(path, label, box, help);
    f.load = [acc, box](const HerdExperiment& e) { box->setChecked(acc(reading(e))); };
    f.store = [acc, box](HerdExperiment& e) { acc(e) = box->isChecked(); };
    return f;
}

HerdField& HerdFormBuilder::distribution(
    const QString& path, const QString& label, std::function<HerdDistribution&(HerdExperiment&)> acc, const QString& help)
{
    auto* cell = new QWidget(m_parent);
    auto* line = new QHBoxLayout(cell);
    line->setContentsMargins(0, 0, 0, 0);
    QDoubleSpinBox* mean = doubleSpin(0, 1.0e7, 1, QObject::tr(" ms"));
    auto* kind = new QComboBox(m_parent);
    kind->addItems({ QObject::tr("fixed"), QObject::tr("exponential"), QObject::tr("normal") });
    kind->setToolTip(QObject::tr("Fixed: always the mean. Exponential: random with that mean. Normal: |N(mean, sd)|."));
    QObject::connect(kind, &QComboBox::currentIndexChanged, m_parent, [edited = m_edited] { edited(); });
    line->addWidget(mean, 3);
    line->addWidget(kind, 2);
    mean->setAccessibleName(label);
    HerdField& f = row(path, label, cell, help);
    static_cast<QLabel*>(f.label)->setBuddy(mean);
    f.load = [acc, mean, kind](const HerdExperiment& e) {
        const HerdDistribution& d = acc(reading(e));
        mean->setValue(d.meanMs);
        kind->setCurrentIndex(int(d.kind));
    };
    f.store = [acc, mean, kind](HerdExperiment& e) {
        HerdDistribution& d = acc(e);
        d.meanMs = mean->value();
        d.kind = HerdDistribution::Kind(std::max(0, kind->currentIndex()));
    };
    return f;
}

HerdField& HerdFormBuilder::spread(
    const QString& path, const QString& label, std::function<HerdDistribution&(HerdExperiment&)> acc, const QString& help)
{
    QDoubleSpinBox* spin = doubleSpin(0, 1.0e7, 1, QObject::tr(" ms"));
    HerdField& f = row(path, label, spin, help);
    f.load = [acc, spin](const HerdExperiment& e) { spin->setValue(acc(reading(e)).sdMs); };
    f.store = [acc, spin](HerdExperiment& e) { acc(e).sdMs = spin->value(); };
    f.relevant = [acc](const HerdExperiment& e) { return acc(reading(e)).kind == HerdDistribution::Kind::Normal; };
    return f;
}

HerdField& HerdFormBuilder::window(const QString& path, const QString& label,
    std::function<std::optional<HerdWindow>&(HerdExperiment&)> acc, const QString& help)
{
    auto* on = new QCheckBox(label, m_parent);
    auto* cell = new QWidget(m_parent);
    auto* line = new QHBoxLayout(cell);
    line->setContentsMargins(0, 0, 0, 0);
    line->setSpacing(2);
    QDoubleSpinBox* start = secondsSpin();
    QDoubleSpinBox* end = secondsSpin();
    start->setToolTip(QObject::tr("Starts at (seconds from the experiment's start)"));
    end->setToolTip(QObject::tr("Ends at (seconds from the experiment's start)"));
    start->setAccessibleName(label + QObject::tr(" from"));
    end->setAccessibleName(label + QObject::tr(" until"));
    line->addWidget(start, 1);
    line->addWidget(new QLabel(u"–"_s, m_parent));
    line->addWidget(end, 1);
    const auto follow = [start, end](bool checked) {
        start->setEnabled(checked);
        end->setEnabled(checked);
    };
    QObject::connect(on, &QCheckBox::toggled, m_parent, [edited = m_edited, follow](bool checked) {
        follow(checked);
        edited();
    });
    follow(false);
    HerdField& f = row(path, label, cell, help, on);
    f.load = [acc, on, start, end, follow](const HerdExperiment& e) {
        const std::optional<HerdWindow>& w = acc(reading(e));
        on->setChecked(w.has_value());
        follow(w.has_value());
        start->setValue(w ? double(w->start.count()) / 1000.0 : 0.0);
        end->setValue(w ? double(w->end().count()) / 1000.0 : 0.0);
    };
    f.store = [acc, on, start, end](HerdExperiment& e) {
        if (!on->isChecked()) {
            acc(e).reset();
            return;
        }
        const qint64 from = std::llround(start->value() * 1000.0);
        const qint64 until = std::llround(end->value() * 1000.0);
        acc(e) = HerdWindow { Millis(from), Millis(until - from) }; // a negative duration is validate()'s to refuse
    };
    return f;
}

HerdField& HerdFormBuilder::method(const QString& path, const QString& label, std::function<QString&(HerdExperiment&)> acc, const QString& help)
{
    auto* combo = new QComboBox(m_parent);
    combo->setEditable(true);
    combo->addItems({ u"GET"_s, u"POST"_s, u"PUT"_s, u"PATCH"_s, u"DELETE"_s });
    QObject::connect(combo, &QComboBox::currentTextChanged, m_parent, [edited = m_edited] { edited(); });
    HerdField& f = row(path, label, combo, help);
    f.load = [acc, combo](const HerdExperiment& e) { combo->setCurrentText(acc(reading(e))); };
    f.store = [acc, combo](HerdExperiment& e) { acc(e) = combo->currentText().trimmed().toUpper(); };
    return f;
}

HerdField& HerdFormBuilder::seed(
    const QString& path, const QString& label, std::function<std::uint64_t&(HerdExperiment&)> acc, const QString& help)
{
    auto* edit = new QLineEdit(m_parent);
    edit->setValidator(new QRegularExpressionValidator(QRegularExpression(u"[0-9]{1,20}"_s), edit));
    QObject::connect(edit, &QLineEdit::textEdited, m_parent, [edited = m_edited] { edited(); });
    HerdField& f = row(path, label, edit, help);
    f.load = [acc, edit](const HerdExperiment& e) { edit->setText(QString::number(acc(reading(e)))); };
    f.store = [acc, edit](HerdExperiment& e) {
        bool ok = false;
        const std::uint64_t value = edit->text().toULongLong(&ok);
        if (ok)
            acc(e) = value;
    };
    return f;
}
