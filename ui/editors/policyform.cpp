// SPDX-License-Identifier: GPL-3.0-or-later
#include "editors/policyform.h"

#include "editors/policyformbuilder.h"
#include "editors/policylists/hinteditor.h"
#include "editors/policylists/hintlistmodel.h"
#include "editors/policylists/policylistsection.h"
#include "editors/policylists/ruleeditor.h"
#include "editors/policylists/rulelistmodel.h"
#include "editors/policylists/strategyeditor.h"
#include "editors/policylists/strategylistmodel.h"
#include "editors/pipelinediagram.h"

#include "policy/policydescription.h"
#include "policy/policyjson.h"

#include <QItemSelectionModel>
#include <QListView>

#include <QVBoxLayout>

using namespace Qt::StringLiterals;

PolicyForm::PolicyForm(QWidget* parent)
    : QWidget(parent)
{
    build();
    setPolicy(RetryPolicy {});
    setReference(RetryPolicy {});
}

void PolicyForm::build()
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    PolicyFormBuilder b(this, layout, &m_fields);
    using P = const RetryPolicy&;

    b.section(tr("Policy"));
    b.text(u"name"_s, tr("Name"), [](auto& p) -> auto& { return p.name; });
    b.text(u"source_title"_s, tr("Source"), [](auto& p) -> auto& { return p.sourceTitle; },
        tr("The document the rules come from, by its own title"));
    b.text(u"source"_s, tr("Citation"), [](auto& p) -> auto& { return p.source; },
        tr("Where every rule comes from: files, sections, versions"));
    b.text(u"description"_s, tr("Description"), [](auto& p) -> auto& { return p.description; });

    b.section(tr("Limits"));
    b.integer(u"limits.max_attempts"_s, tr("Max attempts"), [](auto& p) -> auto& { return p.limits.maxAttempts; },
         tr("Total attempts including the first"))
        .aliases = { u"limits.max_retries"_s };
    b.choice(u"limits.counted_as"_s, tr("Source counts"), { tr("attempts"), tr("retries") },
        [](auto& p) -> auto& { return p.limits.countedAs; }, tr("How the source states its limit; only changes how it is shown"));
    b.optionalMillis(u"limits.deadline_ms"_s, tr("Deadline"), [](auto& p) -> auto& { return p.limits.deadline; },
        tr("Overall, waits included"));
    b.choice(u"limits.deadline_mode"_s, tr("Deadline mode"), PolicyNames::deadlineModes(),
         [](auto& p) -> auto& { return p.limits.deadlineMode; })
        .relevant = [](P p) { return p.limits.deadline.has_value(); };
    b.optionalMillis(u"limits.attempt_timeout_ms"_s, tr("Attempt timeout"), [](auto& p) -> auto& { return p.limits.attemptTimeout; });
    b.optionalMillis(u"limits.connect_timeout_ms"_s, tr("Connect timeout"), [](auto& p) -> auto& { return p.limits.connectTimeout; });
    b.optionalInteger(u"limits.connections_per_host"_s, tr("Connections per host"),
        [](auto& p) -> auto& { return p.limits.connectionsPerHost; },
        tr("The client's connection pool; an attempt beyond it waits for a connection. Empty: one per attempt in flight"));

    b.section(tr("Backoff"));
    b.choice(u"backoff.kind"_s, tr("Kind"), PolicyNames::backoffKinds(), [](auto& p) -> auto& { return p.backoff.kind; });
    const auto waits = [](P p) { return p.backoff.kind != BackoffKind::None; };
    b.millis(u"backoff.base_ms"_s, tr("Base"), [](auto& p) -> auto& { return p.backoff.base; }).relevant = waits;
    b.number(u"backoff.multiplier"_s, tr("Multiplier"), [](auto& p) -> auto& { return p.backoff.multiplier; })
        .relevant = [](P p) { return p.backoff.kind == BackoffKind::Exponential; };
    b.millis(u"backoff.increment_ms"_s, tr("Increment"), [](auto& p) -> auto& { return p.backoff.increment; })
        .relevant = [](P p) { return p.backoff.kind == BackoffKind::Linear; };
    b.optionalMillis(u"backoff.cap_ms"_s, tr("Cap"), [](auto& p) -> auto& { return p.backoff.cap; }).relevant = waits;
    b.choice(u"backoff.origin"_s, tr("Exponent origin"), PolicyNames::exponentOrigins(), [](auto& p) -> auto& { return p.backoff.origin; })
        .relevant = [](P p) { return p.backoff.kind == BackoffKind::Exponential; };
    b.integer(u"backoff.exponent_offset"_s, tr("Exponent offset"), [](auto& p) -> auto& { return p.backoff.exponentOffset; })
        .relevant = [](P p) { return p.backoff.kind == BackoffKind::Exponential; };
    b.optionalMillis(u"backoff.throttling_base_ms"_s, tr("Base after throttling"),
         [](auto& p) -> auto& { return p.backoff.throttlingBase; })
        .relevant = waits;

    b.section(tr("Jitter"));
    b.choice(u"jitter.kind"_s, tr("Kind"), PolicyNames::jitterKinds(), [](auto& p) -> auto& { return p.jitter.kind; });
    b.number(u"jitter.factor"_s, tr("Factor (±)"), [](auto& p) -> auto& { return p.jitter.factor; })
        .relevant = [](P p) { return p.jitter.kind == JitterKind::Proportional; };
    b.number(u"jitter.low"_s, tr("Low ×"), [](auto& p) -> auto& { return p.jitter.low; })
        .relevant = [](P p) { return p.jitter.kind == JitterKind::Multiplicative; };
    b.number(u"jitter.high"_s, tr("High ×"), [](auto& p) -> auto& { return p.jitter.high; })
        .relevant = [](P p) { return p.jitter.kind == JitterKind::Multiplicative; };
    b.millis(u"jitter.additive_ms"_s, tr("Additive up to"), [](auto& p) -> auto& { return p.jitter.additive; })
        .relevant = [](P p) { return p.jitter.kind == JitterKind::Additive; };
    b.choice(u"jitter.cap"_s, tr("Cap applies"), PolicyNames::capOrders(), [](auto& p) -> auto& { return p.jitter.capOrder; });
    b.millis(u"jitter.floor_ms"_s, tr("Floor"), [](auto& p) -> auto& { return p.jitter.floor; });

    b.section(tr("Idempotency keys"));
    b.flag(u"idempotency.auto"_s, tr("Add automatically"), [](auto& p) -> auto& { return p.idempotency.autoAdd; });
    const auto keys = [](P p) { return p.idempotency.autoAdd; };
    b.words(u"idempotency.methods"_s, tr("On methods"), [](auto& p) -> auto& { return p.idempotency.methods; }).relevant = keys;
    b.text(u"idempotency.header"_s, tr("Header"), [](auto& p) -> auto& { return p.idempotency.header; });
    b.choice(u"idempotency.format"_s, tr("Format"), PolicyNames::keyFormats(), [](auto& p) -> auto& { return p.idempotency.format; })
        .relevant = keys;
    b.text(u"idempotency.prefix"_s, tr("Prefix"), [](auto& p) -> auto& { return p.idempotency.prefix; }).relevant = keys;

    b.section(tr("Retry quota (token bucket)"));
    b.flag(u"quota.enabled"_s, tr("Enabled"), [](auto& p) -> auto& { return p.quota.enabled; });
    const auto quota = [](P p) { return p.quota.enabled; };
    b.integer(u"quota.capacity"_s, tr("Capacity"), [](auto& p) -> auto& { return p.quota.capacity; }).relevant = quota;
    b.integer(u"quota.retry_cost"_s, tr("Retry cost"), [](auto& p) -> auto& { return p.quota.retryCost; }).relevant = quota;
    b.integer(u"quota.timeout_retry_cost"_s, tr("Timeout retry cost"), [](auto& p) -> auto& { return p.quota.timeoutRetryCost; })
        .relevant = quota;
    b.optionalInteger(u"quota.throttling_retry_cost"_s, tr("Throttling retry cost"),
         [](auto& p) -> auto& { return p.quota.throttlingRetryCost; })
        .relevant = quota;
    b.integer(u"quota.success_reward"_s, tr("Success reward"), [](auto& p) -> auto& { return p.quota.successReward; }).relevant = quota;
    b.flag(u"quota.refund_on_success"_s, tr("Refund on success"), [](auto& p) -> auto& { return p.quota.refundOnSuccess; })
        .relevant = quota;
    b.choice(u"quota.scope"_s, tr("Scope"), PolicyNames::budgetScopes(), [](auto& p) -> auto& { return p.quota.scope; }).relevant = quota;

    b.section(tr("Retry throttling (gRPC)"));
    b.flag(u"throttling.enabled"_s, tr("Enabled"), [](auto& p) -> auto& { return p.throttling.enabled; });
    const auto throttling = [](P p) { return p.throttling.enabled; };
    b.number(u"throttling.max_tokens"_s, tr("Max tokens"), [](auto& p) -> auto& { return p.throttling.maxTokens; }).relevant = throttling;
    b.number(u"throttling.token_ratio"_s, tr("Token ratio"), [](auto& p) -> auto& { return p.throttling.tokenRatio; })
        .relevant = throttling;
    b.choice(u"throttling.scope"_s, tr("Scope"), PolicyNames::budgetScopes(), [](auto& p) -> auto& { return p.throttling.scope; })
        .relevant = throttling;

    b.section(tr("Host throttle"));
    b.flag(u"host_throttle.enabled"_s, tr("Wait for rate-limit resets"), [](auto& p) -> auto& { return p.hostThrottle.enabled; });
    b.millis(u"host_throttle.max_wait_ms"_s, tr("Longest wait"), [](auto& p) -> auto& { return p.hostThrottle.maxWait; })
        .relevant = [](P p) { return p.hostThrottle.enabled; };

    b.section(tr("Server hints"), tr("Delays the server asks for: Retry-After and friends"));
    m_hintModel = new HintListModel(this);
    m_hintSection = new PolicyListSection(u"hints"_s, m_hintModel, new HintEditor(m_hintModel, this),
        tr("The first hint that is present, applies to the status and holds a valid value sets the delay."),
        this);
    PolicyField& hints = b.wideRow(u"hints"_s, tr("Delay hints, tried in order"), m_hintSection, {});
    hints.load = [this](P p) {
        m_hintModel->setItems(p.hints);
        m_hintSection->reloadItem();
    };
    hints.store = [this](RetryPolicy& p) { p.hints = m_hintModel->items(); };
    hints.placeProblems = [this](const QList<PolicyProblem>& problems) { return m_hintSection->placeProblems(problems); };
    hints.tintEditor = false;

    b.section(tr("What is retried"));
    m_ruleModel = new RuleListModel(this);
    m_ruleSection = new PolicyListSection(u"rules"_s, m_ruleModel, new RuleEditor(m_ruleModel, this),
        tr("A rule decides when all its conditions hold. When none matches, 1xx–3xx succeed and everything else "
           "stops."),
        this);
    PolicyField& rules = b.wideRow(u"rules"_s, tr("Rules, first match wins"), m_ruleSection, {});
    rules.load = [this](P p) {
        m_ruleModel->setItems(p.rules);
        m_ruleSection->reloadItem();
    };
    rules.store = [this](RetryPolicy& p) { p.rules = m_ruleModel->items(); };
    rules.placeProblems = [this](const QList<PolicyProblem>& problems) { return m_ruleSection->placeProblems(problems); };
    rules.tintEditor = false;

    buildPipeline(b);

    layout->addStretch(1);
    for (const PolicyField& f : std::as_const(m_fields))
        connectEditor(f.editor);
}

