// SPDX-License-Identifier: GPL-3.0-or-later
// SessionFile::write and ::save.
#include "session/format/sessionfile.h"

#include "policy/policyjson.h"
#include "session/format/attemptjsonwriter.h"
#include "session/format/enumspellings.h"
#include "json/jsontext.h"
#include "session/format/sessionjson.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include <algorithm>
#include <vector>

namespace {

QString tr(const char* text) { return QCoreApplication::translate("session", text); }

QByteArray compact(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// A run's own fields, as compact(SessionJson::runFactsToJson(…)) writes them (keys in its sorted order),
// without the closing brace: the attempts follow. METHODURL: the run's request's method and written URL.
void writeRunFacts(JsonSink& out, const SessionRun& run, const std::pair<QByteArray, QByteArray>* methodUrl)
{
    const auto ms = [&out](qint64 ns) {
        if (ns == PackedAttempt::kUnset)
            out.append("null");
        else
            JsonText::millisFromNs(out, ns);
    };
    bool f = true;
    out.append('{');
    JsonText::key(out, "end_ms", f);
    ms(run.finishedNs);
    JsonText::key(out, "method", f);
    JsonText::string(out, methodUrl ? QByteArrayView(methodUrl->first) : QByteArrayView());
    if (run.observed) {
        JsonText::key(out, "observed", f);
        out.append(compact(SessionJson::observedToJson(*run.observed)));
    }
    JsonText::key(out, "outcome", f);
    if (run.outcome == FinalKind::None)
        out.append("null");
    else
        JsonText::string(out, EnumSpelling::finalKinds().name(run.outcome));
    JsonText::key(out, "policy_ref", f);
    if (run.policy < 0)
        out.append("null");
    else
        JsonText::integer(out, run.policy);
    JsonText::key(out, "reason", f);
    JsonText::string(out, run.reason);
    JsonText::key(out, "request_ref", f);
    JsonText::integer(out, run.request);
    JsonText::key(out, "run", f);
    JsonText::integer(out, run.runId);
    JsonText::key(out, "seed", f);
    out.append('"');
    JsonText::unsignedInteger(out, run.seed);
    out.append('"');
    JsonText::key(out, "server_asked_for_ms", f);
    if (run.serverAskedForMs == PackedAttempt::kUnset)
        out.append("null");
    else
        JsonText::integer(out, run.serverAskedForMs);
    JsonText::key(out, "start_ms", f);
    ms(run.startedNs);
    JsonText::key(out, "submitted_ms", f);
    ms(run.submittedNs);
    JsonText::key(out, "total_wait_ms", f);
    JsonText::integer(out, run.totalWaitMs);
    JsonText::key(out, "url", f);
    JsonText::string(out, methodUrl ? QByteArrayView(methodUrl->second) : QByteArrayView());
}

} // namespace

namespace SessionFile {

qsizetype writeBufferBytes(const Session& session)
{
    constexpr qint64 minBytes = qint64(16) << 10;
    constexpr qint64 maxBytes = qint64(2) << 20; // the 1 MiB flush threshold plus room for the piece that crosses it
    const qint64 items = session.attemptCount() + session.labEvents.size() + session.runs.size();
    return qsizetype(std::clamp(minBytes + items * 1024, minBytes, maxBytes));
}

bool write(const Session& session, QIODevice& device, const SessionProgress& progress, QString* error,
    const Redactor* override)
{
    const Redactor redactor = override ? *override
        : session.redaction.enabled    ? Redactor(session.redaction)
                                       : Redactor::none();
    RedactionSettings written = session.redaction;
    written.enabled = redactor.enabled();
    QByteArray buffer;
    buffer.reserve(writeBufferBytes(session));
    JsonSink out(buffer);
    const auto flush = [&](bool force) {
        if (!force && out.size() < (1 << 20))
            return true;
        if (device.write(out.written().data(), out.size()) != out.size()) {
            if (error)
                *error = tr("cannot write: %1").arg(device.errorString());
            return false;
        }
        out.clear();
        return true;
    };
    out.append("{\"format\":\"");
    out.append(QByteArrayView(formatName));
    out.append("\",\"version\":");
    JsonText::integer(out, Session::currentVersion);
    out.append(",\n\"meta\":");
    out.append(compact(SessionJson::metaToJson(session.meta)));
    out.append(",\n\"redaction\":");
    out.append(compact(SessionJson::redactionToJson(written)));
    out.append(",\n\"scenario\":");
    out.append(session.scenario.isEmpty() ? QByteArray("null") : compact(session.scenario));
    out.append(",\n\"policies\":[");
    for (qsizetype i = 0; i < session.policies.size(); ++i) {
        out.append(i ? ",\n" : "\n");
        out.append(compact(policyToJson(session.policies.at(i))));
    }
    out.append("]");
    if (!session.policyChanges.isEmpty()) { // written only when a policy was a preset or file with fields changed
        out.append(",\n\"policy_changes\":[");
        for (auto it = session.policyChanges.cbegin(); it != session.policyChanges.cend(); ++it) {
            out.append(it == session.policyChanges.cbegin() ? "\n" : ",\n");
            out.append(compact(SessionJson::policyChangesToJson(it.key(), it.value())));
        }
        out.append("]");
    }
    out.append(",\n\"requests\":[");
    for (qsizetype i = 0; i < session.requests.size(); ++i) {
        out.append(i ? ",\n" : "\n");
        out.append(compact(SessionJson::requestToJson(session.requests.at(i), redactor)));
    }
    out.append("]");
    if (!session.breakerChanges.isEmpty()) { // written only when a pipeline breaker changed state
        out.append(",\n\"breaker_changes\":[");
        for (qsizetype i = 0; i < session.breakerChanges.size(); ++i) {
            out.append(i ? ",\n" : "\n");
            out.append(compact(SessionJson::breakerChangeToJson(session.breakerChanges.at(i))));
        }
        out.append("]");
    }
    out.append(",\n\"runs\":[");
    const qint64 total = session.attemptCount();
    qint64 done = 0;
    const AttemptStore& store = session.attempts;
    AttemptJsonWriter attempts(store, redactor, session.meta.wallOriginUtc);
    // Each request's method and (redacted) URL as the runs repeat them: computed once, not once per run.
    std::vector<std::pair<QByteArray, QByteArray>> requestTexts;
    for (const RequestSpec& spec : session.requests)
        requestTexts.emplace_back(spec.method.toUtf8(), redactor.url(spec.url.toString(QUrl::FullyEncoded)).toUtf8());
    for (qsizetype r = 0; r < session.runs.size(); ++r) {
        const SessionRun& run = session.runs.at(r);
        out.append(r ? ",\n" : "\n");
        const bool known = run.request >= 0 && run.request < qsizetype(requestTexts.size());
        writeRunFacts(out, run, known ? &requestTexts[size_t(run.request)] : nullptr);
        out.append(",\"attempts\":[");
        for (qsizetype i = 0; i < run.rows.size(); ++i) {
            out.append(i ? ",\n" : "\n");
            attempts.write(out, store.packed(run.rows.at(i)));
            if ((++done & 4095) == 0) {
                if (!flush(false))
                    return false;
                if (progress && !progress(done, total))
                    return false;
            }
        }
        out.append("]}");
        if (!flush(false))
            return false;
    }
    out.append("],\n\"lab_events\":[");
    for (qsizetype i = 0; i < session.labEvents.size(); ++i) {
        out.append(i ? ",\n" : "\n");
        out.append(compact(SessionJson::labEventToJson(session.labEvents.at(i))));
        if (!flush(false))
            return false;
    }
    out.append("]}\n");
    if (!flush(true))
        return false;
    if (progress)
        progress(total, total);
    return true;
}

bool save(const Session& session, const QString& path, const SessionProgress& progress, QString* error,
    const Redactor* redactor)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    bool cancelled = false;
    const SessionProgress wrapped = [&](qint64 done, qint64 total) {
        if (progress && !progress(done, total)) {
            cancelled = true;
            return false;
        }
        return true;
    };
    if (!write(session, file, wrapped, error, redactor)) {
        file.cancelWriting();
        if (cancelled && error)
            *error = tr("saving %1 was cancelled; the file was not changed").arg(path);
        return false;
    }
    if (!file.commit()) {
        if (error)
            *error = tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace SessionFile
