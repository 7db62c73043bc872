// SPDX-License-Identifier: GPL-3.0-or-later
// The lab panel edits the scenario (issue 12 §4), offscreen, against the window's own running lab with
// Python's http.server (python3 -m http.server, nobody here wrote it) as the upstream: "forward 90 %, 503
// with Retry-After 5 %, reset 5 %" built through the panel's widgets is what the lab then answers on loopback,
// to our socket client and to Debian's curl alike; rows added, moved and removed change which route answers;
// an invalid edit shows ScenarioLoader's own message (the one a file gets) while the lab keeps the last valid
// scenario; Save As writes JSON that ScenarioLoader::fromFile reads back equal and `retrylab serve
// --scenario FILE` plays identically (the same answers, in the same order, for the same seed).
#include "labview/labpanel.h"
#include "labview/routeform.h"
#include "labview/scenarioeditmodel.h"
#include "labview/scenarioeditor.h"
#include "labview/stepform.h"
#include "run/runcontroller.h"
#include "testtime.h"

#include "../cli/cliprocess.h"
#include "labclient.h"

#include "lab/faultserver.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>
#include <QJsonDocument>
#include <QLineEdit>
#include <QStandardPaths>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

#include <memory>

using namespace Qt::StringLiterals;
using labclient::Answer;

namespace {

constexpr int kRequests = 300;

void click(ScenarioEditor* editor, const QString& text)
{
    for (QToolButton* b : editor->findChildren<QToolButton*>()) {
        if (b->text() == text) {
            QTest::mouseClick(b, Qt::LeftButton);
            return;
        }
    }
    QFAIL(qPrintable(u"no button "_s + text));
}

void clickRow(ScenarioEditor* editor, int route, int step = -1)
{
    QTreeView* tree = editor->tree();
    const QModelIndex index = step < 0 ? editor->model()->routeIndex(route) : editor->model()->stepIndex(route, step);
    tree->scrollTo(index);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(index).center());
    QCOMPARE(tree->currentIndex(), index);
}

// As the keyboard does it: arrows on the closed box (each one an activation, as a pick from the list is).
void choose(QComboBox* box, const QString& data)
{
    const int target = box->findData(data);
    QVERIFY2(target >= 0, qPrintable(data));
    box->setFocus();
    while (box->currentIndex() != target)
        QTest::keyClick(box, box->currentIndex() < target ? Qt::Key_Down : Qt::Key_Up);
}

void type(QAbstractSpinBox* box, const QString& text)
{
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, text);
    QTest::keyClick(box, Qt::Key_Tab);
}

void retype(QLineEdit* edit, const QString& text)
{
    edit->setFocus();
    edit->selectAll();
    QTest::keyClicks(edit, text);
}

QStringList codes(const QList<Answer>& answers)
{
    QStringList out;
    for (const Answer& a : answers)
        out << u"%1 %2"_s.arg(a.status, 3, 10, QLatin1Char('0')).arg(QString::fromLatin1(a.header("retry-after")));
    return out;
}

// Debian's curl fetching URL COUNT times, one connection each; one line per transfer: "503 1", "000 " (reset).
QStringList curlCodes(const QString& url, int count)
{
    QStringList args { u"-s"_s, u"-H"_s, u"Connection: close"_s, u"-w"_s, u"%{http_code} %header{retry-after}\\n"_s };
    for (int i = 0; i < count; ++i)
        args << u"-o"_s << u"/dev/null"_s << url;
    QProcess curl;
    curl.start(u"curl"_s, args);
    if (!curl.waitForStarted(5000))
        return { u"curl did not start"_s };
    // The lab answering it lives on this thread: an event loop turns while curl runs.
    QEventLoop loop;
    QObject::connect(&curl, &QProcess::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(60000, &loop, &QEventLoop::quit);
    if (curl.state() != QProcess::NotRunning)
        loop.exec();
    if (curl.state() != QProcess::NotRunning)
        return { u"curl did not finish"_s };
    return QString::fromUtf8(curl.readAllStandardOutput()).split(u'\n', Qt::SkipEmptyParts);
}

} // namespace

