// SPDX-License-Identifier: GPL-3.0-or-later
// Two circuit breakers nobody here wrote — cockatiel 3.2.1 (ConsecutiveBreaker) and opossum 9.0.0 (its
// defaults with a shorter window and reset), pinned by node/package-lock.json — make 100 calls at 10 a
// second against the lab through an outage of 503s and back (node/breaker-client.mjs). Retrylab's breaker
// (policy/resilience/circuitbreaker.h), set as the library's preset says (breakerpresets.h), is then given
// the very calls the library made, at the times it made them, with the results it saw: it must let through
// and refuse exactly the calls the library did, change state as the library said it did (resilience-fleets.md
// §1.5, §1.6), and the lab must have heard exactly the calls that went. The other library's breaker, given
// the same calls, must disagree somewhere: the comparison can fail.

#include "lab/faultserver.h"
#include "lab/scenarioloader.h"
#include "policy/resilience/breakerpresets.h"
#include "policy/resilience/circuitbreaker.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

constexpr int kCalls = 100;
constexpr int kIntervalMs = 100;
constexpr int kBreakMs = 1000;
constexpr int kWindowMs = 4000; // opossum: 10 buckets of 400 ms
constexpr int kBuckets = 10;

struct Call
{
    qint64 start = 0;
    qint64 end = 0;
    QString result; // ok, fail, rejected
};
struct Event
{
    qint64 at = 0;
    QString state; // closed, open, half-open
};
struct Log
{
    qint64 epoch = -1;
    QList<Call> calls;
    QList<Event> events;
};

// What the breaker does with the library's calls: the first call it would treat otherwise, if any.
struct Replay
{
    QString mismatch;
    QList<CircuitBreaker::Change> changes;
};

Replay replay(const Log& log, const CircuitBreakerOptions& options)
{
    CircuitBreaker b(options, Millis { log.epoch });
    Replay out;
    for (int i = 0; i < log.calls.size(); ++i) {
        const Call& c = log.calls[i];
        const auto ticket = b.admit(Millis { c.start });
        const bool went = c.result != u"rejected"_s;
        if (ticket.sent() != went) {
            out.mismatch = u"call %1 at +%2 ms: the library %3 it, the breaker would have %4 it (%5)"_s.arg(i)
                               .arg(c.start - log.epoch)
                               .arg(went ? u"sent"_s : u"refused"_s, went ? u"refused"_s : u"sent"_s,
                                   admissionName(ticket.admission));
            break;
        }
        b.record(ticket, c.result == u"fail"_s, Millis { c.end });
    }
    out.changes = b.changes();
    return out;
}

CircuitBreakerOptions presetFor(const QString& library)
{
    if (library == u"cockatiel"_s)
        return BreakerPresets::cockatiel3Consecutive(5, Millis { kBreakMs });
    auto o = BreakerPresets::opossum9();
    o.breakDuration = Millis { kBreakMs };
    o.samplingDuration = Millis { kWindowMs };
    o.buckets = kBuckets;
    return o;
}

} // namespace

