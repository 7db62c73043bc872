// SPDX-License-Identifier: GPL-3.0-or-later
// The session reader's runs: a run's fields and its attempts, into the session's store (sessionreader.h).
#include "session/format/sessionreader.h"

#include "json/jsontext.h"
#include "policy/policyjson.h"
#include "session/format/attemptjson.h"
#include "session/format/enumnames.h"
#include "session/format/enumspellings.h"
#include "session/format/sessionjson.h"

#include <QCoreApplication>
#include <QJsonObject>

#include <array>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("session", text); }

// A run's own fields, each read as a JSON value. The usual ones go to fixed slots and are converted
// without building a QJsonObject (a 1M-attempt session has 250 000 runs); a run with any other field
// (an inline version-0 policy, a "_" field, an unknown one) goes through SessionJson::runFactsFromJson.
struct RunFacts
{
    enum Slot { Run, Seed, PolicyRef, RequestRef, Method, Url, Outcome, Reason, Asked, Submitted, Start, End, TotalWait, SlotCount };
    static constexpr std::array<QByteArrayView, SlotCount> kNames = { "run", "seed", "policy_ref", "request_ref", "method",
        "url", "outcome", "reason", "server_asked_for_ms", "submitted_ms", "start_ms", "end_ms", "total_wait_ms" };

    std::array<QJsonValue, SlotCount> values;
    std::array<bool, SlotCount> present {};
    QJsonObject other;

    static int slotOf(QByteArrayView key)
    {
        for (int i = 0; i < SlotCount; ++i) {
            if (kNames[size_t(i)] == key)
                return i;
        }
        return -1;
    }
    const QJsonValue& value(Slot slot) const { return values[slot]; }
    QJsonObject object() const
    {
        QJsonObject o = other;
        for (int i = 0; i < SlotCount; ++i) {
            if (present[size_t(i)])
                o.insert(QString::fromLatin1(kNames[size_t(i)]), values[size_t(i)]);
        }
        return o;
    }

    // What SessionJson::runFactsFromJson does with these fields, value for value.
    bool toRun(SessionRun* r, QString* problem) const
    {
        if (!other.isEmpty())
            return SessionJson::runFactsFromJson(object(), r, problem);
        for (const Slot slot : { Submitted, Start, End }) {
            qint64 ns = 0;
            if (values[slot].isDouble() && !JsonText::nsFromMillis(values[slot].toDouble(), &ns)) {
                *problem = QString::fromLatin1(kNames[slot]) + tr(": out of range (more than ±292 years)");
                return false;
            }
        }
        const auto msAsNs = [](const QJsonValue& v) {
            qint64 ns = PackedAttempt::kUnset;
            return v.isDouble() && JsonText::nsFromMillis(v.toDouble(), &ns) ? ns : PackedAttempt::kUnset;
        };
        if (!value(Run).isDouble()) {
            *problem = tr("run: must be an integer");
            return false;
        }
        r->runId = value(Run).toInt();
        bool ok = true;
        const QJsonValue& seed = value(Seed);
        r->seed = seed.isString() ? seed.toString().toULongLong(&ok) : quint64(seed.toInteger(0));
        if (!ok) {
            *problem = tr("seed: must be a decimal integer string");
            return false;
        }
        r->policy = qsizetype(value(PolicyRef).toInteger(0));
        r->request = qsizetype(value(RequestRef).toInteger(0));
        const QJsonValue& outcome = value(Outcome);
        if (outcome.isString()) {
            const QByteArray name = outcome.toString().toUtf8();
            std::optional<FinalKind> k = EnumSpelling::finalKinds().find(QByteArrayView(name));
            if (!k)
                k = EnumNames::finalKind(QByteArrayView(name));
            if (!k) {
                *problem = tr("outcome: unknown outcome \"%1\"").arg(outcome.toString());
                return false;
            }
            r->outcome = *k;
        }
        r->reason = value(Reason).toString();
        r->serverAskedForMs = value(Asked).isDouble() ? value(Asked).toInteger() : PackedAttempt::kUnset;
        r->submittedNs = present[Submitted] ? msAsNs(value(Submitted)) : 0;
        if (r->submittedNs == PackedAttempt::kUnset)
            r->submittedNs = 0;
        r->startedNs = msAsNs(value(Start));
        r->finishedNs = msAsNs(value(End));
        r->totalWaitMs = value(TotalWait).toInteger(0);
        return true;
    }
};

} // namespace