class TestScenarioEditor : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void buildsTheGoalInAFewClicks();
    void curlGetsTheSameAnswers();
    void rowsAddedMovedRemoved();
    void invalidEditKeepsTheLastValid();
    void weightEditedInTheTree();
    void saveAsReadsBackEqual();
    void savedFileServedByRetrylabServe();
    void outageModeAndLatencyRampByForm();

private:
    QList<Answer> sendMany(const QString& path, int count);

    QTemporaryDir m_dir;
    std::unique_ptr<CliProcess::PythonHttpServer> m_python;
    std::unique_ptr<RunController> m_controller;
    std::unique_ptr<LabPanel> m_panel;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
    ScenarioEditor* m_editor = nullptr;
    QList<Answer> m_goalAnswers; // what the lab answered to the goal scenario, from its start
};

void TestScenarioEditor::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    if (QStandardPaths::findExecutable(u"curl"_s).isEmpty())
        QFAIL("curl is not installed: run packaging/install-deps.sh");
    QFile hello(m_dir.filePath(u"hello.txt"_s));
    QVERIFY(hello.open(QIODevice::WriteOnly) && hello.write("hello from python\n") > 0);
    hello.close();
    m_python = std::make_unique<CliProcess::PythonHttpServer>(m_dir.path());
    QVERIFY(m_python->isRunning());
    m_controller = std::make_unique<RunController>(TestTime::instance().clock, TestTime::instance().scheduler);
    m_controller->setRecordingDirectory(QString());
    QVERIFY2(m_controller->startLab(u"flaky-api"_s), qPrintable(m_controller->lastError()));
    m_panel = std::make_unique<LabPanel>(m_controller.get());
    m_panel->resize(420, 1000);
    m_panel->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
    m_editor = m_panel->editor();
    m_tester = std::make_unique<QAbstractItemModelTester>(m_editor->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
}

QList<Answer> TestScenarioEditor::sendMany(const QString& path, int count)
{
    labclient::SequentialGets client(m_controller->lab()->url().port(), path.toLatin1(), count);
    QElapsedTimer clock;
    clock.start();
    // A real event loop while they run (QTest::qWaitFor sleeps 10 ms between its rounds of events).
    QEventLoop loop;
    QTimer::singleShot(60000, &loop, &QEventLoop::quit);
    client.start([&loop] { loop.quit(); });
    if (!client.done())
        loop.exec();
    if (!client.done())
        qWarning("only %d of %d answers", int(client.answers().size()), count);
    if (count >= 100)
        qInfo("%d requests in %lld ms", count, clock.elapsed());
    return client.answers();
}

