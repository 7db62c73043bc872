// SPDX-License-Identifier: GPL-3.0-or-later
// SessionFile::read and ::open: a streaming reader for versions 0 (the engine's attempt log) and 1. This
// file reads the document, its top-level fields and the checks at its end (sessionreader.h lists the rest).
#include "session/format/sessionreader.h"

#include "json/filereadahead.h"
#include "policy/policyjson.h"
#include "session/format/sessionjson.h"
#include "session/format/tailahead.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonObject>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {
QString tr(const char* text) { return QCoreApplication::translate("session", text); }
}

SessionReader::SessionReader(QIODevice& device, qint64 total, const SessionProgress& progress)
    : m_in(device)
    , m_total(total)
    , m_progress(progress)
{
}

SessionReader::SessionReader(JsonChunkSource& source, qint64 total, const SessionProgress& progress)
    : m_in(source)
    , m_total(total)
    , m_progress(progress)
{
}

SessionReader::~SessionReader() = default; // where TailAhead is known

bool SessionReader::readDocument()
{
    Session& s = *m_session;
    if (m_in.peek() != JsonPullReader::Kind::Object)
        return fail(u"$"_s, m_in.peek() == JsonPullReader::Kind::End ? tr("the file is empty") : tr("a session file is a JSON object"));
    m_in.enterObject();
    QByteArray key;
    qsizetype runIndex = 0;
    while (m_in.nextKey(&key)) {
        const QString path = u"$."_s + QString::fromUtf8(key);
        QString problem;
        if (key == "format") {
            const auto v = m_in.readString();
            if (!v)
                return fail(path, tr("must be a string"));
            if (*v != QLatin1String(SessionFile::formatName) && *v != QLatin1String(SessionFile::attemptLogFormatName))
                return fail(path, tr("\"%1\" is not a Retrylab session").arg(*v));
            m_format = *v;
            if (!checkVersion(path))
                return false;
        } else if (key == "version") {
            m_version = m_in.readInteger();
            if (!m_version)
                return fail(path, tr("must be an integer"));
            if (!checkVersion(path))
                return false;
        } else if (key == "meta" || key == "redaction") {
            const QJsonValue v = m_in.readValue();
            if (m_in.hasError() || !v.isObject())
                return fail(path, tr("must be an object"));
            const bool ok = key == "meta" ? SessionJson::metaFromJson(v.toObject(), &s.meta, &problem)
                                          : SessionJson::redactionFromJson(v.toObject(), &s.redaction, &problem);
            if (!ok)
                return fail(path + u'.' + problem.section(u':', 0, 0), problem.section(u':', 1).trimmed());
        } else if (key == "scenario") {
            const QJsonValue v = m_in.readValue();
            if (m_in.hasError() || !(v.isObject() || v.isNull()))
                return fail(path, tr("must be an object or null"));
            s.scenario = v.toObject();
        } else if (key == "policies") {
            if (!readArray(path, [&](const QJsonValue& v, const QString& p) {
                    const PolicyParseResult policy = policyFromJson(v.toObject());
                    if (!policy.ok())
                        return fail(p + u'.' + policy.problems.first().path, policy.problems.first().message);
                    s.policies.append(*policy.policy);
                    return true;
                }))
                return false;
        } else if (key == "policy_changes") {
            if (!readArray(path, [&](const QJsonValue& v, const QString& p) {
                    qsizetype policy = 0;
                    PolicyChanges changes;
                    QString why;
                    if (!v.isObject() || !SessionJson::policyChangesFromJson(v.toObject(), &policy, &changes, &why))
                        return fail(v.isObject() ? p + u'.' + why.section(u':', 0, 0) : p,
                            v.isObject() ? why.section(u':', 1).trimmed() : tr("must be an object"));
                    if (s.policyChanges.contains(policy))
                        return fail(p + u".policy_ref"_s, tr("policy %1 has its changes twice").arg(policy));
                    s.policyChanges.insert(policy, changes);
                    return true;
                }))
                return false;
        } else if (key == "requests") {
            if (!readArray(path, [&](const QJsonValue& v, const QString& p) {
                    RequestSpec spec;
                    QString why;
                    if (!SessionJson::requestFromJson(v.toObject(), &spec, &why))
                        return fail(p + u'.' + why.section(u':', 0, 0), why.section(u':', 1).trimmed());
                    s.requests.append(spec);
                    return true;
                }))
                return false;
        } else if (key == "breaker_changes") {
            if (!readArray(path, [&](const QJsonValue& v, const QString& p) {
                    BreakerChange change;
                    QString why;
                    if (!v.isObject())
                        return fail(p, tr("must be an object"));
                    if (!SessionJson::breakerChangeFromJson(v.toObject(), &change, &why))
                        return fail(p + u'.' + why.section(u':', 0, 0), why.section(u':', 1).trimmed());
                    s.breakerChanges.append(change);
                    return true;
                }))
                return false;
        } else if (key == "runs") {
            if (!m_in.enterArray())
                return fail(path, tr("must be an array"));
            const qint64 runsStart = m_in.offset();
            while (m_in.nextElement()) {
                if (m_ahead) {
                    const Handover handover = takeRunsAhead();
                    if (handover == Handover::Taken) // the rest of the runs and the lab events: nothing left here
                        return finishDocument();
                    if (handover == Handover::Failed)
                        return false;
                }
                if (!readRun(runIndex++))
                    return false;
                // A guess at the number of runs from the first ones' size, so the list of runs is not
                // copied again and again while it grows (250 000 runs in a 1M-attempt session).
                static constexpr qsizetype kSample = 64;
                if (runIndex == kSample && m_total > m_in.offset() && m_in.offset() > runsStart) {
                    const qint64 perRun = std::max<qint64>(1, (m_in.offset() - runsStart) / kSample);
                    const qint64 guess = (m_total - runsStart) / perRun + (m_total - runsStart) / perRun / 20 + kSample;
                    s.runs.reserve(qsizetype(std::min<qint64>(guess, m_total / 16)));
                }
            }
            if (m_in.hasError())
                return fail(path, QString());
        } else if (key == "lab_events") {
            if (takeLabEventsAhead()) // read on the other core, to the end of the file: nothing left here
                return finishDocument();
            if (m_cancelled)
                return false;
            if (!readLabEvents(path))
                return false;
        } else if (key.startsWith('_') || key == "$schema") {
            m_in.skipValue();
            if (m_in.hasError())
                return fail(path, QString());
        } else {
            return fail(path, tr("unknown field \"%1\"").arg(QString::fromUtf8(key)));
        }
    }
    if (m_in.hasError())
        return fail(m_path, QString());
    if (!m_in.atEnd())
        return fail(u"$"_s, tr("unexpected text after the end of the session"));
    return finishDocument();
}