void PolicyForm::buildPipeline(PolicyFormBuilder& b)
{
    using P = const RetryPolicy&;
    using Kind = ResilienceStrategy::Kind;
    b.section(tr("Resilience pipeline"), tr("Timeouts, a circuit breaker, hedging and limiters around or inside the retry"));
    m_strategyModel = new StrategyListModel(this);
    m_pipelineSection = new PolicyListSection(u"pipeline"_s, m_strategyModel, new StrategyEditor(m_strategyModel, this),
        tr("Each strategy wraps the ones below it. Without any, the policy is its retry alone; the first one "
           "added brings the retry with it."),
        this);
    m_pipelineSection->setObjectName(u"pipelineSection"_s);
    // Add asks for the kind; an empty pipeline gets the retry too (StrategyListModel::addStrategy).
    QStringList kinds;
    for (int k = 0; k < strategyKindNames().size(); ++k)
        kinds << StrategyListModel::kindText(Kind(k));
    m_pipelineSection->setAddChoices(kinds, [this](int current, int choice) {
        return m_strategyModel->addStrategy(Kind(choice), current);
    });
    m_pipelineDiagram = new PipelineDiagram(this);
    m_pipelineDiagram->setObjectName(u"pipelineDiagram"_s);
    m_pipelineDiagram->setToolTip(tr("The pipeline, outermost first: each box wraps the ones inside it. Click one to edit it."));
    m_pipelineSection->addBelowList(m_pipelineDiagram);
    connect(m_pipelineDiagram, &PipelineDiagram::boxClicked, m_pipelineSection, &PolicyListSection::setCurrentRow);
    connect(m_pipelineSection->view()->selectionModel(), &QItemSelectionModel::currentChanged, this,
        [this](const QModelIndex& current) { m_pipelineDiagram->setSelected(current.isValid() ? current.row() : -1); });

    PolicyField& pipeline = b.wideRow(u"pipeline"_s, tr("Strategies, outermost first"), m_pipelineSection, {});
    pipeline.load = [this](P p) {
        m_strategyModel->setItems(p.pipeline);
        m_pipelineSection->reloadItem();
    };
    pipeline.store = [this](RetryPolicy& p) { p.pipeline = m_strategyModel->items(); };
    pipeline.placeProblems = [this](const QList<PolicyProblem>& problems) { return m_pipelineSection->placeProblems(problems); };
    pipeline.tintEditor = false;
}