void TestScenarioEditor::buildsTheGoalInAFewClicks()
{
    QTest::mouseClick(m_panel->editButton(), Qt::LeftButton);
    QVERIFY(m_editor->isVisible());
    QCOMPARE(m_editor->document(), m_controller->lab()->scenario().source); // it edits what the lab plays
    click(m_editor, u"New"_s);
    QTest::keyClicks(m_editor->upstreamEdit(), m_python->url());
    clickRow(m_editor, 0);
    choose(m_editor->routeForm()->modeBox(), u"random"_s);
    clickRow(m_editor, 0, 0);
    StepForm* step = m_editor->stepForm();
    choose(step->kindBox(), u"forward"_s);
    type(step->weightBox(), u"90"_s);
    click(m_editor, u"+ Step"_s); // a respond, selected
    type(step->statusBox(), u"503"_s);
    type(step->retryAfterBox(), u"1"_s);
    type(step->weightBox(), u"5"_s);
    click(m_editor, u"+ Step"_s);
    choose(step->kindBox(), u"reset"_s);
    type(step->weightBox(), u"5"_s);

    // Applied shortly after the last edit, without a further click.
    QTRY_COMPARE(m_controller->lab()->scenario().source, m_editor->document());
    QVERIFY2(m_editor->lastResult().ok(), qPrintable(m_editor->lastResult().problemText()));
    const FaultScenario& playing = m_controller->lab()->scenario();
    QCOMPARE(playing.upstream, QUrl(m_python->url()));
    QCOMPARE(playing.routes.size(), 1);
    const FaultRoute& route = playing.routes.first();
    QCOMPARE(route.mode, FaultRoute::Mode::Random);
    QCOMPARE(route.steps.size(), 3);
    QCOMPARE(route.steps.at(0).kind, FaultStep::Kind::Forward);
    QCOMPARE(route.steps.at(0).weight, 90);
    QVERIFY(!route.steps.at(0).statusOverride); // the upstream's status, unchanged
    QCOMPARE(route.steps.at(1).kind, FaultStep::Kind::Respond);
    QCOMPARE(route.steps.at(1).status, 503);
    QCOMPARE(route.steps.at(1).retryAfterForm, RetryAfterForm::Seconds);
    QCOMPARE(route.steps.at(1).retryAfter, std::chrono::milliseconds(1000));
    QCOMPARE(route.steps.at(1).weight, 5);
    QCOMPARE(route.steps.at(2).kind, FaultStep::Kind::Reset);
    QCOMPARE(route.steps.at(2).weight, 5);

    // The lab really answers so, over real loopback connections.
    m_controller->resetLab();
    m_goalAnswers = sendMany(u"/hello.txt"_s, kRequests);
    QCOMPARE(m_goalAnswers.size(), kRequests);
    int forwarded = 0, unavailable = 0, reset = 0;
    for (const Answer& a : std::as_const(m_goalAnswers)) {
        if (a.status == 200) {
            ++forwarded;
            QVERIFY2(a.header("server").startsWith("SimpleHTTP"), a.head.constData()); // python's own answer
            QCOMPARE(a.body, QByteArray("hello from python\n"));
        } else if (a.status == 503) {
            ++unavailable;
            QCOMPARE(a.header("retry-after"), QByteArray("1"));
        } else {
            QVERIFY2(a.status == 0 && a.raw.isEmpty(), a.raw.constData()); // reset before any byte
            ++reset;
        }
    }
    qInfo("forward %d, 503 %d, reset %d of %d", forwarded, unavailable, reset, kRequests);
    // 90/5/5 of 300 draws: 270 ± 5.2, 15 ± 3.8 (one standard deviation); the seed fixes the draws.
    QVERIFY(forwarded >= 250 && forwarded <= 288);
    QVERIFY(unavailable >= 4 && unavailable <= 30);
    QVERIFY(reset >= 4 && reset <= 30);
    QCOMPARE(m_controller->lab()->ledger().requestsReceived(), kRequests);
}

void TestScenarioEditor::curlGetsTheSameAnswers()
{
    QCOMPARE(m_goalAnswers.size(), kRequests);
    m_controller->resetLab(); // the generator starts over from the scenario's seed
    const QStringList fromCurl = curlCodes(m_controller->lab()->url().resolved(QUrl(u"/hello.txt"_s)).toString(), kRequests);
    QCOMPARE(fromCurl, codes(m_goalAnswers));
    QCOMPARE(m_controller->lab()->ledger().requestsReceived(), kRequests); // one request per transfer, no retry
}

