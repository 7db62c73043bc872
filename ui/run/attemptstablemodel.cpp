// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/attemptstablemodel.h"

#include "run/answerwords.h"
#include "run/hedgewords.h"

#include "livesession.h"

#include <QColor>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

using namespace Qt::StringLiterals;

AttemptsTableModel::AttemptsTableModel(LiveSession* session, QObject* parent)
    : QAbstractTableModel(parent)
    , m_session(session)
{
    m_rows = int(session->finishedAttempts());
    connect(session, &LiveSession::refreshed, this, &AttemptsTableModel::onRefreshed);
    connect(session, &LiveSession::cleared, this, &AttemptsTableModel::onCleared);
}

void AttemptsTableModel::onRefreshed(const LiveSessionDelta& delta)
{
    const int after = int(delta.attemptsAfter);
    if (after > m_rows) {
        beginInsertRows({}, m_rows, after - 1);
        m_rows = after;
        endInsertRows();
    }
}

void AttemptsTableModel::onCleared()
{
    beginResetModel();
    m_rows = 0;
    for (CachedRow& cached : m_cache)
        cached.row = -1;
    endResetModel();
}

int AttemptsTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

int AttemptsTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

const AttemptRecord* AttemptsTableModel::attemptAt(int row) const
{
    if (row < 0 || row >= m_rows || row >= m_session->finishedAttempts())
        return nullptr;
    // The store holds packed rows; the few rows a view paints at once are rebuilt as records and kept
    // (the view asks for every column and role of a row in turn).
    for (const CachedRow& cached : m_cache) {
        if (cached.row == row)
            return &cached.record;
    }
    CachedRow& slot = m_cache[m_nextSlot];
    m_nextSlot = (m_nextSlot + 1) % kCachedRows;
    slot.row = row;
    slot.record = m_session->attemptRecord(row);
    return &slot.record;
}

int AttemptsTableModel::rowOf(int runId, int index) const
{
    for (int row = 0; row < m_rows && row < m_session->finishedAttempts(); ++row) {
        const StoredAttempt a = m_session->attempt(row);
        if (a.runId() == runId && a.index() == index)
            return row;
    }
    return -1;
}

QString AttemptsTableModel::resultText(const AttemptRecord& a)
{
    if (a.refused) // never sent: no status, no error, said as what refused it
        return AnswerWords::notSent(a);
    if (HedgeWords::isLost(a)) // cancelled in flight by the hedging: its Decision says which copy won
        return tr("no answer");
    if (a.error)
        return a.status ? u"%1 + %2"_s.arg(*a.status).arg(errorClassName(*a.error)) : errorClassName(*a.error);
    if (a.status)
        return a.reasonPhrase.isEmpty() ? QString::number(*a.status) : u"%1 %2"_s.arg(*a.status).arg(a.reasonPhrase);
    if (a.abortReason != AbortReason::None)
        return abortReasonName(a.abortReason);
    return tr("no answer");
}

HedgeWords::CopyContext AttemptsTableModel::copyContext(const AttemptRecord& a) const
{
    return HedgeWords::contextOf(m_session->session(), a);
}

QVariant AttemptsTableModel::display(const AttemptRecord& a, int column) const
{
    switch (column) {
    case Run:
        return a.runId;
    case Attempt:
        return a.index;
    case Start: // a call never sent: when it was refused
        if (const std::optional<MonoTime> at = a.refused ? a.at.finished : a.at.started)
            return tr("%1 s").arg(toMs(*at) / 1000.0, 0, 'f', 3);
        return QVariant();
    case Method:
        return a.method;
    case Target:
        return a.url.path(QUrl::FullyDecoded);
    case Result:
        return resultText(a);
    case Duration:
        return a.duration() ? tr("%1 ms").arg(toMs(*a.duration()), 0, 'f', 1) : QVariant();
    case Decision:
        if (a.observed)
            return tr("observed");
        if (a.hedge) // what the copy was and how it ended: "copy 2 (after the delay) — won"
            return HedgeWords::label(a, copyContext(a));
        return a.decision ? verdictName(a.decision->verdict) : tr("cancelled");
    case Wait:
        if (a.observed) // the client's own wait before this attempt
            return AnswerWords::observedWait(a);
        if (a.decision && a.decision->verdict == Verdict::Retry)
            return formatMillis(a.decision->delay);
        return QVariant();
    case DelaySourceColumn:
        if (a.observed && a.observed->clientWait)
            return tr("client");
        if (a.decision && a.decision->verdict == Verdict::Retry)
            return delaySourceName(a.decision->source);
        return QVariant();
    case Reason:
        if (a.observed)
            return AnswerWords::observedReason(a);
        if (HedgeWords::isLost(a))
            return HedgeWords::lostReason(a, copyContext(a));
        return a.decision ? a.decision->reason : QString();
    default:
        return QVariant();
    }
}

