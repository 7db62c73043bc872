// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/journal/sessionjournal.h"

#include "policy/policyjson.h"
#include "session/format/attemptjson.h"
#include "json/jsonpullreader.h"
#include "session/journal/sessionjournalprocess.h"
#include "session/format/sessionjson.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QJsonDocument>

#include <algorithm>


using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("session", text); }

QByteArray compact(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// The next line of DEVICE (with its '\n' when it has one) into LINE, in LINE's own buffer: readLine()
// without a size starts each line in a new buffer of some 32 KiB and then copies it to its length.
// False at the end.
bool readLineInto(QIODevice& device, QByteArray& line)
{
    line.resize(0);
    for (;;) {
        const qsizetype used = line.size();
        const qsizetype room = std::max<qsizetype>(line.capacity() - used, 4096);
        line.resize(used + room);
        const qint64 n = device.readLine(line.data() + used, room); // at most room - 1 bytes, then a '\0'
        line.resize(used + std::max<qsizetype>(qsizetype(n), 0));
        if (n <= 0)
            return used > 0;
        if (line.endsWith('\n') || n < room - 1)
            return true;
    }
}

} // namespace

bool SessionJournal::open(const QString& sessionPath, const Session& session, QString* error)
{
    m_redaction = session.redaction;
    m_wallOrigin = session.meta.wallOriginUtc;
    m_file.setFileName(pathFor(sessionPath));
    if (!m_file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Unbuffered)) {
        if (error)
            *error = tr("cannot create the journal %1: %2").arg(m_file.fileName(), m_file.errorString());
        return false;
    }
    const SessionJournalProcess::Identity recorder = SessionJournalProcess::current();
    const QJsonObject header { { u"journal"_s, u"retrylab-session-journal"_s }, { u"version"_s, 1 },
        { u"session"_s, QFileInfo(sessionPath).absoluteFilePath() }, { u"pid"_s, recorder.pid },
        { u"pid_start"_s, recorder.startTicks }, { u"boot_id"_s, QString::fromLatin1(recorder.bootId) },
        { u"started_utc"_s, QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs) },
        { u"meta"_s, SessionJson::metaToJson(session.meta) },
        { u"redaction"_s, SessionJson::redactionToJson(session.redaction) } };
    writeLine(compact(header));
    if (!session.scenario.isEmpty())
        writeScenario(session.scenario);
    return true;
}

void SessionJournal::writeLine(const QByteArray& line)
{
    if (!m_file.isOpen())
        return;
    // One write per line on an unbuffered file: the line reaches the kernel before the next event.
    m_file.write(line + '\n');
}

void SessionJournal::writeScenario(const QJsonObject& scenario)
{
    writeLine(compact({ { u"event"_s, u"scenario"_s }, { u"scenario"_s, scenario } }));
}

void SessionJournal::writePolicy(qsizetype index, const RetryPolicy& policy, const PolicyChanges& changes)
{
    QJsonObject line { { u"event"_s, u"policy"_s }, { u"index"_s, qint64(index) }, { u"policy"_s, policyToJson(policy) } };
    if (!changes.isEmpty())
        line.insert(u"changes"_s, changes.toJson());
    writeLine(compact(line));
}

void SessionJournal::writeRequest(qsizetype index, const RequestSpec& request)
{
    const Redactor redactor = m_redaction.enabled ? Redactor(m_redaction) : Redactor::none();
    writeLine(compact({ { u"event"_s, u"request"_s }, { u"index"_s, qint64(index) },
        { u"request"_s, SessionJson::requestToJson(request, redactor) } }));
}

void SessionJournal::writeRun(const SessionRun& run, bool finished)
{
    writeLine(compact({ { u"event"_s, finished ? u"run-finished"_s : u"run-started"_s },
        { u"run"_s, SessionJson::runFactsToJson(run, QString(), QString()) } }));
}

void SessionJournal::writeAttempt(const AttemptStore& store, const PackedAttempt& attempt)
{
    const Redactor redactor = m_redaction.enabled ? Redactor(m_redaction) : Redactor::none();
    QByteArray line = "{\"event\":\"attempt\",\"attempt\":";
    AttemptJson::write(line, store, attempt, redactor, m_wallOrigin);
    line += '}';
    writeLine(line);
}

void SessionJournal::writeLabEvent(const LabEvent& event)
{
    writeLine(compact({ { u"event"_s, u"lab"_s }, { u"lab_event"_s, SessionJson::labEventToJson(event) } }));
}