void TestScenarioEditor::rowsAddedMovedRemoved()
{
    const auto answer = [this] {
        const QList<Answer> a = sendMany(u"/only"_s, 1);
        return a.isEmpty() ? -1 : a.first().status;
    };
    clickRow(m_editor, 0);
    click(m_editor, u"+ Route"_s); // after the catch-all: never reached
    QCOMPARE(m_editor->model()->routeCount(), 2);
    RouteForm* route = m_editor->routeForm();
    retype(route->pathEdit(), u"/only"_s);
    clickRow(m_editor, 1, 0);
    type(m_editor->stepForm()->statusBox(), u"418"_s);
    QTRY_COMPARE(m_controller->lab()->scenario().routes.size(), 2);
    QTRY_COMPARE(m_controller->lab()->scenario().routes.at(1).steps.first().status, 418);
    QVERIFY(answer() != 418);

    clickRow(m_editor, 1);
    click(m_editor, u"↑"_s); // now first: it answers /only
    QCOMPARE(m_editor->model()->route(0).value(u"path"_s).toString(), u"/only"_s);
    QTRY_COMPARE(m_controller->lab()->scenario().routes.first().path, u"/only"_s);
    QCOMPARE(answer(), 418);

    // A second step under it, moved in front of the 418: a sequence plays it first.
    clickRow(m_editor, 0, 0);
    click(m_editor, u"+ Step"_s);
    type(m_editor->stepForm()->statusBox(), u"202"_s);
    click(m_editor, u"↑"_s);
    QCOMPARE(m_editor->model()->step(0, 0).value(u"status"_s).toInt(), 202);
    QTRY_COMPARE(m_controller->lab()->scenario().routes.first().steps.size(), 2);
    QTRY_COMPARE(m_controller->lab()->scenario().routes.first().steps.first().status, 202);
    QCOMPARE(answer(), 202);
    QCOMPARE(answer(), 418);

    clickRow(m_editor, 0);
    click(m_editor, u"Remove"_s);
    QCOMPARE(m_editor->model()->routeCount(), 1);
    QTRY_COMPARE(m_controller->lab()->scenario().routes.size(), 1);
    QVERIFY(answer() != 418);
    QCOMPARE(m_controller->lab()->scenario().source, m_editor->document());
}

void TestScenarioEditor::invalidEditKeepsTheLastValid()
{
    const QJsonObject valid = m_controller->lab()->scenario().source;
    QCOMPARE(valid, m_editor->document());

    // An upstream that is not HTTP: the loader's message, the lab unchanged, the text kept as typed.
    retype(m_editor->upstreamEdit(), u"ftp://127.0.0.1/"_s);
    QVERIFY(!m_editor->applyNow());
    QCOMPARE(m_editor->upstreamEdit()->text(), u"ftp://127.0.0.1/"_s);
    QCOMPARE(m_editor->document().value(u"upstream"_s).toString(), u"ftp://127.0.0.1/"_s);
    // The message a scenario file with this content gets.
    const QString file = m_dir.filePath(u"invalid.json"_s);
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly) && out.write(QJsonDocument(m_editor->document()).toJson()) > 0);
    out.close();
    const ScenarioLoader::Result fromFile = ScenarioLoader::fromFile(file);
    QVERIFY(!fromFile.ok());
    QVERIFY2(fromFile.problemText().startsWith(u"$.upstream: "_s), qPrintable(fromFile.problemText()));
    QVERIFY2(m_editor->statusText().contains(fromFile.problemText()), qPrintable(m_editor->statusText()));
    QCOMPARE(m_controller->lab()->scenario().source, valid);
    QCOMPARE(m_controller->lab()->scenario().upstream, QUrl(m_python->url()));
    QVERIFY(!m_editor->saveAs(m_dir.filePath(u"not-saved.json"_s)));
    QVERIFY(!QFile::exists(m_dir.filePath(u"not-saved.json"_s)));
    // The lab still forwards to python.
    const QList<Answer> still = sendMany(u"/hello.txt"_s, 20);
    QVERIFY(std::any_of(still.cbegin(), still.cend(), [](const Answer& a) { return a.body == "hello from python\n"; }));

    // A second problem on a step: marked on its row with the loader's words.
    retype(m_editor->upstreamEdit(), m_python->url());
    clickRow(m_editor, 0, 1);
    type(m_editor->stepForm()->statusBox(), u"150"_s);
    QVERIFY(!m_editor->applyNow());
    const QString status = u"$.routes[0].steps[1].status: must be an integer from 200 to 599"_s;
    QCOMPARE(m_editor->lastResult().problemText(), status);
    QCOMPARE(m_editor->model()->data(m_editor->model()->stepIndex(0, 1), Qt::ToolTipRole).toString(), status);
    QCOMPARE(m_controller->lab()->scenario().source, valid);

    // Every step removed: the loader's message again, nothing crashes, the lab unchanged.
    for (int i = 0; i < 3; ++i) {
        clickRow(m_editor, 0, 0);
        click(m_editor, u"Remove"_s);
    }
    QCOMPARE(m_editor->model()->stepCount(0), 0);
    QVERIFY(!m_editor->applyNow());
    QCOMPARE(m_editor->lastResult().problemText(), u"$.routes[0].steps: must be a non-empty list of steps"_s);
    QCOMPARE(m_controller->lab()->scenario().source, valid);

    // Put back: the valid scenario again, applied.
    m_editor->setDocument(valid);
    QVERIFY(m_editor->applyNow());
    QCOMPARE(m_controller->lab()->scenario().source, valid);
}