bool SessionReader::readLabEvents(const QString& path)
{
    if (!m_in.enterArray())
        return fail(path, tr("must be an array"));
    for (qsizetype i = 0; m_in.nextElement(); ++i) {
        if (!readLabEvent(i))
            return false;
        if ((i & 16383) == 16383 && m_progress && !m_progress(m_in.offset(), m_total)) {
            m_cancelled = true;
            return false;
        }
    }
    if (m_in.hasError())
        return fail(path, QString());
    return true;
}

bool SessionReader::finishDocument()
{
    Session& s = *m_session;
    if (m_format.isEmpty())
        return fail(u"$.format"_s, tr("missing: not a Retrylab session file"));
    if (!m_version)
        return fail(u"$.version"_s, tr("missing"));
    for (qsizetype i = 0; i < s.runs.size(); ++i) {
        const SessionRun& r = s.runs.at(i);
        const bool noPolicy = r.policy == -1 && r.observed; // a client's run: none of ours
        if ((!noPolicy && (r.policy < 0 || r.policy >= qMax<qsizetype>(1, s.policies.size()))) || r.request < 0
            || r.request >= qMax<qsizetype>(1, s.requests.size()))
            return fail(u"$.runs["_s + QString::number(i) + u"].policy_ref"_s, tr("refers to a policy or request that is not in the file"));
    }
    if (!s.policyChanges.isEmpty() && s.policyChanges.lastKey() >= s.policies.size())
        return fail(u"$.policy_changes"_s, tr("policy_ref %1 refers to a policy that is not in the file").arg(s.policyChanges.lastKey()));
    if (s.policies.isEmpty())
        s.policies.append(RetryPolicy());
    if (s.requests.isEmpty())
        s.requests.append(RequestSpec());
    if (m_session->meta.readFromVersion == 0) {
        s.meta.source = u"migrated"_s;
        s.redaction.enabled = true;
    }
    return true;
}

