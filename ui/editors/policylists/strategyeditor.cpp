// SPDX-License-Identifier: GPL-3.0-or-later
#include "editors/policylists/strategyeditor.h"

#include "editors/policyformbuilder.h"
#include "editors/policylists/strategylistmodel.h"

#include "policy/policydescription.h"
#include "policy/policyjson.h"
#include "policy/retrydecision.h" // formatMillis

#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

using namespace Qt::StringLiterals;
using Kind = ResilienceStrategy::Kind;
using O = CircuitBreakerOptions;

namespace {

using Shown = std::function<bool(const ResilienceStrategy&)>;

// A duration as a spin box holds it: from LOW (0, or −1 where that means something) to INT_MAX ms.
int spinMillis(Millis value, int low = 0)
{
    return int(std::clamp<qint64>(value.count(), low, INT_MAX));
}

Shown kinds(QList<Kind> list)
{
    return [list](const ResilienceStrategy& s) { return list.contains(s.kind); };
}

Shown breakerIf(std::function<bool(const O&)> also)
{
    return [also](const ResilienceStrategy& s) { return s.kind == Kind::CircuitBreaker && also(s.breaker); };
}

QSpinBox* spinBox(QWidget* parent, int min, int max, const QString& suffix)
{
    auto* spin = new QSpinBox(parent);
    spin->setRange(min, max);
    spin->setSuffix(suffix);
    spin->setGroupSeparatorShown(true);
    return spin;
}

} // namespace

StrategyEditor::StrategyEditor(StrategyListModel* model, QWidget* parent)
    : PolicyItemEditor(parent)
    , m_model(model)
{
    build();
    loadRow(-1);
}

template<typename Acc>
PolicyField& StrategyEditor::addRow(PolicyFormBuilder& b, const QString& path, const QString& label, QWidget* editor,
    Acc acc, Shown shown, const QString& help)
{
    m_same.insert(path, [acc](const Strategy& x, const Strategy& y) { return acc(x) == acc(y); });
    m_shown.insert(path, std::move(shown));
    if (!m_inputs.contains(path))
        m_inputs.insert(path, editor);
    return b.row(path, label, editor, help);
}

template<typename Acc>
void StrategyEditor::integerRow(
    PolicyFormBuilder& b, const QString& path, const QString& label, Acc acc, Shown shown, const QString& help)
{
    // Down to 0 and beyond the libraries' ranges: validate() says what is wrong with a value, at its field.
    auto* spin = spinBox(this, 0, INT_MAX / 2, {});
    addRow(b, path, label, spin, acc, std::move(shown), help);
    m_loaders << [this, spin, acc] { spin->setValue(acc(std::as_const(m_item))); };
    connect(spin, &QSpinBox::valueChanged, this, [this, acc](int value) {
        if (m_loading)
            return;
        acc(m_item) = value;
        commit();
    });
}

template<typename Acc>
void StrategyEditor::millisRow(
    PolicyFormBuilder& b, const QString& path, const QString& label, Acc acc, Shown shown, const QString& help)
{
    auto* spin = spinBox(this, 0, INT_MAX, u" ms"_s);
    addRow(b, path, label, spin, acc, std::move(shown), help);
    m_loaders << [this, spin, acc] { spin->setValue(spinMillis(acc(std::as_const(m_item)))); };
    connect(spin, &QSpinBox::valueChanged, this, [this, acc](int value) {
        if (m_loading)
            return;
        acc(m_item) = Millis { value };
        commit();
    });
}

template<typename Acc>
void StrategyEditor::optionalMillisRow(
    PolicyFormBuilder& b, const QString& path, const QString& label, Acc acc, Shown shown, const QString& help)
{
    auto* spin = spinBox(this, -1, INT_MAX, u" ms"_s);
    spin->setSpecialValueText(tr("none"));
    addRow(b, path, label, spin, acc, std::move(shown), help);
    m_loaders << [this, spin, acc] {
        const std::optional<Millis>& value = acc(std::as_const(m_item));
        spin->setValue(value ? spinMillis(*value) : -1);
    };
    connect(spin, &QSpinBox::valueChanged, this, [this, acc](int value) {
        if (m_loading)
            return;
        acc(m_item) = value < 0 ? std::nullopt : std::optional<Millis>(Millis { value });
        commit();
    });
}

