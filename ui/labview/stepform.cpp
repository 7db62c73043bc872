// SPDX-License-Identifier: GPL-3.0-or-later
#include "labview/stepform.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalBlocker>
#include <QSpinBox>


using namespace Qt::StringLiterals;

namespace {

// The keys each kind uses (resources/docs/scenario-format.md, "Steps" and "Forwarding").
QStringList keysOf(const QString& kind)
{
    // A latency ramp goes wherever delay_ms does, but on hang, refuse and outage (scenario-format.md, "Latency ramps").
    if (kind == u"respond"_s)
        return { u"status"_s, u"retry_after"_s, u"headers"_s, u"body"_s, u"delay_ms"_s, u"latency_ramp"_s, u"dribble"_s, u"applied"_s };
    if (kind == u"late"_s)
        return { u"status"_s, u"retry_after"_s, u"headers"_s, u"body"_s, u"delay_ms"_s, u"latency_ramp"_s, u"applied"_s };
    if (kind == u"close"_s)
        return { u"delay_ms"_s, u"latency_ramp"_s, u"applied"_s };
    if (kind == u"reset"_s)
        return { u"delay_ms"_s, u"latency_ramp"_s };
    if (kind == u"truncate"_s)
        return { u"status"_s, u"headers"_s, u"body"_s, u"delay_ms"_s, u"latency_ramp"_s, u"truncate_after"_s, u"then"_s, u"applied"_s };
    if (kind == u"garbage"_s)
        return { u"garbage"_s, u"delay_ms"_s, u"latency_ramp"_s };
    if (kind == u"hang"_s)
        return { u"duration_ms"_s, u"delay_ms"_s };
    if (kind == u"refuse"_s)
        return { u"duration_ms"_s };
    if (kind == u"rate-limit"_s)
        return { u"status"_s, u"retry_after"_s, u"headers"_s, u"body"_s, u"delay_ms"_s, u"latency_ramp"_s };
    if (kind == u"forward"_s)
        return { u"status"_s, u"retry_after"_s, u"headers"_s, u"delay_ms"_s, u"latency_ramp"_s, u"dribble"_s, u"then"_s };
    if (kind == u"outage"_s)
        return { u"mode"_s, u"duration_ms"_s, u"status"_s, u"retry_after"_s, u"headers"_s, u"body"_s, u"delay_ms"_s };
    return {};
}

QSpinBox* spin(int min, int max, const QString& special, const QString& suffix, QWidget* parent)
{
    auto* box = new QSpinBox(parent);
    box->setRange(min, max);
    box->setSpecialValueText(special);
    box->setSuffix(suffix);
    return box;
}

} // namespace

