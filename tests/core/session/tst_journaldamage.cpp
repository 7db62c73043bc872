// SPDX-License-Identifier: GPL-3.0-or-later
// Journal recovery from damaged files and the liveness of the recorder (issue 14 §4). A real journal
// (tests/data/journals: a `retrylab run --session` recording cut off mid-run) is cut at every byte and has
// single bits flipped along it: recovery either refuses with a message, or returns the attempts it could
// read — always a prefix of what the whole journal holds — and says what it did not recover. A recorder
// whose pid now belongs to another process, or to another boot, counts as gone; the one that still runs
// does not. (A killed, unreaped recorder — a zombie — is tests/integration/tst_journalkill's case, with the
// real binary.)
#include "session/format/attemptjson.h"
#include "session/journal/sessionjournal.h"
#include "session/journal/sessionjournalprocess.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace Qt::StringLiterals;

namespace {

QByteArray realJournal()
{
    QFile file(QStringLiteral(RETRYLAB_TEST_DATA "/journals/slen-killed.journal"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing test data");
    return file.readAll();
}

QByteArrayList attemptTexts(const Session& s)
{
    QByteArrayList out;
    for (qsizetype i = 0; i < s.attempts.size(); ++i) {
        QByteArray text;
        AttemptJson::write(text, s.attempts, s.attempts.packed(i), Redactor::none(), s.meta.wallOriginUtc);
        out << text;
    }
    return out;
}

// The header line with its fields replaced (pid, pid_start, boot_id, started_utc).
QByteArray withHeader(const QByteArray& journal, const QJsonObject& changes, const QStringList& drop = {})
{
    const qsizetype nl = journal.indexOf('\n');
    QJsonObject header = QJsonDocument::fromJson(journal.left(nl)).object();
    for (auto it = changes.begin(); it != changes.end(); ++it)
        header.insert(it.key(), it.value());
    for (const QString& key : drop)
        header.remove(key);
    return QJsonDocument(header).toJson(QJsonDocument::Compact) + journal.mid(nl);
}

} // namespace

class TestJournalDamage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_path = m_dir.filePath(u"s.json.journal"_s);
        const std::unique_ptr<Session> whole = recover(realJournal(), &m_wholeInfo);
        QVERIFY2(whole, qPrintable(m_error));
        m_whole = attemptTexts(*whole);
        QVERIFY(m_whole.size() >= 5);
        QVERIFY2(m_wholeInfo.problems.isEmpty(), qPrintable(m_wholeInfo.problems.join(u'\n')));
    }

    // Cut at every line end and the bytes around it, and at every 7th byte between: nothing, or a prefix
    // of the attempts with the torn line said.
    void truncatedAnywhere()
    {
        const QByteArray journal = realJournal();
        const qsizetype headerEnd = journal.indexOf('\n');
        QList<qsizetype> cuts;
        for (qsizetype cut = 0; cut <= journal.size(); ++cut) {
            const bool nearLineEnd = (cut > 0 && journal.at(cut - 1) == '\n') || (cut < journal.size() && journal.at(cut) == '\n')
                || (cut + 1 < journal.size() && journal.at(cut + 1) == '\n');
            if (nearLineEnd || cut % 7 == 0 || cut == journal.size())
                cuts << cut;
        }
        for (const qsizetype cut : std::as_const(cuts)) {
            SessionJournal::Info info;
            const std::unique_ptr<Session> s = recover(journal.left(cut), &info);
            if (!s) {
                if (cut > headerEnd)
                    QFAIL(qPrintable(u"cut at %1, after a whole header: refused (%2)"_s.arg(cut).arg(m_error)));
                QVERIFY2(!m_error.isEmpty(), "refused without a message");
                continue;
            }
            const QByteArrayList got = attemptTexts(*s);
            if (got != m_whole.mid(0, got.size()))
                QFAIL(qPrintable(u"cut at %1: the attempts recovered are not the journal's first %2"_s.arg(cut).arg(got.size())));
            QCOMPARE(info.attempts, got.size());
            // Mid-line: the cut leaves part of a line (a line whole but for its '\n' is whole).
            const bool midLine = cut < journal.size() && cut > 0 && journal.at(cut - 1) != '\n' && journal.at(cut) != '\n';
            if (midLine && info.problems.isEmpty())
                QFAIL(qPrintable(u"cut at %1, mid-line: the torn line is not reported"_s.arg(cut)));
        }
    }