template<typename Acc>
void StrategyEditor::numberRow(PolicyFormBuilder& b, const QString& path, const QString& label, Acc acc, double min,
    double max, Shown shown, const QString& help)
{
    auto* spin = new QDoubleSpinBox(this);
    spin->setDecimals(4);
    spin->setRange(min, max);
    spin->setSingleStep(0.05);
    addRow(b, path, label, spin, acc, std::move(shown), help);
    m_loaders << [this, spin, acc] { spin->setValue(acc(std::as_const(m_item))); };
    connect(spin, &QDoubleSpinBox::valueChanged, this, [this, acc](double value) {
        if (m_loading)
            return;
        acc(m_item) = value;
        commit();
    });
}

template<typename Acc>
void StrategyEditor::choiceRow(PolicyFormBuilder& b, const QString& path, const QString& label, const QStringList& names,
    Acc acc, Shown shown, const QString& help)
{
    using E = std::remove_cvref_t<decltype(acc(m_item))>;
    auto* combo = new QComboBox(this);
    combo->addItems(names);
    addRow(b, path, label, combo, acc, std::move(shown), help);
    m_loaders << [this, combo, acc] { combo->setCurrentIndex(int(acc(std::as_const(m_item)))); };
    connect(combo, &QComboBox::currentIndexChanged, this, [this, acc](int index) {
        if (m_loading || index < 0)
            return;
        acc(m_item) = E(index);
        commit();
    });
}

template<typename Acc>
void StrategyEditor::flagRow(PolicyFormBuilder& b, const QString& path, const QString& label, const QString& text,
    Acc acc, Shown shown, const QString& help)
{
    auto* box = new QCheckBox(text, this);
    addRow(b, path, label, box, acc, std::move(shown), help);
    m_loaders << [this, box, acc] { box->setChecked(acc(std::as_const(m_item))); };
    connect(box, &QCheckBox::toggled, this, [this, acc](bool on) {
        if (m_loading)
            return;
        acc(m_item) = on;
        commit();
    });
}