StepForm::StepForm(QWidget* parent)
    : QWidget(parent)
    , m_form(new QFormLayout(this))
    , m_kind(new QComboBox(this))
    , m_weight(spin(0, 1000000, QString(), QString(), this))
    , m_repeat(spin(0, 1000000, tr("forever"), QString(), this))
    , m_status(spin(0, 999, tr("default"), QString(), this))
    , m_retryRow(new QWidget(this))
    , m_retryAfter(new QDoubleSpinBox(m_retryRow))
    , m_retryForm(new QComboBox(m_retryRow))
    , m_delay(spin(0, 86400000, tr("none"), tr(" ms"), this))
    , m_duration(spin(0, 86400000, tr("none"), tr(" ms"), this))
    , m_mode(new QComboBox(this))
    , m_rampRow(new QWidget(this))
    , m_rampFrom(spin(0, 3600000, QString(), tr(" ms"), m_rampRow))
    , m_rampTo(spin(-1, 3600000, tr("off"), tr(" ms"), m_rampRow))
    , m_rampOver(spin(1, 86400000, QString(), QString(), m_rampRow))
    , m_rampUnit(new QComboBox(m_rampRow))
    , m_then(new QComboBox(this))
    , m_applied(new QComboBox(this))
    , m_truncateAfter(spin(-1, 1 << 30, tr("half the body"), tr(" bytes"), this))
    , m_dribbleRow(new QWidget(this))
    , m_dribbleBytes(spin(0, 1 << 20, tr("off"), tr(" B"), m_dribbleRow))
    , m_dribbleInterval(spin(0, 600000, QString(), tr(" ms"), m_dribbleRow))
    , m_headers(new QPlainTextEdit(this))
    , m_bodyRow(new QWidget(this))
    , m_body(new QPlainTextEdit(m_bodyRow))
    , m_bodyIsJson(new QCheckBox(tr("JSON"), m_bodyRow))
    , m_garbage(new QLineEdit(this))
    , m_note(new QLineEdit(this))
    , m_problem(new QLabel(this))
{
    for (const char16_t* kind : { u"respond", u"forward", u"reset", u"close", u"late", u"truncate", u"garbage", u"hang",
             u"refuse", u"rate-limit", u"outage" })
        m_kind->addItem(QString::fromUtf16(kind), QString::fromUtf16(kind));
    m_retryAfter->setRange(-1, 31536000);
    m_retryAfter->setDecimals(3);
    m_retryAfter->setSpecialValueText(tr("none"));
    m_retryAfter->setSuffix(tr(" s"));
    for (const char16_t* form : { u"seconds", u"imf-fixdate", u"rfc850", u"asctime", u"ms" })
        m_retryForm->addItem(QString::fromUtf16(form), QString::fromUtf16(form));
    m_retryForm->setToolTip(tr("How Retry-After is written: delay seconds, an HTTP date (RFC 9110 §5.6.7), or retry-after-ms"));
    auto* retry = new QHBoxLayout(m_retryRow);
    retry->setContentsMargins(0, 0, 0, 0);
    retry->addWidget(m_retryAfter, 1);
    retry->addWidget(m_retryForm);
    // An outage step's mode (scenario-format.md, "Steps"): how every request fails while it lasts.
    m_mode->addItem(tr("answer its status"), u"status"_s);
    m_mode->addItem(tr("reset (RST)"), u"reset"_s);
    m_mode->addItem(tr("refuse connections"), u"refuse"_s);
    m_mode->setToolTip(tr("How every request fails while the outage lasts: the step's status (503 unless set), a reset "
                          "connection, or the port closed"));
    // A latency ramp: the delay moves from one value to another over a time or a number of plays.
    m_rampTo->setToolTip(tr("The delay the ramp reaches; off: no ramp (the step's Delay applies)"));
    m_rampFrom->setToolTip(tr("The delay at the step's first play"));
    m_rampOver->setToolTip(tr("How long (from the step's first play) or over how many plays the delay moves"));
    m_rampUnit->addItem(tr("ms"), u"over_ms"_s);
    m_rampUnit->addItem(tr("plays"), u"over_requests"_s);
    // Two lines, so that the form fits a narrow dock: from → to, then over how long or how many plays.
    auto* ramp = new QGridLayout(m_rampRow);
    ramp->setContentsMargins(0, 0, 0, 0);
    ramp->addWidget(m_rampFrom, 0, 0);
    ramp->addWidget(new QLabel(tr("→"), m_rampRow), 0, 1);
    ramp->addWidget(m_rampTo, 0, 2);
    ramp->addWidget(new QLabel(tr("over"), m_rampRow), 1, 0, Qt::AlignRight);
    ramp->addWidget(m_rampOver, 1, 2);
    ramp->addWidget(m_rampUnit, 2, 2);
    ramp->setColumnStretch(0, 1);
    ramp->setColumnStretch(2, 1);
    m_then->addItem(tr("—"), QString());
    m_then->addItem(tr("close (FIN)"), u"close"_s);
    m_then->addItem(tr("reset (RST)"), u"reset"_s);
    m_then->setToolTip(tr("truncate: how the connection ends. forward: applied upstream, answer lost"));
    m_applied->addItem(tr("default for the kind"), QVariant());
    m_applied->addItem(tr("yes"), true);
    m_applied->addItem(tr("no"), false);
    auto* dribble = new QHBoxLayout(m_dribbleRow);
    dribble->setContentsMargins(0, 0, 0, 0);
    dribble->addWidget(m_dribbleBytes, 1);
    dribble->addWidget(new QLabel(tr("every"), m_dribbleRow));
    // Narrower than their longest values would make them, so that the form fits a narrow dock.
    const int digits = fontMetrics().horizontalAdvance(u"0000000 ms"_s) + 24;
    for (QAbstractSpinBox* box : std::initializer_list<QAbstractSpinBox*> { m_retryAfter, m_delay, m_duration, m_truncateAfter })
        box->setMinimumWidth(digits);
    for (QSpinBox* box : { m_dribbleBytes, m_dribbleInterval, m_rampFrom, m_rampTo, m_rampOver })
        box->setMinimumWidth(fontMetrics().horizontalAdvance(u"0000 ms"_s) + 24);
    m_rampUnit->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_rampUnit->setMinimumContentsLength(4);
    for (QComboBox* box : { m_kind, m_retryForm, m_then, m_applied, m_mode }) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(6);
    }
    dribble->addWidget(m_dribbleInterval, 1);
    m_headers->setPlaceholderText(tr("Name: value, one a line"));
    m_headers->setTabChangesFocus(true);
    m_headers->setFixedHeight(fontMetrics().lineSpacing() * 3 + 12);
    m_body->setTabChangesFocus(true);
    m_body->setFixedHeight(fontMetrics().lineSpacing() * 3 + 12);
    m_body->setPlaceholderText(tr("text; {{n}}, {{key}}… are filled in"));
    auto* body = new QHBoxLayout(m_bodyRow);
    body->setContentsMargins(0, 0, 0, 0);
    body->addWidget(m_body, 1);
    body->addWidget(m_bodyIsJson, 0, Qt::AlignTop);
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(u"color: #b00020"_s);
    m_problem->hide();

    m_form->setContentsMargins(0, 0, 0, 0);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->addRow(tr("&Kind"), m_kind);
    m_form->addRow(tr("&Weight"), m_weight);
    m_form->addRow(tr("Repeat"), m_repeat);
    m_form->addRow(tr("&Mode"), m_mode);
    m_form->addRow(tr("&Status"), m_status);
    m_form->addRow(tr("&Retry-After"), m_retryRow);
    m_form->addRow(tr("Headers"), m_headers);
    m_form->addRow(tr("&Body"), m_bodyRow);
    m_form->addRow(tr("Delay"), m_delay);
    m_form->addRow(tr("Latency ramp"), m_rampRow);
    m_form->addRow(tr("Duration"), m_duration);
    m_form->addRow(tr("Then"), m_then);
    m_form->addRow(tr("Cut after"), m_truncateAfter);
    m_form->addRow(tr("Dribble"), m_dribbleRow);
    m_form->addRow(tr("Applied"), m_applied);
    m_form->addRow(tr("Garbage"), m_garbage);
    m_form->addRow(tr("Note"), m_note);
    m_form->addRow(m_problem);

    connect(m_kind, &QComboBox::activated, this, [this] {
        set(u"kind"_s, m_kind->currentData().toString());
        showRows();
    });
    connect(m_weight, &QSpinBox::valueChanged, this, [this](int v) { set(u"weight"_s, v); });
    connect(m_repeat, &QSpinBox::valueChanged, this, [this](int v) {
        set(u"repeat"_s, v == 0 ? QJsonValue(u"forever"_s) : v == 1 ? QJsonValue(QJsonValue::Undefined) : QJsonValue(v));
    });
    connect(m_status, &QSpinBox::valueChanged, this, [this](int v) { set(u"status"_s, v ? QJsonValue(v) : QJsonValue(QJsonValue::Undefined)); });
    connect(m_retryAfter, &QDoubleSpinBox::valueChanged, this, &StepForm::writeRetryAfter);
    connect(m_retryForm, &QComboBox::activated, this, &StepForm::writeRetryAfter);
    connect(m_mode, &QComboBox::activated, this, [this] {
        const QString mode = m_mode->currentData().toString();
        set(u"mode"_s, mode == u"status"_s ? QJsonValue(QJsonValue::Undefined) : QJsonValue(mode)); // status: the default
    });
    for (QSpinBox* box : { m_rampFrom, m_rampTo, m_rampOver })
        connect(box, &QSpinBox::valueChanged, this, &StepForm::writeRamp);
    connect(m_rampUnit, &QComboBox::activated, this, &StepForm::writeRamp);
    connect(m_delay, &QSpinBox::valueChanged, this, [this](int v) { set(u"delay_ms"_s, v ? QJsonValue(v) : QJsonValue(QJsonValue::Undefined)); });
    connect(m_duration, &QSpinBox::valueChanged, this,
        [this](int v) { set(u"duration_ms"_s, v ? QJsonValue(v) : QJsonValue(QJsonValue::Undefined)); });
    connect(m_then, &QComboBox::activated, this, [this] {
        const QString then = m_then->currentData().toString();
        set(u"then"_s, then.isEmpty() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(then));
    });
    connect(m_applied, &QComboBox::activated, this, [this] {
        const QVariant applied = m_applied->currentData();
        set(u"applied"_s, applied.isValid() ? QJsonValue(applied.toBool()) : QJsonValue(QJsonValue::Undefined));
    });
    connect(m_truncateAfter, &QSpinBox::valueChanged, this,
        [this](int v) { set(u"truncate_after"_s, v < 0 ? QJsonValue(QJsonValue::Undefined) : QJsonValue(v)); });
    connect(m_dribbleBytes, &QSpinBox::valueChanged, this, &StepForm::writeDribble);
    connect(m_dribbleInterval, &QSpinBox::valueChanged, this, &StepForm::writeDribble);
    connect(m_headers, &QPlainTextEdit::textChanged, this, &StepForm::writeHeaders);
    connect(m_body, &QPlainTextEdit::textChanged, this, &StepForm::writeBody);
    connect(m_bodyIsJson, &QCheckBox::toggled, this, &StepForm::writeBody);
    connect(m_garbage, &QLineEdit::textEdited, this,
        [this](const QString& t) { set(u"garbage"_s, t.isEmpty() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(t)); });
    connect(m_note, &QLineEdit::textEdited, this,
        [this](const QString& t) { set(u"note"_s, t.isEmpty() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(t)); });
}