QStringList PolicyForm::pipelineLabels(const RetryPolicy& policy)
{
    QStringList labels;
    for (const ResilienceStrategy& s : policy.pipeline) {
        if (s.kind != ResilienceStrategy::Kind::Retry) {
            labels << StrategyListModel::summaryOf(s);
            continue;
        }
        const int retries = policy.maxRetries();
        const QString limit = retries == 1 ? tr("1 retry") : tr("%1 retries").arg(retries);
        labels << tr("retry · %1 · %2").arg(limit, describeBackoff(policy.backoff, policy.jitter));
    }
    return labels;
}

void PolicyForm::updateDiagram()
{
    const RetryPolicy current = policy();
    QStringList labels = pipelineLabels(current);
    if (labels.isEmpty()) // no pipeline: the retry alone, drawn so, but nothing to select
        labels = QStringList { pipelineLabels([&] {
            RetryPolicy alone = current;
            alone.pipeline = { StrategyListModel::newStrategy(ResilienceStrategy::Kind::Retry) };
            return alone;
        }()).first() + tr(" (no pipeline: the retry alone)") };
    m_pipelineDiagram->setBoxes(labels, tr("the attempt: one HTTP request"));
    m_pipelineDiagram->setSelected(m_pipelineSection->currentRow());
}