class TestClientBreakers : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(u"node"_s).isEmpty())
            QFAIL("node is not installed: run packaging/install-deps.sh (Debian 12: nodejs npm)");
        QVERIFY2(QFile::exists(QStringLiteral(RETRYLAB_NPM_CLIENTS "/node_modules/opossum/package.json")),
            "the npm clients are not installed: ctest runs npm_ci_clients first");
    }

    void sameCallsSameVerdicts_data()
    {
        QTest::addColumn<QString>("library");
        QTest::addColumn<QString>("other");
        QTest::newRow("cockatiel 3.2.1, ConsecutiveBreaker(5)") << u"cockatiel"_s << u"opossum"_s;
        QTest::newRow("opossum 9.0.0") << u"opossum"_s << u"cockatiel"_s;
    }
    void sameCallsSameVerdicts()
    {
        QFETCH(QString, library);
        QFETCH(QString, other);

        // Up, then 503 for 5 s, then up: timed from the lab's start, a little before the first call.
        const auto loaded = ScenarioLoader::fromJson("{\"format\": 1, \"name\": \"outage-5s\", \"outages\": "
                                                     "[{\"from_ms\": 2500, \"duration_ms\": 5000, \"mode\": \"status\", "
                                                     "\"status\": 503}], \"routes\": [{\"path\": \"/**\", \"steps\": "
                                                     "[{\"kind\": \"respond\", \"status\": 200, \"body\": \"ok\"}]}]}");
        QVERIFY2(loaded.ok(), qPrintable(loaded.problemText()));
        FaultServer lab;
        QVERIFY(lab.start());
        lab.loadScenario(*loaded.scenario);

        QProcess node;
        node.setWorkingDirectory(QStringLiteral(RETRYLAB_NPM_CLIENTS));
        node.start(u"node"_s,
            { u"breaker-client.mjs"_s, library, lab.url().toString() + u"/orders"_s, QString::number(kCalls),
                QString::number(kIntervalMs), QString::number(kBreakMs), QString::number(kWindowMs),
                QString::number(kBuckets) });
        QVERIFY(node.waitForStarted());
        // The lab answers on this thread's event loop: spin it while the client runs.
        QTRY_VERIFY_WITH_TIMEOUT(node.state() == QProcess::NotRunning, 60000);
        QVERIFY2(node.exitStatus() == QProcess::NormalExit && node.exitCode() == 0,
            node.readAllStandardError().constData());

        Log log;
        for (const QByteArray& line : node.readAllStandardOutput().split('\n')) {
            if (line.trimmed().isEmpty())
                continue;
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (o.contains(u"epoch"_s))
                log.epoch = o.value(u"epoch"_s).toInteger();
            else if (o.contains(u"call"_s))
                log.calls.append({ o.value(u"start"_s).toInteger(), o.value(u"end"_s).toInteger(),
                    o.value(u"result"_s).toString() });
            else if (o.contains(u"event"_s))
                log.events.append({ o.value(u"t"_s).toInteger(), o.value(u"event"_s).toString() });
            else
                QFAIL(qPrintable(u"a line the script does not print: "_s + QString::fromUtf8(line)));
        }
        QVERIFY(log.epoch > 0);
        QCOMPARE(log.calls.size(), kCalls);

        // The run went through what a breaker is for: it opened, refused calls, probed into the outage and
        // reopened, and closed once the lab was back.
        int sent = 0, refused = 0;
        for (const Call& c : log.calls)
            (c.result == u"rejected"_s ? refused : sent) += 1;
        QStringList states;
        for (const Event& e : log.events)
            states.append(e.state);
        QVERIFY2(refused > 0, qPrintable(states.join(u", "_s)));
        QVERIFY2(states.count(u"open"_s) >= 2 && states.last() == u"closed"_s, qPrintable(states.join(u", "_s)));

        // What reached the wire is what the library sent.
        QCOMPARE(lab.ledger().requestsReceived(), sent);

        const Replay mine = replay(log, presetFor(library));
        QVERIFY2(mine.mismatch.isEmpty(), qPrintable(mine.mismatch));
        QStringList myStates;
        for (const auto& c : mine.changes)
            myStates.append(stateName(c.to));
        QCOMPARE(myStates, states);
        // When: the library stamps a change with Date.now() as it makes it; the breaker with the moment the
        // call that made it settled, or for opossum's timer, the break's end. They agree within a few
        // milliseconds, and a timer's lateness under load (the sanitizer build runs tests two at a time).
        for (int i = 0; i < states.size(); ++i) {
            const qint64 drift = log.events[i].at - mine.changes[i].at.count();
            QVERIFY2(drift >= -5 && drift <= 100,
                qPrintable(u"%1 (change %2): the library at +%3 ms, the breaker at +%4 ms"_s.arg(states[i]).arg(i)
                        .arg(log.events[i].at - log.epoch)
                        .arg(mine.changes[i].at.count() - log.epoch)));
        }

        // Another library's breaker, given the same calls, does not do what this one did.
        const Replay theirs = replay(log, presetFor(other));
        QStringList theirStates;
        for (const auto& c : theirs.changes)
            theirStates.append(stateName(c.to));
        QVERIFY2(!theirs.mismatch.isEmpty() || theirStates != states,
            "the other library's breaker agrees on every call: the comparison could not tell them apart");
        qInfo("%s: %d calls sent, %d refused; states %s", qPrintable(library), sent, refused,
            qPrintable(states.join(u" → "_s)));
    }
};

QTEST_GUILESS_MAIN(TestClientBreakers)
#include "tst_client_breakers.moc"