std::unique_ptr<Session> SessionReader::read(QString* error, SessionFile::Status* status)
{
    const bool ok = readDocument();
    if (status)
        *status = ok ? SessionFile::Status::Ok : m_cancelled ? SessionFile::Status::Cancelled : SessionFile::Status::Failed;
    if (ok) {
        if (m_progress)
            m_progress(m_total, m_total);
        return std::move(m_session);
    }
    if (error) {
        *error = m_cancelled ? tr("opening was cancelled")
                             : tr("%1 (at %2)").arg(m_in.errorString().isEmpty() ? tr("invalid session") : m_in.errorString(), m_path);
    }
    return nullptr;
}

bool SessionReader::checkVersion(const QString& path)
{
    if (m_format.isEmpty() || !m_version)
        return true;
    if (m_format == QLatin1String(SessionFile::attemptLogFormatName)) {
        if (*m_version != 1)
            return fail(path, tr("unsupported attempt-log version %1 (this build reads version 1)").arg(*m_version));
        m_session->meta.readFromVersion = 0;
        return true;
    }
    if (*m_version > Session::currentVersion)
        return fail(path, tr("session format version %1 is newer than this build reads (up to %2); update Retrylab")
                              .arg(*m_version).arg(Session::currentVersion));
    if (*m_version < 1)
        return fail(path, tr("unsupported session format version %1").arg(*m_version));
    m_session->meta.readFromVersion = int(*m_version);
    return true;
}

bool SessionReader::readArray(const QString& path, const std::function<bool(const QJsonValue&, const QString&)>& each)
{
    if (!m_in.enterArray())
        return fail(path, tr("must be an array"));
    qsizetype i = 0;
    while (m_in.nextElement()) {
        const QString itemPath = path + u'[' + QString::number(i++) + u']';
        const QJsonValue v = m_in.readValue();
        if (m_in.hasError())
            return fail(itemPath, QString());
        if (!each(v, itemPath))
            return false;
    }
    return !m_in.hasError() || fail(path, QString());
}

namespace SessionFile {

std::unique_ptr<Session> read(QIODevice& device, qint64 totalBytes, const SessionProgress& progress, QString* error,
    Status* status)
{
    SessionReader reader(device, totalBytes, progress);
    return reader.read(error, status);
}

std::unique_ptr<Session> read(JsonChunkSource& source, qint64 totalBytes, const SessionProgress& progress, QString* error,
    Status* status)
{
    SessionReader reader(source, totalBytes, progress);
    return reader.read(error, status);
}

std::unique_ptr<Session> open(const QString& path, const SessionProgress& progress, QString* error, Status* status,
    ReadReport* report)
{
    if (report)
        *report = {};
    // Read on a thread of its own, a few chunks ahead of the parser: opening a large session parses on
    // one core while the other copies the file in.
    FileReadAhead file(path);
    if (!file.isOpen()) {
        if (error)
            *error = tr("cannot open %1: %2").arg(path, file.errorString());
        if (status)
            *status = Status::Failed;
        return nullptr;
    }
    Status outcome = Status::Failed;
    SessionReader reader(file, file.size(), progress);
    reader.readTailAheadFrom(path, file.size());
    std::unique_ptr<Session> s = reader.read(error, &outcome);
    if (report)
        *report = { reader.labEventsWereReadAhead(), reader.runsWereReadAhead() };
    if (!s && error && outcome == Status::Failed) {
        const QString readError = file.errorString(); // the bytes stopped coming: that, not where parsing stopped
        *error = readError.isEmpty() ? path + u": "_s + *error : tr("cannot read %1: %2").arg(path, readError);
    }
    if (status)
        *status = outcome;
    return s;
}

bool looksLikeSession(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    // The format name comes first in files this app writes; 64 KiB allows for hand-edited ones.
    const QByteArray head = file.read(64 * 1024);
    return head.contains(QByteArray('"' + QByteArray(formatName) + '"'))
        || head.contains(QByteArray('"' + QByteArray(attemptLogFormatName) + '"'));
}

} // namespace SessionFile