    // One bit flipped at every 5th offset (the bit cycling along the file): refused (only a damaged header
    // refuses), or every attempt but those on lines reported as not recovered.
    void bitFlips()
    {
        const QByteArray journal = realJournal();
        int whole = 0;
        int reported = 0;
        for (qsizetype at = 0; at < journal.size(); at += 5) {
            QByteArray damaged = journal;
            damaged[at] = char(uchar(damaged.at(at)) ^ (1u << (at * 3 % 8)));
            SessionJournal::Info info;
            const std::unique_ptr<Session> s = recover(damaged, &info);
            if (!s) {
                QVERIFY2(!m_error.isEmpty(), "refused without a message");
                continue;
            }
            if (s->attemptCount() == m_whole.size() && info.problems.isEmpty())
                ++whole;
            else if (!info.problems.isEmpty())
                ++reported;
            else
                QFAIL(qPrintable(u"flip at %1: %2 of %3 attempts, and nothing said"_s.arg(at).arg(s->attemptCount()).arg(m_whole.size())));
        }
        qInfo("journal bit flips: %d recovered whole, %d recovered with the damage reported", whole, reported);
    }

    // The recorder's pid now names another live process: not the recorder. With the same start time and
    // boot it is the recorder, still recording.
    void identity_data()
    {
        QTest::addColumn<QByteArray>("journal");
        QTest::addColumn<SessionJournalProcess::State>("state");
        const SessionJournalProcess::Identity me = SessionJournalProcess::current();
        const QByteArray journal = realJournal();
        const qint64 init = 1; // pid 1 runs, and did not write this journal
        QTest::addRow("pid reused: another start time")
            << withHeader(journal, { { u"pid"_s, init }, { u"pid_start"_s, qint64(123456789) }, { u"boot_id"_s, QString::fromLatin1(me.bootId) } })
            << SessionJournalProcess::State::OtherProcess;
        QTest::addRow("another boot")
            << withHeader(journal, { { u"pid"_s, init }, { u"pid_start"_s, qint64(1) }, { u"boot_id"_s, u"00000000-0000-0000-0000-000000000000"_s } })
            << SessionJournalProcess::State::OtherBoot;
        QTest::addRow("old journal (no start time): the process started after the journal")
            << withHeader(journal, { { u"pid"_s, qint64(::getppid()) }, { u"started_utc"_s, u"2000-01-01T00:00:00.000Z"_s } },
                   { u"pid_start"_s, u"boot_id"_s })
            << SessionJournalProcess::State::OtherProcess;
        QTest::addRow("no such pid") << withHeader(journal, { { u"pid"_s, qint64(999999999) } }) << SessionJournalProcess::State::Gone;
    }
    void identity()
    {
        QFETCH(QByteArray, journal);
        QFETCH(SessionJournalProcess::State, state);
        SessionJournal::Info info;
        QVERIFY2(recover(journal, &info), qPrintable(m_error));
        QCOMPARE(info.recorderState, state);
        QCOMPARE(info.processAlive, state == SessionJournalProcess::State::Alive);
    }

    // A live recorder in another process (the test's parent, with its real start time): still recording.
    void liveRecorderIsLeftAlone()
    {
        const qint64 parent = ::getppid();
        QFile stat(u"/proc/%1/stat"_s.arg(parent));
        QVERIFY(stat.open(QIODevice::ReadOnly));
        const QByteArray fields = stat.readAll();
        const qint64 ticks = fields.mid(fields.lastIndexOf(')') + 2).split(' ').value(19).toLongLong();
        SessionJournal::Info info;
        QVERIFY(recover(withHeader(realJournal(), { { u"pid"_s, parent }, { u"pid_start"_s, ticks },
                                                    { u"boot_id"_s, QString::fromLatin1(SessionJournalProcess::current().bootId) } }),
            &info));
        QCOMPARE(info.recorderState, SessionJournalProcess::State::Alive);
        QVERIFY(info.processAlive);
    }

private:
    std::unique_ptr<Session> recover(const QByteArray& bytes, SessionJournal::Info* info)
    {
        QFile file(m_path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            qFatal("cannot write");
        file.write(bytes);
        file.close();
        m_error.clear();
        return SessionJournal::recover(m_path, info, &m_error);
    }

    QTemporaryDir m_dir;
    QString m_path;
    QString m_error;
    QByteArrayList m_whole;
    SessionJournal::Info m_wholeInfo;
};

QTEST_GUILESS_MAIN(TestJournalDamage)
#include "tst_journaldamage.moc"
