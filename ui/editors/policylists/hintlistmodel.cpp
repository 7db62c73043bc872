// SPDX-License-Identifier: GPL-3.0-or-later
#include "editors/policylists/hintlistmodel.h"

#include "editors/policylists/statuslistedit.h"

#include "policy/policydescription.h"
#include "policy/retrydecision.h"

using namespace Qt::StringLiterals;

HintListModel::HintListModel(QObject* parent)
    : PolicyItemListModel<DelayHint>(parent)
{
}

QString HintListModel::summaryOf(const DelayHint& h)
{
    QStringList parts;
    switch (h.format) {
    case HintFormat::RetryAfter:
        parts << (h.alsoRetryAfterMs ? tr("%1 (or retry-after-ms)").arg(h.header) : h.header);
        break;
    case HintFormat::Milliseconds:
        parts << tr("%1 in ms").arg(h.header);
        break;
    case HintFormat::Seconds:
        parts << tr("%1 in s").arg(h.header);
        break;
    }
    parts << (h.statuses.isEmpty() ? tr("any status") : StatusListEdit::shortText(h.statuses));
    switch (h.combine) {
    case HintCombine::Replace:
        parts << tr("wait what it asks");
        break;
    case HintCombine::AtLeastBackoff:
        parts << tr("at least the backoff");
        break;
    case HintCombine::ClampAroundBackoff:
        parts << tr("backoff + up to %1").arg(formatMillis(h.window));
        break;
    }
    if (h.max) {
        const QString over = h.overMax == HintOverMax::GiveUp ? tr("give up")
            : h.overMax == HintOverMax::Clamp                 ? tr("clamp")
                                                              : tr("ignore it");
        parts << tr("over %1: %2").arg(formatMillis(*h.max), over);
    }
    return parts.join(u" · "_s);
}

QString HintListModel::summary(int row) const
{
    return summaryOf(item(row));
}

QString HintListModel::details(int row) const
{
    return describeHint(item(row));
}

DelayHint HintListModel::defaultItem() const
{
    DelayHint hint;
    hint.header = u"Retry-After"_s;
    return hint;
}