void TestScenarioEditor::weightEditedInTheTree()
{
    const QJsonObject valid = m_editor->document();
    clickRow(m_editor, 0, 1); // the 503, its form shown
    QTreeView* tree = m_editor->tree();
    tree->edit(m_editor->model()->stepIndex(0, 1, 1));
    auto* spin = tree->viewport()->findChild<QSpinBox*>();
    QVERIFY(spin);
    spin->selectAll();
    QTest::keyClicks(spin, u"7"_s);
    QTest::keyClick(spin, Qt::Key_Return); // the delegate commits it a moment later
    QTRY_COMPARE(m_editor->model()->step(0, 1).value(u"weight"_s).toInt(), 7);
    QCOMPARE(m_editor->stepForm()->weightBox()->value(), 7);
    // The form's next edit keeps the weight the tree set.
    type(m_editor->stepForm()->statusBox(), u"504"_s);
    QCOMPARE(m_editor->model()->step(0, 1).value(u"weight"_s).toInt(), 7);
    QCOMPARE(m_editor->model()->step(0, 1).value(u"status"_s).toInt(), 504);
    QTRY_COMPARE(m_controller->lab()->scenario().routes.first().steps.at(1).weight, 7);
    // Back as it was, through the form.
    type(m_editor->stepForm()->weightBox(), u"5"_s);
    type(m_editor->stepForm()->statusBox(), u"503"_s);
    QTRY_COMPARE(m_controller->lab()->scenario().source, valid);
}

void TestScenarioEditor::saveAsReadsBackEqual()
{
    const QString path = m_dir.filePath(u"saved.json"_s);
    QString error;
    QVERIFY2(m_editor->saveAs(path, &error), qPrintable(error));
    const ScenarioLoader::Result loaded = ScenarioLoader::fromFile(path);
    QVERIFY2(loaded.ok(), qPrintable(loaded.problemText()));
    const FaultScenario& playing = m_controller->lab()->scenario();
    QCOMPARE(loaded.scenario->source, m_editor->document());
    QCOMPARE(loaded.scenario->source, playing.source);
    QCOMPARE(loaded.scenario->name, playing.name);
    QCOMPARE(loaded.scenario->seed, playing.seed);
    QCOMPARE(loaded.scenario->upstream, playing.upstream);
    QCOMPARE(loaded.scenario->routes.size(), playing.routes.size());
    for (qsizetype r = 0; r < playing.routes.size(); ++r) {
        const FaultRoute& a = loaded.scenario->routes.at(r);
        const FaultRoute& b = playing.routes.at(r);
        QCOMPARE(a.path, b.path);
        QCOMPARE(a.mode, b.mode);
        QCOMPARE(a.steps.size(), b.steps.size());
        for (qsizetype s = 0; s < b.steps.size(); ++s) {
            QCOMPARE(a.steps.at(s).kind, b.steps.at(s).kind);
            QCOMPARE(a.steps.at(s).weight, b.steps.at(s).weight);
            QCOMPARE(a.steps.at(s).status, b.steps.at(s).status);
            QCOMPARE(a.steps.at(s).retryAfter, b.steps.at(s).retryAfter);
        }
    }
}

