// SPDX-License-Identifier: GPL-3.0-or-later
#include "herd/form/herdexperimentform.h"

#include "herd/form/herdformbuilder.h"
#include "herd/form/herdpolicylist.h"

#include "editors/policyfield.h"
#include "sim/herdcatalog.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <climits>

using namespace Qt::StringLiterals;

namespace {

using Kind = HerdServerModel::Kind;
using Loop = HerdClientModel::Loop;

bool queue(const HerdExperiment& e)
{
    return e.server.kind == Kind::Queue;
}

bool queueWithServers(const HerdExperiment& e)
{
    return queue(e) && e.server.concurrency > 0;
}

bool openLoop(const HerdExperiment& e)
{
    return e.clients.loop == Loop::Open;
}

QString problemText(const PolicyProblem& p)
{
    return p.path.isEmpty() ? p.message : p.path + u": "_s + p.message;
}

} // namespace

HerdExperimentForm::HerdExperimentForm(QWidget* parent)
    : QWidget(parent)
    , m_builtIns(new QComboBox(this))
    , m_title(new QLabel(this))
    , m_otherProblems(new QLabel(this))
    , m_policies(new HerdPolicyList(this))
{
    setObjectName(u"HerdExperimentForm"_s);
    for (const QString& name : HerdCatalog::names()) {
        m_builtIns->addItem(name, name);
        if (const std::optional<HerdExperiment> e = HerdCatalog::experiment(name))
            m_builtIns->setItemData(m_builtIns->count() - 1, e->title, Qt::ToolTipRole);
    }
    m_builtIns->setToolTip(tr("A built-in experiment, each reproducing a published result; edit it below"));
    m_title->setWordWrap(true);
    m_title->setForegroundRole(QPalette::PlaceholderText);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_otherProblems->setWordWrap(true);
    m_otherProblems->hide();
    connect(m_builtIns, &QComboBox::activated, this, [this](int index) { loadBuiltIn(m_builtIns->itemData(index).toString()); });
    connect(m_policies, &HerdPolicyList::changed, this, &HerdExperimentForm::onEdited);
    build();
    if (m_builtIns->count() > 0)
        loadBuiltIn(m_builtIns->itemData(0).toString());
}

