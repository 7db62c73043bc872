// SPDX-License-Identifier: GPL-3.0-or-later
#include "labview/scenariooutline.h"

#include "lab/faultscenario.h"

#include <QHeaderView>

using namespace Qt::StringLiterals;

namespace {

QString ms(std::chrono::milliseconds value)
{
    return value.count() >= 1000 && value.count() % 100 == 0 ? ScenarioOutline::tr("%1 s").arg(double(value.count()) / 1000.0)
                                                             : ScenarioOutline::tr("%1 ms").arg(value.count());
}

QString modeName(FaultRoute::Mode mode)
{
    switch (mode) {
    case FaultRoute::Mode::Sequence:
        return ScenarioOutline::tr("in sequence");
    case FaultRoute::Mode::Loop:
        return ScenarioOutline::tr("in a loop");
    case FaultRoute::Mode::Random:
        return ScenarioOutline::tr("at random (seeded)");
    }
    return {};
}

QString describeLimit(const RateLimitSpec& r)
{
    return ScenarioOutline::tr("rate limit %1 per %2 (%3), headers: %4")
        .arg(r.limit)
        .arg(ms(r.window), r.algorithm == RateLimitSpec::Algorithm::TokenBucket ? ScenarioOutline::tr("token bucket")
                                                                                 : ScenarioOutline::tr("fixed window"),
            RateLimitSpec::dialectName(r.dialect));
}

} // namespace

ScenarioOutline::ScenarioOutline(QWidget* parent)
    : QTreeWidget(parent)
{
    setHeaderLabels({ tr("Route / step"), tr("Weight") });
    setWordWrap(true);
    setUniformRowHeights(false);
    header()->setStretchLastSection(false);
    header()->setSectionResizeMode(0, QHeaderView::Stretch);
    header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
}

QString ScenarioOutline::describeStep(const FaultStep& s)
{
    QString text;
    switch (s.kind) {
    case FaultStep::Kind::Respond:
        text = tr("answer %1").arg(s.status);
        break;
    case FaultStep::Kind::Late:
        text = tr("apply, answer %1 only after %2").arg(s.status).arg(ms(s.delay));
        break;
    case FaultStep::Kind::Close:
        text = tr("close the connection without answering");
        break;
    case FaultStep::Kind::Reset:
        text = tr("reset the connection (RST)");
        break;
    case FaultStep::Kind::Truncate:
        text = tr("answer %1, cut the body short").arg(s.status);
        break;
    case FaultStep::Kind::Garbage:
        text = tr("answer bytes that are not HTTP");
        break;
    case FaultStep::Kind::Hang:
        text = s.duration.count() ? tr("hang for %1").arg(ms(s.duration)) : tr("hang forever");
        break;
    case FaultStep::Kind::Refuse:
        text = tr("refuse connections for %1").arg(ms(s.duration));
        break;
    case FaultStep::Kind::RateLimit:
        text = tr("answer 429 (rate limited)");
        break;
    case FaultStep::Kind::Forward:
        text = s.answerLost ? tr("forward upstream, then lose the answer") : tr("forward to the upstream");
        break;
    case FaultStep::Kind::Outage:
        text = s.outageMode == OutageMode::Status
            ? tr("outage: every request answered %1 for %2").arg(s.status).arg(ms(s.duration))
            : s.outageMode == OutageMode::Reset ? tr("outage: every request reset for %1").arg(ms(s.duration))
                                                : tr("outage: connections refused for %1").arg(ms(s.duration));
        break;
    }
    if (s.kind != FaultStep::Kind::Late && s.delay.count() > 0)
        text += tr(", after %1").arg(ms(s.delay));
    if (const std::optional<LatencyRamp>& r = s.latencyRamp) {
        text += tr(", latency %1 → %2").arg(ms(r->from), ms(r->to));
        text += r->over.count() > 0 ? tr(" over %1").arg(ms(r->over)) : tr(" over %1 answers").arg(r->overPlays);
    }
    if (s.retryAfterForm != RetryAfterForm::None)
        text += tr(", Retry-After %1").arg(ms(s.retryAfter));
    if (s.dribbleBytes > 0)
        text += tr(", body %1 bytes every %2").arg(s.dribbleBytes).arg(ms(s.dribbleInterval));
    if (s.repeat > 1)
        text += tr(" ×%1").arg(s.repeat);
    else if (s.repeat < 0)
        text += tr(" (forever)");
    if (!s.note.isEmpty())
        text += u" — "_s + s.note;
    return text;
}

void ScenarioOutline::setScenario(const FaultScenario& scenario)
{
    clear();
    for (const FaultRoute& route : scenario.routes) {
        QStringList methods;
        for (const QByteArray& m : route.methods)
            methods << QString::fromLatin1(m);
        const QString title = (methods.isEmpty() ? u"*"_s : methods.join(u'|')) + u' ' + route.path;
        QStringList facts { route.name, modeName(route.mode) };
        if (route.idempotency.enabled)
            facts << (route.idempotency.required ? tr("idempotency key required") : tr("idempotency keys honoured"));
        if (route.rateLimit)
            facts << describeLimit(*route.rateLimit);
        auto* item = new QTreeWidgetItem(this, { title });
        item->setToolTip(0, title + u"\n"_s + facts.join(u", "_s));
        QFont bold = font();
        bold.setBold(true);
        item->setFont(0, bold);
        auto* about = new QTreeWidgetItem(item, { facts.join(u", "_s) });
        about->setToolTip(0, about->text(0));
        about->setForeground(0, palette().brush(QPalette::PlaceholderText));
        for (const FaultStep& step : route.steps) {
            auto* child = new QTreeWidgetItem(item, { describeStep(step),
                route.mode == FaultRoute::Mode::Random ? QString::number(step.weight) : QString() });
            child->setToolTip(0, child->text(0));
        }
        item->setExpanded(true);
    }
    if (scenario.rateLimit) {
        auto* item = new QTreeWidgetItem(this, { tr("Shared %1").arg(describeLimit(*scenario.rateLimit)) });
        item->setToolTip(0, item->text(0));
    }
    for (const OutageWindow& o : scenario.outages) {
        new QTreeWidgetItem(this, { tr("Outage from %1 for %2").arg(ms(o.from), ms(o.duration)) });
    }
}