bool SessionReader::readRun(qsizetype index)
{
    const auto path = [index]() -> QString { return u"$.runs["_s + QString::number(index) + u']'; };
    Session& s = *m_session;
    if (!m_in.enterObject())
        return fail(path(), QString());
    RunFacts facts;
    QList<quint32> rows;
    QByteArrayView key;
    while (m_in.nextKeyView(&key)) {
        if (key == "attempts") {
            if (!m_in.enterArray())
                return fail(path() + u".attempts"_s, QString());
            while (m_in.nextElement()) {
                PackedAttempt p;
                QByteArray field;
                if (!AttemptJson::read(m_in, s.attempts, &p, &field)) {
                    return fail(path() + u".attempts["_s + QString::number(rows.size()) + u']'
                            + (field.isEmpty() ? QString() : u'.' + QString::fromUtf8(field)),
                        QString());
                }
                rows.append(quint32(s.attempts.append(p)));
                if ((++m_attemptsRead & 4095) == 0 && m_progress && !m_progress(m_in.offset(), m_total)) {
                    m_cancelled = true;
                    return false;
                }
            }
            if (m_in.hasError())
                return fail(path() + u".attempts"_s, QString());
        } else {
            const int slot = RunFacts::slotOf(key);
            const QString name = slot < 0 ? QString::fromUtf8(key) : QString(); // the key's bytes go with the next read
            const QJsonValue v = m_in.readValue();
            if (m_in.hasError())
                return fail(path() + u'.' + (slot < 0 ? name : QString::fromLatin1(RunFacts::kNames[size_t(slot)])), QString());
            if (slot < 0) {
                facts.other.insert(name, v);
            } else {
                facts.values[size_t(slot)] = v;
                facts.present[size_t(slot)] = true;
            }
        }
    }
    if (m_in.hasError())
        return fail(path(), QString());
    SessionRun run;
    QString problem;
    if (!facts.toRun(&run, &problem))
        return fail(path() + u'.' + problem.section(u':', 0, 0), problem.section(u':', 1).trimmed());
    if (s.findRun(run.runId))
        return fail(path() + u".run"_s, tr("run %1 appears twice").arg(run.runId));
    if (m_tailPart && (facts.other.contains(u"policy"_s) || !facts.present[RunFacts::RequestRef]))
        return fail(path(), tr("a version 0 run")); // they add to the session's policies and requests: read in order
    if (facts.other.contains(u"policy"_s)) { // version 0: the policy inline
        const PolicyParseResult policy = policyFromJson(facts.other.value(u"policy"_s).toObject());
        if (!policy.ok()) {
            const PolicyProblem& p = policy.problems.first();
            return fail(path() + u".policy"_s + (p.path.startsWith(u'$') ? p.path.mid(1) : u'.' + p.path), p.message);
        }
        run.policy = s.addPolicy(*policy.policy);
    }
    if (!facts.present[RunFacts::RequestRef]) { // version 0: method and URL only
        RequestSpec spec;
        spec.method = facts.value(RunFacts::Method).toString(u"GET"_s);
        spec.url = QUrl(facts.value(RunFacts::Url).toString());
        run.request = s.addRequest(spec);
    }
    for (quint32 row : std::as_const(rows))
        s.attempts.setRunId(row, run.runId);
    run.rows = std::move(rows);
    s.appendRun(std::move(run));
    return true;
}