void HerdExperimentForm::build()
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(fontMetrics().height() / 3);
    auto* top = new QHBoxLayout;
    auto* pick = new QLabel(tr("E&xperiment"), this);
    pick->setBuddy(m_builtIns);
    top->addWidget(pick);
    top->addWidget(m_builtIns, 1);
    layout->addLayout(top);
    layout->addWidget(m_title);
    layout->addWidget(m_otherProblems);

    HerdFormBuilder b(this, layout, &m_fields, [this] { onEdited(); });
    b.section(tr("Server"), tr("The service the clients call"));
    b.choice<Kind>(u"server.kind"_s, tr("Model"), { tr("queue"), tr("optimistic row") },
         [](HerdExperiment& e) -> Kind& { return e.server.kind; },
         tr("Queue: servers, a queue and a service time. Optimistic row (AWS 2015): every request reads one row's "
            "version and writes it back conditionally; a write that lost a race fails."));
    b.integer(u"server.concurrency"_s, tr("Servers"), [](HerdExperiment& e) -> int& { return e.server.concurrency; }, 0,
        INT_MAX / 2, tr("Requests in service at once; the rest wait in the queue"), tr("unlimited"));
    b.distribution(u"server.service"_s, tr("Service time"), [](HerdExperiment& e) -> HerdDistribution& { return e.server.service; },
        tr("How long one request takes to serve"));
    b.spread(u"server.service.sd"_s, tr("Spread (sd)"), [](HerdExperiment& e) -> HerdDistribution& { return e.server.service; },
        tr("The standard deviation of a normal service time"));
    b.number(u"server.load_latency"_s, tr("Load latency"), [](HerdExperiment& e) -> double& { return e.server.loadLatencyMs; }, 0,
         1.0e6, 2, tr(" ms"), tr("Added to a request's service time per request already in service (latency grows with load)"))
        .relevant = queue;
    b.optionalInteger(u"server.queue_limit"_s, tr("Queue limit"), [](HerdExperiment& e) -> std::optional<int>& { return e.server.queueLimit; },
         tr("Requests waiting for a server; beyond it the server answers the overload status at once"))
        .relevant = queueWithServers;
    b.optionalMillis(u"server.queue_timeout"_s, tr("Queue timeout"),
         [](HerdExperiment& e) -> std::optional<Millis>& { return e.server.queueTimeout; },
         tr("A request that waited longer is answered the overload status when its turn comes"))
        .relevant = queueWithServers;
    b.integer(u"server.overload_status"_s, tr("Overload status"), [](HerdExperiment& e) -> int& { return e.server.overloadStatus; },
         100, 599, tr("The answer to a request the queue refused or timed out"))
        .relevant = queueWithServers;
    b.distribution(u"server.hop"_s, tr("Network hop"), [](HerdExperiment& e) -> HerdDistribution& { return e.server.hop; },
        tr("Network delay, each way"));
    b.spread(u"server.hop.sd"_s, tr("Hop spread (sd)"), [](HerdExperiment& e) -> HerdDistribution& { return e.server.hop; },
        tr("The standard deviation of a normal network delay"));

    b.section(tr("Failure"), tr("What strikes the server, and when (seconds from the start)"));
    b.window(u"server.outage"_s, tr("Outage"), [](HerdExperiment& e) -> std::optional<HerdWindow>& { return e.server.outage; },
        tr("The server fails every request in this window"));
    b.choice<HerdOutageAnswer>(u"server.outage.answer"_s, tr("Answer"), { tr("a status"), tr("reset"), tr("refused"), tr("no answer") },
         [](HerdExperiment& e) -> HerdOutageAnswer& { return e.server.outageAnswer; },
         tr("What the failing server does: answer a status, reset the connection after the request arrived, refuse "
            "the connection, or never answer (the attempt timeout ends it)"))
        .relevant = [](const HerdExperiment& e) { return e.server.outage.has_value(); };
    b.integer(u"server.outage.status"_s, tr("Outage status"), [](HerdExperiment& e) -> int& { return e.server.outageStatus; }, 100,
         599, tr("The status answered during the outage"))
        .relevant = [](const HerdExperiment& e) { return e.server.outage && e.server.outageAnswer == HerdOutageAnswer::Status; };
    b.window(u"server.cut"_s, tr("Capacity cut"), [](HerdExperiment& e) -> std::optional<HerdWindow>& { return e.server.cut; },
        tr("The server has only part of its capacity in this window"));
    b.percent(u"server.cut.fraction"_s, tr("Capacity left"), [](HerdExperiment& e) -> double& { return e.server.cutFraction; },
         tr("The share of its capacity the server keeps during the cut: service times are divided by it"))
        .relevant = [](const HerdExperiment& e) { return e.server.cut.has_value(); };
    b.window(u"server.latency_spike"_s, tr("Latency spike"),
        [](HerdExperiment& e) -> std::optional<HerdWindow>& { return e.server.latencySpike; },
        tr("Every service started in this window takes longer"));
    b.number(u"server.latency_spike.extra_ms"_s, tr("Spike adds"), [](HerdExperiment& e) -> double& { return e.server.latencySpikeMs; }, 0,
         1.0e7, 0, tr(" ms"), tr("How much longer a service started in the spike takes"))
        .relevant = [](const HerdExperiment& e) { return e.server.latencySpike.has_value(); };
    b.percent(u"server.error_rate"_s, tr("Error rate"), [](HerdExperiment& e) -> double& { return e.server.errorRate; },
        tr("A share of the requests served answers the error status instead, all the time"));
    b.integer(u"server.error_status"_s, tr("Error status"), [](HerdExperiment& e) -> int& { return e.server.errorStatus; }, 100, 599,
         tr("The status of those errors"))
        .relevant = [](const HerdExperiment& e) { return e.server.errorRate > 0; };
    b.optionalMillis(u"server.retry_after"_s, tr("Retry-After"), [](HerdExperiment& e) -> std::optional<Millis>& { return e.server.retryAfter; },
        tr("Sent with every 429 and 503 answer (delta-seconds, rounded up)"));

    b.section(tr("Clients"), tr("Who calls the server, and how"));
    b.choice<Loop>(u"clients.loop"_s, tr("Loop"), { tr("closed"), tr("open") },
        [](HerdExperiment& e) -> Loop& { return e.clients.loop; },
        tr("Closed: each client sends its next request once the last one ended. Open: requests arrive at a rate, "
           "whatever happened to earlier ones"));
    b.integer(u"clients.count"_s, tr("Clients"), [](HerdExperiment& e) -> int& { return e.clients.clients; }, 1, INT_MAX / 2,
        tr("Closed loop: the clients. Open loop: the requests that arrive in all"));
    b.integer(u"clients.requests_per_client"_s, tr("Requests each"), [](HerdExperiment& e) -> int& { return e.clients.requestsPerClient; },
         1, INT_MAX / 2, tr("Each client's requests, one after the other"))
        .relevant = [](const HerdExperiment& e) { return !openLoop(e); };
    b.millis(u"clients.think"_s, tr("Think time"), [](HerdExperiment& e) -> Millis& { return e.clients.think; },
         tr("Between a client's answer and its next request"))
        .relevant = [](const HerdExperiment& e) { return !openLoop(e); };
    b.number(u"clients.rate"_s, tr("Rate"), [](HerdExperiment& e) -> double& { return e.clients.rate; }, 0, 1.0e7, 1, tr(" /s"),
         tr("New requests per second"))
        .relevant = openLoop;
    b.flag(u"clients.poisson"_s, tr("Random arrivals"), [](HerdExperiment& e) -> bool& { return e.clients.poisson; },
         tr("Exponential gaps between arrivals (Poisson); off: fixed gaps"))
        .relevant = openLoop;
    b.window(u"clients.spike"_s, tr("Load spike"), [](HerdExperiment& e) -> std::optional<HerdWindow>& { return e.clients.spike; },
         tr("Requests arrive at the spike rate in this window"))
        .relevant = openLoop;
    b.number(u"clients.spike.rate"_s, tr("Spike rate"), [](HerdExperiment& e) -> double& { return e.clients.spikeRate; }, 0, 1.0e7,
         1, tr(" /s"), tr("New requests per second during the load spike"))
        .relevant = [](const HerdExperiment& e) { return openLoop(e) && e.clients.spike.has_value(); };
    b.integer(u"clients.processes"_s, tr("Processes"), [](HerdExperiment& e) -> int& { return e.clients.processes; }, 1,
         INT_MAX / 2, tr("The client processes the arrivals are spread over; each keeps its own retry budget and breaker"))
        .relevant = openLoop;
    b.method(u"clients.method"_s, tr("Method"), [](HerdExperiment& e) -> QString& { return e.clients.method; },
        tr("With the policy's idempotency settings: what the server may apply twice"));
    b.optionalMillis(u"clients.attempt_timeout"_s, tr("Attempt timeout"),
        [](HerdExperiment& e) -> std::optional<Millis>& { return e.clients.attemptTimeout; },
        tr("Overrides the policy's attempt timeout (none: the policy's own)"));

    b.section(tr("Run"), tr("How long, how often, and how finely it is measured"));
    b.seconds(u"duration"_s, tr("Duration"), [](HerdExperiment& e) -> Millis& { return e.duration; },
        tr("Open loop: arrivals and measuring stop here. Closed loop: a cap (0: until every client is done)"));
    b.integer(u"runs"_s, tr("Runs"), [](HerdExperiment& e) -> int& { return e.runs; }, 1, 1000,
        tr("Each policy runs this many times, seeds seed, seed + 1, …; the totals are their means"));
    b.seed(u"seed"_s, tr("Seed"), [](HerdExperiment& e) -> std::uint64_t& { return e.seed; },
        tr("The same seed gives the same result"));
    b.millis(u"resolution"_s, tr("Resolution"), [](HerdExperiment& e) -> Millis& { return e.resolution; },
        tr("The width of one point of the charts"));

    auto* policyGroup = new QGroupBox(tr("Policies"), this);
    policyGroup->setToolTip(tr("One to four policies, each run against the same experiment"));
    auto* policyLayout = new QVBoxLayout(policyGroup);
    const int em = fontMetrics().height();
    policyLayout->setContentsMargins(em / 2, em / 2, em / 2, em / 2);
    policyLayout->addWidget(m_policies);
    m_policyProblems = new QLabel(policyGroup);
    m_policyProblems->setWordWrap(true);
    m_policyProblems->hide();
    policyLayout->addWidget(m_policyProblems);
    layout->addWidget(policyGroup);
    layout->addStretch(1);
}