void StrategyEditor::build()
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    PolicyFormBuilder b(this, layout, &m_fields);
    m_group = b.section(tr("Selected strategy"));
    m_form = static_cast<QFormLayout*>(m_group->layout());
    // Every field beside its label, at any width: rows that wrap under their label (WrapLongRows) were
    // given a row too few by the form's scroll area, which squeezed the last one to nothing.
    m_form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_note->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_note);
    const Shown always = [](const Strategy&) { return true; };

    // No label in this form wraps: Qt 6.4's QFormLayout then reports a height for its width below its own
    // minimum once rows are hidden, and the scroll area squeezed two rows to nothing (tst_windowlayout).
    // Text that needs wrapping goes under the form (m_note); a long condition is elided, whole in its tooltip.
    m_kind = new QLabel(this);
    addRow(b, u"strategy"_s, tr("Strategy"), m_kind, [](auto& s) -> auto& { return s.kind; }, always);

    millisRow(b, u"timeout_ms"_s, tr("Timeout"), [](auto& s) -> auto& { return s.timeout; },
        kinds({ Kind::TotalTimeout, Kind::AttemptTimeout }),
        tr("Total: the whole request, waits and every attempt inside it; attempt: each attempt alone"));

    buildBreaker(b);

    const Shown hedging = kinds({ Kind::Hedging });
    integerRow(b, u"max_hedges"_s, tr("Max hedges"), [](auto& s) -> auto& { return s.hedging.maxHedges; }, hedging,
        tr("Copies beyond the first (Polly: 1–10; gRPC: max attempts − 1)"));
    // The delay with what its value means beside it: 0 and −1 are modes, not durations.
    auto* delay = spinBox(this, -1, INT_MAX, u" ms"_s);
    delay->setSpecialValueText(tr("−1 (fallback)"));
    m_delayMode = new QLabel(this);
    m_delayMode->setForegroundRole(QPalette::PlaceholderText);
    auto* delayCell = new QWidget(this);
    auto* delayRow = new QVBoxLayout(delayCell); // the meaning under the value: a narrow dock has no room beside it
    delayRow->setContentsMargins(0, 0, 0, 0);
    delayRow->setSpacing(1);
    delayRow->addWidget(delay);
    delayRow->addWidget(m_delayMode);
    m_inputs.insert(u"delay_ms"_s, delay);
    addRow(b, u"delay_ms"_s, tr("Delay"), delayCell, [](auto& s) -> auto& { return s.hedging.delay; }, hedging,
        tr("> 0: the next copy when the newest has gone this long without an answer; 0: every copy at once; "
           "−1: the next copy only after a failure (Polly's fallback mode)"));
    m_loaders << [this, delay] { delay->setValue(spinMillis(m_item.hedging.delay, -1)); };
    connect(delay, &QSpinBox::valueChanged, this, [this](int value) {
        if (m_loading)
            return;
        m_item.hedging.delay = Millis { value };
        commit();
    });
    flagRow(b, u"hedge_unsafe"_s, tr("Keyless requests"), tr("copied too"),
        [](auto& s) -> auto& { return s.hedgeUnsafe; }, hedging,
        tr("POST and PATCH without a key may be applied twice by the server"));

    const Shown limiter = kinds({ Kind::RateLimiter, Kind::Bulkhead });
    integerRow(b, u"permits"_s, tr("Permits"), [](auto& s) -> auto& { return s.permits; }, limiter, tr("Calls at once"));
    integerRow(b, u"queue"_s, tr("Queue"), [](auto& s) -> auto& { return s.queue; }, limiter,
        tr("Calls waiting for a permit beyond those; the rest are refused"));

    // What counts as a failure, in the rules' conditions: shown, edited in the JSON tab.
    m_failures = new QLabel(this);
    m_failures->setTextInteractionFlags(Qt::TextSelectableByMouse);
    addRow(b, u"failures"_s, tr("Failures"), m_failures, [](auto& s) -> auto& { return s.failures; },
        kinds({ Kind::CircuitBreaker, Kind::Hedging }),
        tr("Breaker: what counts as a failure; hedging: the answers that send the next copy at once. Edited in "
           "the JSON tab"));
}

