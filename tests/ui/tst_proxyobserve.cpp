// SPDX-License-Identifier: GPL-3.0-or-later
// Send to ▸ Observe a client as its proxy (issue 31 §3), in the whole window: Run starts the lab as a forward
// proxy; the panel shows its address, the Retrylab CA's fingerprint and the shell lines to copy; curl, run
// with exactly those lines, goes through it (absolute-form for http, a decrypted CONNECT tunnel for https,
// trusting the CA through the bundle the lines name) and its attempts fill the views live; the hosts appear
// with a tick each, and an unticked host's next tunnel is relayed untouched. The upstreams are Python's.
#include "mainwindow.h"

#include "../cli/cliprocess.h"
#include "testtime.h"

#include "editors/requesteditor.h"
#include "lab/faultserver.h"
#include "run/attemptspage.h"
#include "run/proxypanel.h"
#include "run/runcontroller.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFormLayout>
#include <QProcess>
#include <QPushButton>
#include <QTableView>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace Qt::StringLiterals;

namespace {

// The environment the copied shell lines make: each `export NAME='value'` applied, each `unset NAME` removed.
QProcessEnvironment environmentFrom(const QString& shellLines)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    static const QRegularExpression exportLine(u"^export ([A-Za-z_]+)='(.*)'$"_s);
    for (const QString& line : shellLines.split(u'\n', Qt::SkipEmptyParts)) {
        if (line.startsWith(u"unset "_s)) {
            env.remove(line.mid(6));
            continue;
        }
        const QRegularExpressionMatch m = exportLine.match(line);
        if (m.hasMatch())
            env.insert(m.captured(1), m.captured(2).replace(u"'\\''"_s, u"'"_s));
    }
    return env;
}

int runCurl(const QProcessEnvironment& env, const QStringList& args)
{
    QProcess curl;
    curl.setProcessEnvironment(env);
    curl.start(u"curl"_s, QStringList { u"-s"_s, u"-o"_s, u"/dev/null"_s } + args);
    if (!curl.waitForStarted(5000))
        return -1;
    if (!QTest::qWaitFor([&] { return curl.state() == QProcess::NotRunning; }, 20000))
        return -1;
    return curl.exitCode();
}

QTreeWidgetItem* hostRow(QTreeWidget* list, const QString& authority)
{
    const QList<QTreeWidgetItem*> found = list->findItems(authority, Qt::MatchExactly, 0);
    return found.isEmpty() ? nullptr : found.first();
}

} // namespace