bool HerdExperimentForm::loadBuiltIn(const QString& name)
{
    const std::optional<HerdExperiment> experiment = HerdCatalog::experiment(name);
    if (!experiment)
        return false;
    setExperiment(*experiment);
    return true;
}

void HerdExperimentForm::setExperiment(const HerdExperiment& experiment)
{
    m_loading = true;
    m_base = experiment;
    for (HerdField& f : m_fields)
        f.load(experiment);
    m_policies->setPolicies(experiment.policies);
    const int index = m_builtIns->findData(experiment.name);
    m_builtIns->setPlaceholderText(experiment.name.isEmpty() ? tr("(unnamed)") : experiment.name);
    m_builtIns->setCurrentIndex(index);
    m_loading = false;
    onEdited();
}

HerdExperiment HerdExperimentForm::experiment() const
{
    HerdExperiment e = m_base;
    for (const HerdField& f : m_fields)
        f.store(e);
    e.policies = m_policies->policies();
    return e;
}

void HerdExperimentForm::onEdited()
{
    if (m_loading)
        return;
    const HerdExperiment e = experiment();
    for (HerdField& f : m_fields)
        f.updateRelevance(e);
    m_problems = validate(e);
    QStringList unplaced;
    QStringList policyProblems;
    QList<QStringList> messages(m_fields.size());
    for (const PolicyProblem& p : std::as_const(m_problems)) {
        // The most specific field that owns it: "server.service.sd" is the spread's, not the service time's.
        qsizetype owner = -1;
        for (qsizetype i = 0; i < m_fields.size(); ++i) {
            if (m_fields.at(i).owns(p.path) && (owner < 0 || m_fields.at(i).path.size() > m_fields.at(owner).path.size()))
                owner = i;
        }
        if (owner >= 0)
            messages[owner] << p.message;
        else if (p.path.startsWith(u"policies"_s))
            policyProblems << problemText(p);
        else
            unplaced << problemText(p);
    }
    for (qsizetype i = 0; i < m_fields.size(); ++i)
        m_fields[i].setProblems(messages.at(i));
    QPalette palette = m_otherProblems->palette();
    palette.setColor(QPalette::WindowText, problemColour(palette));
    m_otherProblems->setPalette(palette);
    m_otherProblems->setText(unplaced.join(u'\n'));
    m_otherProblems->setVisible(!unplaced.isEmpty());
    m_policyProblems->setPalette(palette);
    m_policyProblems->setText(policyProblems.join(u'\n'));
    m_policyProblems->setVisible(!policyProblems.isEmpty());
    updateTitle();
    emit edited();
}

void HerdExperimentForm::updateTitle()
{
    m_title->setText(m_base.title);
    QStringList tip;
    if (!m_base.claims.isEmpty())
        tip << tr("Shows: %1").arg(m_base.claims);
    if (!m_base.source.isEmpty())
        tip << tr("Source: %1").arg(m_base.source);
    m_title->setToolTip(tip.join(u"\n\n"_s));
    m_title->setVisible(!m_base.title.isEmpty());
}

QWidget* HerdExperimentForm::editorFor(const QString& path) const
{
    for (const HerdField& f : m_fields) {
        if (f.path == path)
            return f.editor;
    }
    return nullptr;
}
