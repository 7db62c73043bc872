// SPDX-License-Identifier: GPL-3.0-or-later
// The request editor (issue 15 items 1, 8, 9, 10): the lab route picker follows the scenario and a request
// that matches no route is said at once; a URL without a scheme gets http://; "Paste curl" keeps the text
// when it cannot be read and fills the request (and, asked, the curl preset) when it can; Retrylab's own
// headers and the attempt-id header are the user's choice, the attempt id on by default only for the lab.
#include "editors/curlpastedialog.h"
#include "editors/labroutes.h"
#include "editors/requesteditor.h"
#include "editors/requestoptionsdialog.h"
#include "run/runplan.h"

#include "lab/scenariocatalog.h"

#include <QApplication>
#include <QCheckBox>
#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

FaultScenario scenario(const QString& name)
{
    const ScenarioLoader::Result loaded = ScenarioCatalog::load(name);
    return loaded.ok() ? *loaded.scenario : FaultScenario();
}

RunPlan planOf(const RequestEditor& editor)
{
    RunPlan plan;
    const QString problem = editor.fillPlan(plan);
    if (!problem.isEmpty())
        qWarning("%s", qPrintable(problem));
    return plan;
}

} // namespace

class TestRequestEditor : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void routeSamplesFillWildcards()
    {
        const QList<RouteSample> samples = LabRoutes::samples(scenario(u"seed-000-rate-limited"_s));
        QVERIFY(samples.size() >= 4);
        QCOMPARE(samples.first().method, u"GET"_s);
        QCOMPARE(samples.first().path, u"/v1/payments/1"_s);
        QVERIFY(samples.first().body.isEmpty());
        for (const RouteSample& s : samples) {
            QVERIFY2(LabRoutes::matches(scenario(u"seed-000-rate-limited"_s), s.method, s.path), qPrintable(s.label()));
            if (s.method == u"POST"_s || s.method == u"PUT"_s || s.method == u"PATCH"_s)
                QVERIFY(!s.body.isEmpty());
        }
    }

    // Issue 15 item 1: choosing seed-004-pix left the request on /api/orders, and 20 runs got 404s.
    void scenarioChangeOffersItsRoutes()
    {
        RequestEditor editor;
        QSignalSpy hints(&editor, &RequestEditor::hintChanged);
        editor.setLabScenario(scenario(u"flaky-api"_s));
        QCOMPARE(planOf(editor).labPath, u"/api/orders"_s);
        QVERIFY(editor.hint().isEmpty());

        editor.setLabScenario(scenario(u"seed-004-pix"_s));
        const RunPlan plan = planOf(editor);
        QCOMPARE(plan.request.method, u"POST"_s);
        QCOMPARE(plan.labPath, u"/pix/payments"_s);
        QVERIFY(!plan.request.body.isEmpty());
        QVERIFY2(editor.hint().contains(u"first route of seed-004-pix"_s), qPrintable(editor.hint()));
        QVERIFY(!hints.isEmpty());
        QCOMPARE(editor.routes().size(), 1);
    }

    void aRequestMatchingNoRouteIsSaid()
    {
        RequestEditor editor;
        editor.setLabScenario(scenario(u"seed-004-pix"_s));
        editor.setRequest(u"GET"_s, u"/api/orders"_s, true);
        QVERIFY2(editor.hint().contains(u"No route of seed-004-pix matches GET /api/orders"_s), qPrintable(editor.hint()));
        QVERIFY(editor.hint().contains(u"404"_s));
        // The lab's reset before each run reloads the same scenario: a path typed on purpose stays.
        editor.setLabScenario(scenario(u"seed-004-pix"_s));
        QCOMPARE(planOf(editor).labPath, u"/api/orders"_s);
        // A route picked again clears it.
        editor.pickRoute(0);
        QVERIFY(editor.hint().isEmpty());
    }

    // Issue 15 item 8: "127.0.0.1:18080/charge" was refused as "not a URL with a host".
    void aUrlWithoutSchemeIsHttp()
    {
        RequestEditor editor;
        editor.setRequest(u"POST"_s, u"127.0.0.1:18080/charge"_s, false);
        const RunPlan plan = planOf(editor);
        QCOMPARE(plan.request.url, QUrl(u"http://127.0.0.1:18080/charge"_s));
        QVERIFY2(editor.hint().contains(u"http://127.0.0.1:18080/charge"_s), qPrintable(editor.hint()));
        editor.setRequest(u"GET"_s, u"ftp://files.example/x"_s, false);
        RunPlan ftp;
        QVERIFY(editor.fillPlan(ftp).contains(u"ftp"_s));
    }

    // Issue 15 item 9: an unreadable command closed the dialog and lost the text.
    void pasteKeepsTheTextOnError()
    {
        RequestEditor editor;
        editor.show();
        editor.pasteCurl();
        CurlPasteDialog* dialog = editor.curlDialog();
        QVERIFY(dialog);
        const QString broken = u"curl -X POST 'https://api.example.com/v1/charges --data-raw '{}'"_s;
        dialog->setText(broken);
        QVERIFY(!dialog->canAccept());
        dialog->accept();
        QVERIFY2(dialog->isVisible(), "an error keeps the dialog open");
        QCOMPARE(dialog->text(), broken);
        QVERIFY(dialog->status()->text().contains(u"Not read"_s));
        dialog->reject();
        QTRY_VERIFY(!editor.curlDialog());
        editor.pasteCurl(); // the text is offered again
        QTRY_VERIFY(editor.curlDialog());
        QCOMPARE(editor.curlDialog()->text(), broken);
        editor.curlDialog()->reject();
    }

    void pasteFillsTheRequestAndTheCurlPreset()
    {
        RequestEditor editor;
        editor.show();
        QSignalSpy policies(&editor, &RequestEditor::policyFromCurl);
        editor.pasteCurl();
        CurlPasteDialog* dialog = editor.curlDialog();
        dialog->setText(u"curl --retry 3 --retry-connrefused -m 5 -u a:b -H 'Authorization: Bearer t' -H 'Accept:' "
                        "--compressed --data-raw '{\"amount\":1}' https://api.example.com/v1/charges"_s);
        QVERIFY2(dialog->canAccept(), qPrintable(dialog->request().error));
        QVERIFY(dialog->presetBox()->isVisibleTo(dialog) && dialog->presetBox()->isChecked());
        dialog->accept();
        QTRY_VERIFY(!editor.curlDialog());
        const RunPlan plan = planOf(editor);
        QCOMPARE(plan.targetLab, false);
        QCOMPARE(plan.request.method, u"POST"_s);
        QCOMPARE(plan.request.url, QUrl(u"https://api.example.com/v1/charges"_s));
        int authorizations = 0;
        for (const auto& [name, value] : plan.request.headers)
            authorizations += name.compare("authorization", Qt::CaseInsensitive) == 0;
        QCOMPARE(authorizations, 1);
        QVERIFY(hasHeader(plan.request.headers, "accept-encoding"));
        QCOMPARE(headerValues(plan.request.headers, "content-type").value(0), QByteArray("application/x-www-form-urlencoded"));
        QCOMPARE(plan.request.omittedDefaults, QList<QByteArray> { "accept" });
        QCOMPARE(policies.size(), 1);
        const RetryPolicy policy = policies.first().at(0).value<RetryPolicy>();
        QCOMPARE(policy.name, u"curl"_s);
        QCOMPARE(policy.limits.maxAttempts, 4);
        QCOMPARE(policy.limits.attemptTimeout, Millis(5000));
    }

    // Issue 15 item 10: X-Retrylab-Attempt, Accept-Language and Accept-Encoding went to every server.
    void attemptIdOnlyForTheLabByDefault()
    {
        RequestEditor editor;
        QVERIFY(planOf(editor).request.attemptIdEnabled);
        editor.setRequest(u"GET"_s, u"https://api.example.com/"_s, false);
        QVERIFY(!planOf(editor).request.attemptIdEnabled);
        RequestOptions options;
        options.attemptId = true;
        options.attemptIdHeader = "X-Trace-Attempt";
        options.omittedDefaults = { "accept-language", "accept-encoding" };
        editor.setOptions(options);
        const RunPlan plan = planOf(editor);
        QVERIFY(plan.request.attemptIdEnabled);
        QCOMPARE(plan.request.attemptIdHeader, QByteArray("X-Trace-Attempt"));
        QCOMPARE(plan.request.omittedDefaults, options.omittedDefaults);
    }

    void optionsDialogRoundTrips()
    {
        RequestOptions options;
        options.omittedDefaults = { "user-agent", "accept" }; // in the order the dialog lists them
        options.attemptId = false;
        options.attemptIdHeader = "X-Try";
        options.followRedirects = true;
        RequestOptionsDialog dialog(options);
        QCOMPARE(dialog.options(), options);
        QCOMPARE(dialog.table()->rowCount(), 6); // Host and Retrylab's five
        QVERIFY(!(dialog.table()->item(0, 0)->flags() & Qt::ItemIsEnabled)); // Host cannot be turned off
        dialog.table()->item(2, 0)->setCheckState(Qt::Checked); // Accept on again
        QCOMPARE(dialog.options().omittedDefaults, QList<QByteArray> { "user-agent" });
        QVERIFY(options.sentNames(true).contains(u"User-Agent (Qt's)"_s));
        QVERIFY(!options.sentNames(true).contains(u"Accept"_s));
    }
};

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    TestRequestEditor test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_requesteditor.moc"