void StepForm::set(const QString& key, const QJsonValue& value)
{
    if (m_loading)
        return;
    if (value.isUndefined())
        m_step.remove(key);
    else
        m_step.insert(key, value);
    emit stepEdited(m_step);
}

void StepForm::setStep(const QJsonObject& step)
{
    m_loading = true;
    m_step = step;
    const QString kind = step.value(u"kind"_s).toString();
    if (m_kind->findData(kind) < 0 && !kind.isEmpty())
        m_kind->addItem(kind, kind); // unknown: kept as typed, the loader says why
    m_kind->setCurrentIndex(m_kind->findData(kind));
    m_weight->setValue(step.value(u"weight"_s).toInt(1));
    const QJsonValue repeat = step.value(u"repeat"_s);
    m_repeat->setValue(repeat.toString() == u"forever"_s ? 0 : repeat.toInt(1));
    m_status->setValue(step.value(u"status"_s).toInt(0));
    const QJsonValue retry = step.value(u"retry_after"_s);
    const QJsonObject ro = retry.toObject();
    m_retryAfter->setValue(retry.isDouble()           ? retry.toDouble()
            : ro.contains(u"ms"_s)                    ? ro.value(u"ms"_s).toDouble() / 1000.0
            : ro.contains(u"seconds"_s)               ? ro.value(u"seconds"_s).toDouble()
                                                      : -1.0);
    m_retryForm->setCurrentIndex(std::max(0, m_retryForm->findData(ro.value(u"form"_s).toString(u"seconds"_s))));
    m_delay->setValue(step.value(u"delay_ms"_s).toInt(0));
    m_duration->setValue(step.value(u"duration_ms"_s).toInt(0));
    m_mode->setCurrentIndex(std::max(0, m_mode->findData(step.value(u"mode"_s).toString(u"status"_s))));
    const QJsonObject ramp = step.value(u"latency_ramp"_s).toObject();
    m_rampFrom->setValue(ramp.value(u"from_ms"_s).toInt(0));
    m_rampTo->setValue(ramp.contains(u"to_ms"_s) ? ramp.value(u"to_ms"_s).toInt(0) : -1);
    const bool byPlays = ramp.contains(u"over_requests"_s);
    m_rampUnit->setCurrentIndex(byPlays ? 1 : 0);
    m_rampOver->setValue(byPlays ? ramp.value(u"over_requests"_s).toInt(2) : ramp.value(u"over_ms"_s).toInt(30000));
    m_then->setCurrentIndex(std::max(0, m_then->findData(step.value(u"then"_s).toString())));
    const QJsonValue applied = step.value(u"applied"_s);
    m_applied->setCurrentIndex(applied.isBool() ? (applied.toBool() ? 1 : 2) : 0);
    m_truncateAfter->setValue(step.value(u"truncate_after"_s).toInt(-1));
    const QJsonObject dribble = step.value(u"dribble"_s).toObject();
    m_dribbleBytes->setValue(dribble.value(u"bytes"_s).toInt(0));
    m_dribbleInterval->setValue(dribble.value(u"interval_ms"_s).toInt(0));
    QStringList headers;
    const QJsonObject h = step.value(u"headers"_s).toObject();
    for (auto it = h.constBegin(); it != h.constEnd(); ++it)
        headers << it.key() + u": "_s + it.value().toVariant().toString();
    m_headers->setPlainText(headers.join(u'\n'));
    const bool json = step.contains(u"json"_s);
    m_bodyIsJson->setChecked(json);
    m_body->setPlainText(json ? QString::fromUtf8(QJsonDocument(QJsonArray { step.value(u"json"_s) }).toJson(QJsonDocument::Compact).sliced(1).chopped(1))
                              : step.value(u"body"_s).toString());
    m_garbage->setText(step.value(u"garbage"_s).toString());
    m_note->setText(step.value(u"note"_s).toString());
    m_problem->hide();
    showRows();
    m_loading = false;
}