class TestProxyObserve : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // The CA and the client files go to the test's folder, never the user's.
        qputenv("RETRYLAB_DATA_DIR", m_dir.filePath(u"data"_s).toUtf8());
        qputenv("XDG_DATA_HOME", m_dir.filePath(u"xdg"_s).toUtf8());
    }

    void observesThroughTheProxyWithTheCopiedLines()
    {
        QTemporaryDir served;
        QFile file(served.filePath(u"items"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("[]");
        file.close();
        CliProcess::PythonHttpServer plain(served.path());
        QVERIFY(plain.isRunning());
        QProcess tls; // Python's http.server in TLS with the localhost test certificate: one the lab does not trust
        tls.start(u"python3"_s, { QStringLiteral(RETRYLAB_SOURCE_DIR "/tests/data/upstream/upstream_server.py"), u"--tls"_s,
                                     QStringLiteral(RETRYLAB_SOURCE_DIR "/resources/tls/localhost-cert.pem"),
                                     QStringLiteral(RETRYLAB_SOURCE_DIR "/resources/tls/localhost-key.pem") });
        QVERIFY(tls.waitForStarted(5000));
        QVERIFY(QTest::qWaitFor([&] { return tls.canReadLine(); }, 10000));
        const QByteArray portLine = tls.readLine().trimmed();
        QVERIFY2(portLine.startsWith("PORT "), portLine.constData());
        const QString tlsPort = QString::fromLatin1(portLine.mid(5));

        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        window.controller()->setRecordingDirectory(QString());
        window.show();
        RequestEditor* editor = window.requestEditor();
        ProxyPanel* panel = editor->proxyPanel();
        editor->setObservesClient(true);
        QVERIFY(!panel->isVisibleTo(&window)); // only when observing as a proxy
        editor->setObservesAsProxy(true);
        QVERIFY(panel->isVisibleTo(&window));
        QVERIFY(editor->hint().contains(u"shell lines"_s));

        window.runAction()->trigger();
        QVERIFY2(window.controller()->isObserving(), qPrintable(window.controller()->lastError()));
        FaultServer* proxy = window.controller()->proxyLab();
        QVERIFY(proxy && proxy->isForwardProxy());
        QVERIFY(window.controller()->proxyCaFingerprint().contains(u':'));
        const QString lines = panel->shellLines();
        QVERIFY2(lines.contains(u"export HTTPS_PROXY='"_s + proxy->url().toString() + u'\''), qPrintable(lines));
        QVERIFY(lines.contains(u"export NODE_EXTRA_CA_CERTS='"_s));

        // The Copy button puts exactly those lines on the clipboard.
        panel->findChild<QPushButton*>()->click();
        QCOMPARE(QApplication::clipboard()->text(), lines);

        const QProcessEnvironment env = environmentFrom(lines);
        // http: absolute-form through the proxy, forwarded to the upstream the client named.
        const QString plainUrl = plain.url().replace(u"127.0.0.1"_s, u"localhost"_s) + u"/items"_s;
        QCOMPARE(runCurl(env, { plainUrl }), 0);
        // https: a decrypted tunnel; curl trusts the lab's leaf through the bundle the lines name, the lab refuses
        // the upstream's self-made certificate (a 502 saying so), and both show.
        const QString tlsUrl = u"https://localhost:"_s + tlsPort + u"/echo"_s;
        QCOMPARE(runCurl(env, { tlsUrl }), 0);
        QTRY_COMPARE_WITH_TIMEOUT(window.attemptsPage()->table()->model()->rowCount(), 2, 10000);
        QTreeWidget* hosts = panel->hostList();
        QTRY_COMPARE(hosts->topLevelItemCount(), 2);
        QTreeWidgetItem* tlsHost = hostRow(hosts, u"localhost:"_s + tlsPort);
        QVERIFY(tlsHost);
        QCOMPARE(tlsHost->checkState(0), Qt::Checked);
        QCOMPARE(tlsHost->text(1), u"1"_s);
        QCOMPARE(tlsHost->text(2), u"1"_s);

        // Unticked: the next tunnel to that host is relayed untouched, so curl meets the upstream's own
        // certificate, which its bundle does not trust (exit 60), and nothing new is observed.
        tlsHost->setCheckState(0, Qt::Unchecked);
        QCOMPARE(runCurl(env, { tlsUrl }), 60);
        QTRY_COMPARE(hostRow(hosts, u"localhost:"_s + tlsPort)->text(1), u"2"_s);
        QCOMPARE(hostRow(hosts, u"localhost:"_s + tlsPort)->text(2), u"1"_s);
        QCOMPARE(window.attemptsPage()->table()->model()->rowCount(), 2);

        // For looking at it as a user would (xvfb-run, README): the window as it is now.
        if (const QString shots = qEnvironmentVariable("RETRYLAB_SHOT_DIR"); !shots.isEmpty()) {
            QTest::qWait(500);
            window.grab().save(shots + u"/observe-proxy.png"_s);
        }
        window.stopAction()->trigger();
        QVERIFY(!window.controller()->isObserving());
        QVERIFY(!window.controller()->proxyLab());
        tls.kill();
        tls.waitForFinished(3000);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestProxyObserve)
#include "tst_proxyobserve.moc"