void SessionJournal::writeBreakerChange(const BreakerChange& change)
{
    writeLine(compact({ { u"event"_s, u"breaker"_s }, { u"change"_s, SessionJson::breakerChangeToJson(change) } }));
}

void SessionJournal::close()
{
    if (!m_file.isOpen())
        return;
    writeLine(compact({ { u"event"_s, u"closed"_s } }));
    m_file.close();
}

bool SessionJournal::remove()
{
    if (m_file.isOpen())
        m_file.close();
    return QFile::remove(m_file.fileName());
}


std::unique_ptr<Session> SessionJournal::recover(const QString& journalPath, Info* info, QString* error)
{
    QFile file(journalPath);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = tr("cannot read %1: %2").arg(journalPath, file.errorString());
        return nullptr;
    }
    auto session = std::make_unique<Session>();
    Info local;
    Info& inf = info ? *info : local;
    inf = Info();
    inf.journalPath = journalPath;
    SessionJournalProcess::Identity recorder;
    int lineNo = 0;
    bool headerRead = false;
    QByteArray line;
    while (!file.atEnd() && readLineInto(file, line)) {
        ++lineNo;
        const bool complete = line.endsWith('\n');
        if (QByteArrayView(line).trimmed().isEmpty())
            continue;
        QBuffer buffer(&line);
        buffer.open(QIODevice::ReadOnly);
        JsonPullReader in(buffer, std::max<qsizetype>(64, line.size())); // not the 1 MiB default per line
        QJsonObject fields;
        QByteArray key;
        QByteArray event;
        std::optional<PackedAttempt> attempt;
        if (in.enterObject()) {
            while (in.nextKey(&key)) {
                if (key == "event") {
                    event = in.readUtf8().value_or(QByteArray());
                } else if (key == "attempt") {
                    PackedAttempt p;
                    QByteArray field;
                    if (AttemptJson::read(in, session->attempts, &p, &field))
                        attempt = p;
                } else {
                    fields.insert(QString::fromUtf8(key), in.readValue());
                }
            }
        }
        // What is not recovered is said, line by line (Info::problems); only a bad header refuses all.
        const auto skip = [&](const QString& why) {
            ++inf.skippedLines;
            inf.problems << tr("line %1 skipped: %2").arg(lineNo).arg(why);
        };
        if (in.hasError() || !in.atEnd()) {
            const QString why = in.hasError() ? in.errorString() : tr("text after the event");
            if (!complete && file.atEnd() && headerRead) { // torn by the kill: the event never finished being written
                skip(tr("the last line is incomplete (the recording was interrupted while writing it)"));
                break;
            }
            if (!headerRead) {
                if (error)
                    *error = tr("%1: line %2 is not a journal header: %3").arg(journalPath).arg(lineNo).arg(why);
                return nullptr;
            }
            skip(tr("not a journal event (%1)").arg(why));
            continue;
        }
        QString problem;
        if (!headerRead) {
            headerRead = true;
            if (fields.value(u"journal"_s).toString() != u"retrylab-session-journal"_s) {
                if (error)
                    *error = tr("%1: not a Retrylab session journal").arg(journalPath);
                return nullptr;
            }
            inf.sessionPath = fields.value(u"session"_s).toString();
            inf.pid = fields.value(u"pid"_s).toInteger();
            recorder.pid = inf.pid;
            recorder.startTicks = fields.value(u"pid_start"_s).toInteger(-1);
            recorder.bootId = fields.value(u"boot_id"_s).toString().toLatin1();
            inf.startedUtc = fields.value(u"started_utc"_s).toString();
            SessionJson::metaFromJson(fields.value(u"meta"_s).toObject(), &session->meta, &problem);
            SessionJson::redactionFromJson(fields.value(u"redaction"_s).toObject(), &session->redaction, &problem);
            continue;
        }
        if (event == "attempt" && !attempt) {
            skip(tr("an attempt that cannot be read"));
        } else if (event == "attempt") {
            const qsizetype row = session->attempts.append(*attempt);
            session->run(attempt->runId).rows.append(quint32(row));
        } else if (event == "policy") {
            const PolicyParseResult p = policyFromJson(fields.value(u"policy"_s).toObject());
            // Written in order, each index once: one past the end at most (a damaged index must not
            // make recovery allocate without bound, or write before the list).
            const qsizetype index = qsizetype(fields.value(u"index"_s).toInteger(-1));
            if (index < 0 || index > session->policies.size()) {
                skip(tr("policy index %1 out of order").arg(fields.value(u"index"_s).toInteger(-1)));
                continue;
            }
            if (index == session->policies.size())
                session->policies.append(RetryPolicy());
            if (p.ok())
                session->policies[index] = *p.policy;
            else
                skip(tr("policy %1 cannot be read (%2); the default policy stands in").arg(index).arg(p.problems.value(0).message));
            if (fields.contains(u"changes"_s)) {
                const std::optional<PolicyChanges> changes = PolicyChanges::fromJson(fields.value(u"changes"_s).toObject(), &problem);
                if (p.ok() && changes)
                    session->policyChanges.insert(index, *changes);
                else if (p.ok()) // the policy itself is recovered: not a skipped line
                    inf.problems << tr("line %1: the changes of policy %2 cannot be read (%3); it is kept without them")
                                        .arg(lineNo).arg(index).arg(problem);
            }
        } else if (event == "request") {
            RequestSpec spec;
            SessionJson::requestFromJson(fields.value(u"request"_s).toObject(), &spec, &problem);
            const qsizetype index = qsizetype(fields.value(u"index"_s).toInteger(-1));
            if (index < 0 || index > session->requests.size()) {
                skip(tr("request index %1 out of order").arg(fields.value(u"index"_s).toInteger(-1)));
                continue;
            }
            if (!problem.isEmpty())
                skip(tr("request %1 partly unreadable (%2)").arg(index).arg(problem));
            if (index == session->requests.size())
                session->requests.append(RequestSpec());
            session->requests[index] = spec;
        } else if (event == "run-started" || event == "run-finished") {
            SessionRun facts;
            if (SessionJson::runFactsFromJson(fields.value(u"run"_s).toObject(), &facts, &problem)) {
                SessionRun& run = session->run(facts.runId);
                facts.rows = run.rows;
                run = facts;
            } else {
                skip(tr("%1 cannot be read (%2)").arg(QString::fromUtf8(event), problem));
            }
        } else if (event == "lab") {
            LabEvent e;
            if (SessionJson::labEventFromJson(fields.value(u"lab_event"_s).toObject(), &e, &problem))
                session->labEvents.append(e);
            else
                skip(tr("a lab event cannot be read (%1)").arg(problem));
        } else if (event == "breaker") {
            BreakerChange change;
            if (SessionJson::breakerChangeFromJson(fields.value(u"change"_s).toObject(), &change, &problem))
                session->breakerChanges.append(change);
            else
                skip(tr("a breaker change cannot be read (%1)").arg(problem));
        } else if (event == "scenario") {
            session->scenario = fields.value(u"scenario"_s).toObject();
        } else if (event == "closed") {
            inf.closed = true;
        } else {
            skip(tr("unknown event \"%1\"").arg(QString::fromUtf8(event.left(40))));
        }
    }
    if (!headerRead) {
        if (error)
            *error = tr("%1: the journal is empty").arg(journalPath);
        return nullptr;
    }
    for (SessionRun& run : session->runs) {
        if (run.outcome == FinalKind::None && run.reason.isEmpty())
            run.reason = tr("interrupted: the recording stopped before this run finished");
    }
    if (session->policies.isEmpty())
        session->policies.append(RetryPolicy());
    if (session->requests.isEmpty())
        session->requests.append(RequestSpec());
    for (SessionRun& run : session->runs) {
        // A run whose policy or request line was lost gets the first one, and the loss is said.
        const bool noPolicy = run.policy == -1 && run.observed; // a client's run: none of ours
        if ((!noPolicy && (run.policy < 0 || run.policy >= session->policies.size())) || run.request < 0
            || run.request >= session->requests.size()) {
            inf.problems << tr("run %1: its policy or request was not in the journal; the first one stands in").arg(run.runId);
            run.policy = noPolicy ? -1 : run.policy < 0 || run.policy >= session->policies.size() ? 0 : run.policy;
            run.request = run.request < 0 || run.request >= session->requests.size() ? 0 : run.request;
        }
    }
    session->meta.source = u"recovered"_s;
    inf.runs = session->runs.size();
    inf.attempts = session->attemptCount();
    if (!inf.closed && recorder.pid != QCoreApplication::applicationPid()) {
        inf.recorderState = SessionJournalProcess::state(recorder, QDateTime::fromString(inf.startedUtc, Qt::ISODateWithMs));
        inf.processAlive = inf.recorderState == SessionJournalProcess::State::Alive;
    }
    return session;
}
