// SPDX-License-Identifier: GPL-3.0-or-later
// SessionFile::write and ::save.
#include "session/sessionfile.h"

#include "policy/policyjson.h"
#include "session/attemptjson.h"
#include "session/jsontext.h"
#include "session/sessionjson.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

namespace {

QString tr(const char* text) { return QCoreApplication::translate("session", text); }

QByteArray compact(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace

namespace SessionFile {

bool write(const Session& session, QIODevice& device, const SessionProgress& progress, QString* error,
    const Redactor* override)
{
    const Redactor redactor = override ? *override
        : session.redaction.enabled    ? Redactor(session.redaction)
                                       : Redactor::none();
    RedactionSettings written = session.redaction;
    written.enabled = redactor.enabled();
    QByteArray out;
    out.reserve(2 << 20);
    const auto flush = [&](bool force) {
        if (!force && out.size() < (1 << 20))
            return true;
        if (device.write(out) != out.size()) {
            if (error)
                *error = tr("cannot write: %1").arg(device.errorString());
            return false;
        }
        out.clear();
        return true;
    };
    out += "{\"format\":\"";
    out += formatName;
    out += "\",\"version\":";
    out += QByteArray::number(Session::currentVersion);
    out += ",\n\"meta\":" + compact(SessionJson::metaToJson(session.meta));
    out += ",\n\"redaction\":" + compact(SessionJson::redactionToJson(written));
    out += ",\n\"scenario\":";
    out += session.scenario.isEmpty() ? QByteArray("null") : compact(session.scenario);
    out += ",\n\"policies\":[";
    for (qsizetype i = 0; i < session.policies.size(); ++i)
        out += (i ? ",\n" : "\n") + compact(policyToJson(session.policies.at(i)));
    out += "],\n\"requests\":[";
    for (qsizetype i = 0; i < session.requests.size(); ++i)
        out += (i ? ",\n" : "\n") + compact(SessionJson::requestToJson(session.requests.at(i), redactor));
    out += "],\n\"runs\":[";
    const qint64 total = session.attemptCount();
    qint64 done = 0;
    const AttemptStore& store = session.attempts;
    for (qsizetype r = 0; r < session.runs.size(); ++r) {
        const SessionRun& run = session.runs.at(r);
        const RequestSpec* spec = run.request < session.requests.size() ? &session.requests.at(run.request) : nullptr;
        QByteArray facts = compact(SessionJson::runFactsToJson(run, spec ? spec->method : QString(),
            spec ? redactor.url(spec->url.toString(QUrl::FullyEncoded)) : QString()));
        facts.chop(1); // the closing brace: attempts follow
        out += (r ? ",\n" : "\n") + facts + ",\"attempts\":[";
        for (qsizetype i = 0; i < run.rows.size(); ++i) {
            out += i ? ",\n" : "\n";
            AttemptJson::write(out, store, store.packed(run.rows.at(i)), redactor);
            if ((++done & 4095) == 0) {
                if (!flush(false))
                    return false;
                if (progress && !progress(done, total))
                    return false;
            }
        }
        out += "]}";
        if (!flush(false))
            return false;
    }
    out += "],\n\"lab_events\":[";
    for (qsizetype i = 0; i < session.labEvents.size(); ++i) {
        out += (i ? ",\n" : "\n") + compact(SessionJson::labEventToJson(session.labEvents.at(i)));
        if (!flush(false))
            return false;
    }
    out += "]}\n";
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
