// SPDX-License-Identifier: GPL-3.0-or-later
// How `retrylab inspect` reads its input, in process: a head is read in pieces of at most 16 KiB, so a
// head of a few hundred bytes does not cost a 1 MiB buffer (QIODevice::read(n) allocates n first), and a
// head longer than one piece is still read whole. The 1 MiB bound itself: tst_cli_badinput.
#include "cli/clicommand.h"
#include "support/manualscheduler.h"

#include <QIODevice>
#include <QTest>

#include <algorithm>
#include <cstring>

using namespace Qt::StringLiterals;

namespace {

// stdin as a pipe: sequential (no size, no position), and it remembers the largest read asked of it.
class PipeInput : public QIODevice
{
public:
    explicit PipeInput(QByteArray bytes)
        : m_bytes(std::move(bytes))
    {
    }
    bool isSequential() const override { return true; }
    qint64 largestRead = 0;

protected:
    qint64 readData(char* data, qint64 maxSize) override
    {
        largestRead = std::max(largestRead, maxSize);
        const qint64 n = std::min(maxSize, qint64(m_bytes.size()) - m_offset);
        std::memcpy(data, m_bytes.constData() + m_offset, size_t(n));
        m_offset += n;
        return n;
    }
    qint64 writeData(const char*, qint64) override { return -1; }

private:
    QByteArray m_bytes;
    qint64 m_offset = 0;
};

struct Inspected
{
    int status = -1;
    QString out;
    qint64 largestRead = 0;
};

Inspected inspect(const QByteArray& input)
{
    PipeInput in(input);
    in.open(QIODevice::ReadOnly | QIODevice::Unbuffered); // every read reaches readData as asked
    Inspected result;
    QString err;
    QTextStream outStream(&result.out);
    QTextStream errStream(&err);
    ManualClock clock;
    ManualScheduler scheduler(clock);
    CliIo io { outStream, errStream, in, clock, scheduler };
    result.status = inspectCommand().run({ u"--now-epoch"_s, u"1787400000"_s, u"--json"_s }, io);
    outStream.flush();
    result.largestRead = in.largestRead;
    return result;
}

} // namespace

class TestInspectRead : public QObject
{
    Q_OBJECT

private slots:
    void smallHeadSmallReads();
    void longHeadReadWhole();
};

void TestInspectRead::smallHeadSmallReads()
{
    const Inspected r = inspect("HTTP/1.1 429 Too Many Requests\r\nRetry-After: 7\r\n\r\n");
    QCOMPARE(r.status, CliExit::Ok);
    QVERIFY2(r.out.contains(u"\"retry_after\":{\"seconds\":7,"_s), qPrintable(r.out));
    QVERIFY2(r.largestRead <= 16 * 1024, qPrintable(u"a read of %1 bytes"_s.arg(r.largestRead)));
}

void TestInspectRead::longHeadReadWhole()
{
    // 60 KiB of other fields before the one that matters: four pieces, all of them read.
    const QByteArray head = "HTTP/1.1 429 Too Many Requests\r\n" + QByteArray("X-Filler: 0123456789abcdef\r\n").repeated(2200)
        + "Retry-After: 7\r\n\r\n";
    QVERIFY(head.size() > 4 * 16 * 1024 - 8 * 1024);
    const Inspected r = inspect(head);
    QCOMPARE(r.status, CliExit::Ok);
    QVERIFY2(r.out.contains(u"\"retry_after\":{\"seconds\":7,"_s), qPrintable(r.out.left(400)));
    QVERIFY(r.largestRead <= 16 * 1024);
}

QTEST_GUILESS_MAIN(TestInspectRead)
#include "tst_inspectread.moc"
