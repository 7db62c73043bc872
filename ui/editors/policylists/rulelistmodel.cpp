// SPDX-License-Identifier: GPL-3.0-or-later
#include "editors/policylists/rulelistmodel.h"

#include "editors/policylists/statuslistedit.h"

#include "policy/policydescription.h"

using namespace Qt::StringLiterals;

RuleListModel::RuleListModel(QObject* parent)
    : PolicyItemListModel<RetryRule>(parent)
{
}

QString RuleListModel::actionText(RuleAction action)
{
    switch (action) {
    case RuleAction::Retry:
        return tr("retry");
    case RuleAction::Stop:
        return tr("stop");
    case RuleAction::Success:
        return tr("success");
    }
    return {};
}

QString RuleListModel::summaryOf(const RetryRule& rule)
{
    const RuleCondition& w = rule.when;
    QStringList parts;
    QString request = w.methods.join(u'/');
    if (w.idempotencyKey) {
        const QString key = *w.idempotencyKey ? tr("with key") : tr("without key");
        request = request.isEmpty() ? key : request + u' ' + key;
    }
    if (!request.isEmpty())
        parts << request;
    if (!w.statuses.isEmpty())
        parts << StatusListEdit::shortText(w.statuses);
    if (!w.errors.isEmpty()) {
        QStringList names;
        for (ErrorClass error : w.errors)
            names << errorClassName(error);
        parts << names.join(u", "_s);
    } else if (w.outcome == OutcomeKind::Error) {
        parts << tr("any error");
    } else if (w.outcome == OutcomeKind::Status && w.statuses.isEmpty()) {
        parts << tr("any status");
    }
    if (w.serverCouldHaveActed)
        parts << (*w.serverCouldHaveActed ? tr("server may have acted") : tr("server never saw it"));
    if (w.body) {
        const QString values = w.body->values.size() > 2 ? w.body->values.mid(0, 2).join(u'|') + u"|…"_s
                                                         : w.body->values.join(u'|');
        parts << (values.isEmpty() ? tr("body %1").arg(w.body->path) : tr("body %1 = %2").arg(w.body->path, values));
    }
    for (const HeaderMatch& h : w.headers) {
        if (h.absent)
            parts << tr("no %1").arg(h.name);
        else if (h.values.isEmpty())
            parts << tr("%1 present").arg(h.name);
        else
            parts << tr("%1: %2").arg(h.name, h.values.size() > 2 ? h.values.mid(0, 2).join(u'|') + u"|…"_s : h.values.join(u'|'));
    }
    if (w.afterLostAnswer)
        parts << (*w.afterLostAnswer ? tr("after a lost answer") : tr("no lost answer"));
    const QString condition = parts.isEmpty() ? tr("anything") : parts.join(u" · "_s);
    const QString action = actionText(rule.action) + (rule.throttling ? tr(" (throttling)") : QString());
    return tr("%1 → %2").arg(condition, action);
}

QString RuleListModel::summary(int row) const
{
    return summaryOf(item(row));
}

QString RuleListModel::details(int row) const
{
    const RetryRule& rule = item(row);
    QStringList lines;
    lines << (rule.name.isEmpty() ? tr("(unnamed rule)") : tr("Rule %1").arg(rule.name));
    lines << tr("When %1: %2").arg(describeCondition(rule.when), actionText(rule.action));
    if (!rule.note.isEmpty())
        lines << rule.note;
    return lines.join(u'\n');
}

RetryRule RuleListModel::defaultItem() const
{
    // A common start, narrowed from there: a 503 answer is retried.
    RetryRule rule;
    rule.name = tr("new-rule");
    rule.when.outcome = OutcomeKind::Status;
    rule.when.statuses = { StatusRange { 503, 503 } };
    rule.action = RuleAction::Retry;
    return rule;
}