void StrategyEditor::buildBreaker(PolicyFormBuilder& b)
{
    const Shown breaker = breakerIf([](const O&) { return true; });
    const Shown ratio = breakerIf([](const O& o) { return o.window != O::Window::Consecutive; });
    const Shown time = breakerIf([](const O& o) { return o.window == O::Window::Time; });

    choiceRow(b, u"window"_s, tr("Window"), PolicyNames::breakerWindows(), [](auto& s) -> auto& { return s.breaker.window; },
        breaker, tr("consecutive: N failures in a row (cockatiel); count: the last N calls (resilience4j); time: a "
                    "sliding time window in buckets (Polly, opossum)"));
    integerRow(b, u"consecutive_failures"_s, tr("Failures in a row"),
        [](auto& s) -> auto& { return s.breaker.consecutiveFailures; },
        breakerIf([](const O& o) { return o.window == O::Window::Consecutive; }));
    integerRow(b, u"window_calls"_s, tr("Window calls"), [](auto& s) -> auto& { return s.breaker.windowCalls; },
        breakerIf([](const O& o) { return o.window == O::Window::Count; }), tr("How many of the last calls are counted"));
    millisRow(b, u"sampling_ms"_s, tr("Window length"), [](auto& s) -> auto& { return s.breaker.samplingDuration; }, time);
    integerRow(b, u"buckets"_s, tr("Buckets"), [](auto& s) -> auto& { return s.breaker.buckets; }, time);
    choiceRow(b, u"bucket_start"_s, tr("Buckets start"), PolicyNames::breakerBucketStarts(),
        [](auto& s) -> auto& { return s.breaker.bucketStart; }, time,
        tr("at-call: a bucket opens at the call that finds the last one over (Polly); fixed: they turn on the "
           "clock (opossum)"));
    numberRow(b, u"failure_ratio"_s, tr("Failure ratio"), [](auto& s) -> auto& { return s.breaker.failureRatio; }, 0.0,
        1.0, ratio, tr("Failures over calls in the window at which it opens, 0 to 1"));
    choiceRow(b, u"comparator"_s, tr("Opens when"), PolicyNames::breakerComparators(),
        [](auto& s) -> auto& { return s.breaker.comparator; }, ratio,
        tr("at-least: ratio ≥ threshold (Polly, resilience4j); above: ratio > threshold (opossum, cockatiel)"));
    integerRow(b, u"minimum_calls"_s, tr("Minimum calls"), [](auto& s) -> auto& { return s.breaker.minimumCalls; }, ratio,
        tr("No verdict before this many calls are in the window"));
    // 0 reads "none": a rate must be above 0, so the two never meet.
    auto* perSecond = new QDoubleSpinBox(this);
    perSecond->setDecimals(3);
    perSecond->setRange(0.0, 1.0e6);
    perSecond->setSpecialValueText(tr("none"));
    addRow(b, u"minimum_calls_per_second"_s, tr("Minimum calls/s"), perSecond,
        [](auto& s) -> auto& { return s.breaker.minimumCallsPerSecond; },
        breakerIf([](const O& o) { return o.window == O::Window::Time || o.minimumCallsPerSecond; }),
        tr("Instead of minimum calls: a rate over the window (cockatiel's minimumRps)"));
    m_loaders << [this, perSecond] { perSecond->setValue(m_item.breaker.minimumCallsPerSecond.value_or(0.0)); };
    connect(perSecond, &QDoubleSpinBox::valueChanged, this, [this](double value) {
        if (m_loading)
            return;
        m_item.breaker.minimumCallsPerSecond = value > 0.0 ? std::optional<double>(value) : std::nullopt;
        commit();
    });
    flagRow(b, u"judge_after_success"_s, tr("Judged"), tr("after every call"),
        [](auto& s) -> auto& { return s.breaker.judgeAfterSuccess; }, ratio, tr("resilience4j judges after every call"));
    flagRow(b, u"count_rejected"_s, tr("Refused calls"), tr("count as calls"),
        [](auto& s) -> auto& { return s.breaker.countRejected; }, ratio, tr("opossum counts the calls it refused"));
    flagRow(b, u"reset_on_close"_s, tr("On close"), tr("the window starts empty"),
        [](auto& s) -> auto& { return s.breaker.resetOnClose; }, breaker, tr("opossum keeps its window"));
    millisRow(b, u"break_ms"_s, tr("Break"), [](auto& s) -> auto& { return s.breaker.breakDuration; }, breaker,
        tr("How long it stays open"));
    numberRow(b, u"break_growth"_s, tr("Break growth"), [](auto& s) -> auto& { return s.breaker.breakGrowth; }, 0.0, 1000.0,
        breaker, tr("Each half-open since the last close multiplies the break; 1: a fixed break"));
    optionalMillisRow(b, u"max_break_ms"_s, tr("Longest break"), [](auto& s) -> auto& { return s.breaker.maxBreakDuration; },
        breaker);
    integerRow(b, u"half_open_probes"_s, tr("Half-open probes"), [](auto& s) -> auto& { return s.breaker.halfOpenProbes; },
        breaker, tr("Calls let through to test the service; the verdict once every probe answered"));
    choiceRow(b, u"half_open_callers"_s, tr("Other callers"), PolicyNames::breakerHalfOpenCallers(),
        [](auto& s) -> auto& { return s.breaker.halfOpenCallers; }, breaker,
        tr("Beyond the probes: rejected (Polly, resilience4j, opossum) or wait for the verdict (cockatiel)"));
    choiceRow(b, u"transition"_s, tr("Half-open"), PolicyNames::breakerTransitions(),
        [](auto& s) -> auto& { return s.breaker.transition; }, breaker,
        tr("lazy: on the next call after the break; timer: when the break ends (opossum)"));
    choiceRow(b, u"scope"_s, tr("Scope"), PolicyNames::breakerScopes(), [](auto& s) -> auto& { return s.breaker.scope; },
        breaker, tr("One breaker for the client, or one per host"));
    optionalMillisRow(b, u"slow_call_ms"_s, tr("Slow call"), [](auto& s) -> auto& { return s.slowCall; }, breaker,
        tr("A call longer than this counts as a failure (resilience4j)"));
}