void PolicyForm::connectEditor(QWidget* editor)
{
    if (auto* spin = qobject_cast<QSpinBox*>(editor))
        connect(spin, &QSpinBox::valueChanged, this, &PolicyForm::onEdited);
    else if (auto* dspin = qobject_cast<QDoubleSpinBox*>(editor))
        connect(dspin, &QDoubleSpinBox::valueChanged, this, &PolicyForm::onEdited);
    else if (auto* combo = qobject_cast<QComboBox*>(editor))
        connect(combo, &QComboBox::currentIndexChanged, this, &PolicyForm::onEdited);
    else if (auto* box = qobject_cast<QCheckBox*>(editor))
        connect(box, &QCheckBox::toggled, this, &PolicyForm::onEdited);
    else if (auto* line = qobject_cast<QLineEdit*>(editor))
        connect(line, &QLineEdit::textEdited, this, &PolicyForm::onEdited);
    else if (auto* list = qobject_cast<PolicyListSection*>(editor))
        connect(list, &PolicyListSection::edited, this, &PolicyForm::onEdited);
}

void PolicyForm::setPolicy(const RetryPolicy& policy)
{
    m_loading = true;
    m_base = policy;
    for (const PolicyField& f : std::as_const(m_fields))
        f.load(policy);
    m_loading = false;
    refreshMarks(policy);
    updateDiagram();
}

RetryPolicy PolicyForm::policy() const
{
    RetryPolicy p = m_base;
    for (const PolicyField& f : m_fields)
        f.store(p);
    return p;
}

void PolicyForm::setReference(const RetryPolicy& reference)
{
    m_reference = reference;
    m_ruleModel->setReference(reference.rules);
    m_hintModel->setReference(reference.hints);
    m_strategyModel->setReference(reference.pipeline);
    refreshMarks(policy());
}

void PolicyForm::refreshMarks(const RetryPolicy& current)
{
    m_changed = 0;
    for (PolicyField& f : m_fields) {
        RetryPolicy probe = m_reference;
        f.store(probe);
        const bool changed = !(probe == m_reference);
        m_changed += changed ? 1 : 0;
        f.setChanged(changed);
        if (f.relevant)
            f.editor->setEnabled(f.relevant(current));
    }
}

void PolicyForm::onEdited()
{
    if (m_loading)
        return;
    const RetryPolicy current = policy();
    refreshMarks(current);
    updateDiagram();
    emit edited();
}

QList<PolicyProblem> PolicyForm::showProblems(const QList<PolicyProblem>& given)
{
    QList<PolicyProblem> problems = given;
    const QList<PolicyProblem> typed = inputProblems();
    for (const PolicyProblem& p : typed) {
        if (!problems.contains(p))
            problems << p;
    }
    QList<PolicyProblem> unowned = problems;
    for (PolicyField& f : m_fields) {
        QList<PolicyProblem> owned;
        for (const PolicyProblem& p : std::as_const(problems)) {
            if (f.owns(p.path)) {
                owned << p;
                unowned.removeAll(p);
            }
        }
        if (f.placeProblems)
            owned = f.placeProblems(owned);
        QStringList messages;
        for (const PolicyProblem& p : std::as_const(owned))
            messages << (p.path == f.path ? p.message : p.path + u": "_s + p.message);
        f.setProblems(messages);
    }
    return unowned;
}

QList<PolicyProblem> PolicyForm::inputProblems() const
{
    return m_ruleSection->inputProblems() + m_hintSection->inputProblems() + m_pipelineSection->inputProblems();
}