void TestScenarioEditor::savedFileServedByRetrylabServe()
{
    QCOMPARE(m_goalAnswers.size(), kRequests);
    QProcess serve;
    serve.setProcessChannelMode(QProcess::MergedChannels);
    serve.start(QStringLiteral(RETRYLAB_BINARY), { u"serve"_s, u"--scenario"_s, m_dir.filePath(u"saved.json"_s), u"--max-requests"_s,
                                                     QString::number(kRequests), u"--duration"_s, u"60"_s });
    QVERIFY(serve.waitForStarted(5000));
    QString port;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            while (serve.canReadLine()) {
                const QRegularExpressionMatch m = QRegularExpression(u"listening on http://127\\.0\\.0\\.1:(\\d+)"_s)
                                                      .match(QString::fromUtf8(serve.readLine()));
                if (m.hasMatch())
                    port = m.captured(1);
            }
            return !port.isEmpty();
        }(),
        10000);
    const QStringList fromCurl = curlCodes(u"http://127.0.0.1:%1/hello.txt"_s.arg(port), kRequests);
    // The saved file, played by the command-line lab: the same answers in the same order as the window's lab.
    QCOMPARE(fromCurl, codes(m_goalAnswers));
    QTRY_COMPARE_WITH_TIMEOUT(serve.state(), QProcess::NotRunning, 10000); // --max-requests: it stops by itself
    QCOMPARE(serve.exitCode(), 0);
}

// Issue 28 §4: an outage's mode and a latency ramp are fields of the step form, not JSON-only: a ramp over
// plays on the 503, then off again; the reset turned into a 0.8 s outage refusing connections.
void TestScenarioEditor::outageModeAndLatencyRampByForm()
{
    StepForm* form = m_editor->stepForm();
    clickRow(m_editor, 0, 1); // the 503
    QVERIFY(form->rampToBox()->isVisible());
    QVERIFY(!form->outageModeBox()->isVisible()); // not an outage
    QVERIFY(!form->rampUnitBox()->isEnabled()); // no ramp yet: its "to" makes one
    type(form->rampToBox(), u"200"_s);
    QVERIFY(form->rampUnitBox()->isEnabled());
    choose(form->rampUnitBox(), u"over_requests"_s);
    type(form->rampFromBox(), u"10"_s);
    type(form->rampOverBox(), u"5"_s);
    QCOMPARE(m_editor->model()->step(0, 1).value(u"latency_ramp"_s).toObject(),
        (QJsonObject { { u"from_ms"_s, 10 }, { u"to_ms"_s, 200 }, { u"over_requests"_s, 5 } }));
    QTRY_VERIFY(m_controller->lab()->scenario().routes.first().steps.at(1).latencyRamp.has_value());
    const LatencyRamp ramp = *m_controller->lab()->scenario().routes.first().steps.at(1).latencyRamp;
    QCOMPARE(ramp.from, std::chrono::milliseconds(10));
    QCOMPARE(ramp.to, std::chrono::milliseconds(200));
    QCOMPARE(ramp.overPlays, 5);
    form->rampToBox()->setValue(-1); // "off"
    QVERIFY(!m_editor->model()->step(0, 1).contains(u"latency_ramp"_s));
    QTRY_VERIFY(!m_controller->lab()->scenario().routes.first().steps.at(1).latencyRamp.has_value());

    clickRow(m_editor, 0, 2); // the reset
    choose(form->kindBox(), u"outage"_s);
    QVERIFY(form->outageModeBox()->isVisible());
    QVERIFY(!form->rampToBox()->isVisible()); // never on an outage
    choose(form->outageModeBox(), u"refuse"_s);
    QCOMPARE(m_editor->model()->step(0, 2).value(u"mode"_s).toString(), u"refuse"_s);
    clickRow(m_editor, 0, 2);
    StepForm* again = m_editor->stepForm();
    QSpinBox* duration = again->durationBox();
    QVERIFY(duration->isVisible());
    type(duration, u"800"_s);
    QTRY_COMPARE(m_controller->lab()->scenario().routes.first().steps.at(2).kind, FaultStep::Kind::Outage);
    const FaultStep& outage = m_controller->lab()->scenario().routes.first().steps.at(2);
    QCOMPARE(outage.outageMode, OutageMode::Refuse);
    QCOMPARE(outage.duration, std::chrono::milliseconds(800));
    choose(again->outageModeBox(), u"status"_s); // the default is written by leaving the key out
    QVERIFY(!m_editor->model()->step(0, 2).contains(u"mode"_s));
}

QTEST_MAIN(TestScenarioEditor)
#include "tst_scenarioeditor.moc"