bool StrategyEditor::isShown(const QString& path) const
{
    const Shown shown = m_shown.value(path);
    return m_row >= 0 && shown && shown(m_item);
}

void StrategyEditor::updateRows()
{
    for (const PolicyField& f : std::as_const(m_fields))
        m_form->setRowVisible(f.label, f.path == u"strategy"_s || isShown(f.path));
}

void StrategyEditor::updateTexts()
{
    const int row = m_row;
    m_kind->setText(row >= 0 ? StrategyListModel::kindText(m_item.kind) : QString());
    m_note->setVisible(row >= 0 && m_item.kind == Kind::Retry);
    m_note->setText(tr("The policy's own retry: its limits, backoff, hints and rules are the sections above."));
    const qint64 delay = m_item.hedging.delay.count();
    m_delayMode->setText(delay == 0 ? tr("every copy at once")
            : delay < 0            ? tr("the next after a failure")
                                   : tr("the next after this long"));
    QStringList failures;
    for (const RuleCondition& c : std::as_const(m_item.failures))
        failures << u"• "_s + describeCondition(c);
    if (m_item.slowCall && m_item.kind == Kind::CircuitBreaker)
        failures << u"• "_s + tr("a call over %1").arg(formatMillis(*m_item.slowCall));
    const int longest = 16 * fontMetrics().height(); // about what a 30 em dock leaves beside the labels
    QStringList shown;
    for (const QString& line : std::as_const(failures))
        shown << fontMetrics().elidedText(line, Qt::ElideRight, longest);
    m_failures->setText(failures.isEmpty() ? tr("none") : shown.join(u'\n'));
    m_failures->setToolTip(failures.join(u'\n'));
}

void StrategyEditor::commit()
{
    if (m_loading || m_row < 0)
        return;
    updateRows();
    updateTexts();
    m_model->setItem(m_row, m_item);
    emit edited();
}

void StrategyEditor::loadRow(int row)
{
    m_row = row >= 0 && row < m_model->rowCount() ? row : -1;
    clearInputProblems();
    m_item = m_row >= 0 ? m_model->item(m_row) : ResilienceStrategy {};
    setEnabled(m_row >= 0);
    setTitle(m_row >= 0 ? tr("Strategy %1: %2").arg(m_row + 1).arg(StrategyListModel::kindText(m_item.kind))
                        : tr("Strategy (select one above)"));
    m_loading = true;
    for (const auto& load : std::as_const(m_loaders))
        load();
    m_loading = false;
    updateRows();
    updateTexts();
    refreshMarks();
}

bool StrategyEditor::showsModelItem() const
{
    return m_row >= 0 && m_row < m_model->rowCount() && m_model->item(m_row) == m_item;
}

void StrategyEditor::refreshMarks()
{
    const ResilienceStrategy* reference = m_model->referenceItem(m_row);
    for (PolicyField& f : m_fields) {
        const auto same = m_same.value(f.path);
        f.setChanged(m_row >= 0 && reference && same && (reference->kind != m_item.kind || !same(m_item, *reference)));
    }
}