void StepForm::setRandom(bool random)
{
    m_random = random;
    showRows();
}

void StepForm::showRows()
{
    const QString kind = m_step.value(u"kind"_s).toString();
    const QStringList keys = keysOf(kind);
    m_form->setRowVisible(m_weight, m_random || m_step.contains(u"weight"_s));
    m_form->setRowVisible(m_repeat, !m_random || m_step.contains(u"repeat"_s));
    const auto show = [&](QWidget* field, const QString& key) { m_form->setRowVisible(field, keys.contains(key) || m_step.contains(key)); };
    show(m_status, u"status"_s);
    show(m_retryRow, u"retry_after"_s);
    show(m_headers, u"headers"_s);
    m_form->setRowVisible(m_bodyRow, keys.contains(u"body"_s) || m_step.contains(u"body"_s) || m_step.contains(u"json"_s));
    show(m_delay, u"delay_ms"_s);
    show(m_rampRow, u"latency_ramp"_s);
    show(m_mode, u"mode"_s);
    const bool ramped = m_step.contains(u"latency_ramp"_s);
    m_rampFrom->setEnabled(ramped);
    m_rampOver->setEnabled(ramped);
    m_rampUnit->setEnabled(ramped);
    show(m_duration, u"duration_ms"_s);
    show(m_then, u"then"_s);
    show(m_truncateAfter, u"truncate_after"_s);
    show(m_dribbleRow, u"dribble"_s);
    show(m_applied, u"applied"_s);
    show(m_garbage, u"garbage"_s);
    if (auto* label = qobject_cast<QLabel*>(m_form->labelForField(m_status)))
        label->setText(kind == u"forward"_s ? tr("Replace &status") : tr("&Status"));
}

// The ramp's fields as the step's latency_ramp: to "off" removes it (the step's delay_ms applies again); a
// ramp replaces delay_ms, so setting one removes that.
void StepForm::writeRamp()
{
    if (m_loading)
        return;
    if (m_rampTo->value() < 0) {
        set(u"latency_ramp"_s, QJsonValue(QJsonValue::Undefined));
        showRows();
        return;
    }
    QJsonObject ramp { { u"from_ms"_s, m_rampFrom->value() }, { u"to_ms"_s, m_rampTo->value() } };
    const QString over = m_rampUnit->currentData().toString();
    ramp.insert(over, over == u"over_requests"_s ? std::max(2, m_rampOver->value()) : m_rampOver->value());
    m_step.remove(u"delay_ms"_s);
    {
        const QSignalBlocker quiet(m_delay);
        m_delay->setValue(0);
    }
    set(u"latency_ramp"_s, ramp);
    showRows();
}