QVariant AttemptsTableModel::sortValue(const AttemptRecord& a, int column) const
{
    switch (column) {
    case Start:
        if (const std::optional<MonoTime> at = a.refused ? a.at.finished : a.at.started)
            return toMs(*at);
        return -1.0;
    case Duration:
        return a.duration() ? toMs(*a.duration()) : -1.0;
    case Result:
        return a.status ? *a.status : a.refused ? 2000 : 1000 + (a.error ? int(*a.error) : 99);
    case Wait:
        return a.decision && a.decision->verdict == Verdict::Retry ? qint64(a.decision->delay.count()) : qint64(-1);
    default:
        return display(a, column);
    }
}

// The same values as sortValue(), for the columns read as numbers without rebuilding the record.
QVariant AttemptsTableModel::fieldSortValue(int row, int column) const
{
    if (row < 0 || row >= m_rows || row >= m_session->finishedAttempts())
        return {};
    const StoredAttempt a = m_session->attempt(row);
    const auto ms = [](MonoTime t) { return double(t.count()) / 1e6; };
    switch (column) {
    case Run:
        return a.runId();
    case Attempt:
        return a.index();
    case Start:
        if (const std::optional<MonoTime> at = a.started() ? a.started() : a.refused() ? a.finished() : std::nullopt)
            return ms(*at);
        return -1.0;
    case Duration:
        return a.duration() ? ms(*a.duration()) : -1.0;
    case Result: // refused calls after every answer and error: they have neither
        return a.status() ? *a.status() : a.refused() ? 2000 : 1000 + (a.error() ? int(*a.error()) : 99);
    case Wait:
        return a.verdict() == Verdict::Retry && a.delay() ? qint64(a.delay()->count()) : qint64(-1);
    default:
        return {};
    }
}

QVariant AttemptsTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role == SortRole) {
        if (QVariant v = fieldSortValue(index.row(), index.column()); v.isValid())
            return v;
    }
    const AttemptRecord* a = attemptAt(index.row());
    if (!a)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        return display(*a, index.column());
    case Qt::ToolTipRole:
        if (index.column() == Reason || index.column() == Decision) {
            if (a->observed)
                return AnswerWords::observedReason(*a);
            if (a->hedge) { // the copy in a sentence, then what was decided on its answer (a lost one: nothing)
                const HedgeWords::CopyContext copy = copyContext(*a);
                QStringList lines { HedgeWords::sentence(*a, copy) };
                if (a->decision)
                    lines << tr("Decision: %1 — %2").arg(verdictName(a->decision->verdict), a->decision->reason);
                else if (HedgeWords::isLost(*a))
                    lines << HedgeWords::lostReason(*a, copy);
                return lines.join(u'\n');
            }
            return a->decision ? a->decision->reason : tr("The run was cancelled during this attempt.");
        }
        if (index.column() == Result) {
            QStringList lines { AnswerWords::answer(*a) };
            if (a->refused)
                lines << tr("The call never reached the wire: the policy's pipeline refused it.");
            if (HedgeWords::isLost(*a))
                lines << HedgeWords::lostReason(*a, copyContext(*a));
            if (const QString waited = AnswerWords::verdictWait(*a); !waited.isEmpty())
                lines << waited;
            return lines.join(u'\n');
        }
        return a->url.toDisplayString();
    case Qt::FontRole:
        if (index.column() == Result && (a->refused || HedgeWords::isLost(*a))) { // not an answer: set apart from the statuses
            QFont italic;
            italic.setItalic(true);
            return italic;
        }
        return {};
    case Qt::TextAlignmentRole:
        switch (index.column()) {
        case Run:
        case Attempt:
        case Start:
        case Duration:
        case Wait:
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        }
    case Qt::ForegroundRole:
        if (index.column() == Decision && HedgeWords::isLost(*a)) // a copy the hedging cancelled: muted
            return QGuiApplication::palette().color(QPalette::PlaceholderText);
        if (index.column() == Decision && a->decision) {
            // Shades derived from the palette's text colour so light and dark themes both read well.
            const bool dark = QGuiApplication::palette().color(QPalette::Base).lightness() < 128;
            if (a->decision->verdict == Verdict::Stop)
                return QColor(dark ? 0xff8a80 : 0xc62828);
            if (a->decision->verdict == Verdict::Success)
                return QColor(dark ? 0x9ccc65 : 0x2e7d32);
        }
        return {};
    case SortRole:
        return sortValue(*a, index.column());
    case RowRole:
        return index.row();
    default:
        return {};
    }
}

QVariant AttemptsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Run:
        return tr("Run");
    case Attempt:
        return tr("Attempt");
    case Start:
        return tr("Start");
    case Method:
        return tr("Method");
    case Target:
        return tr("Path");
    case Result:
        return tr("Result");
    case Duration:
        return tr("Took");
    case Decision:
        return tr("Decision");
    case Wait:
        return tr("Wait");
    case DelaySourceColumn:
        return tr("Wait set by");
    case Reason:
        return tr("Reason");
    default:
        return {};
    }
}
