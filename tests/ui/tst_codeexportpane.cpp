// SPDX-License-Identifier: GPL-3.0-or-later
// The policy editor's Export pane (issue 30 §5): the code for the chosen target and version follows the
// edited policy as it changes; what the target cannot express is listed in red and equals the export's own
// list; Copy puts the unit on the clipboard; "Check with a real client" is offered only where the target
// runs here, writes the unit and its client into a folder of their own, and hands the Conform tab a command
// that runs there.
#include "codeexport/codeexportpane.h"
#include "codeexport/codehighlighter.h"
#include "editors/policyeditor.h"
#include "policy/presetcatalog.h"

#include <QApplication>
#include <QClipboard>
#include <QAction>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

using namespace Qt::StringLiterals;

class TestCodeExportPane : public QObject
{
    Q_OBJECT

private slots:
    void followsThePolicyAndTarget();
    void lostListEqualsTheExport();
    void noPolicyNoCode();
    void copy();
    void checkWhereTheTargetRuns();
    void editorTabFollowsEdits();
    void exportWindow();
};

namespace {

RetryPolicy preset(const QString& name)
{
    return *PresetCatalog::load(name).policy;
}

} // namespace

void TestCodeExportPane::followsThePolicyAndTarget()
{
    CodeExportPane pane;
    pane.setPolicy(preset(u"urllib3"_s));
    QVERIFY(pane.selectTarget(u"urllib3"_s, u"1.26"_s));
    QVERIFY(pane.codeView()->toPlainText().contains(u"\"urllib3\""_s));
    QVERIFY(pane.codeView()->toPlainText().contains(u"urllib3 Retry 1.26"_s));
    QVERIFY(pane.selectTarget(u"envoy"_s));
    QCOMPARE(pane.versionBox()->count(), CodeTargets::find(u"envoy"_s)->versions.size());
    QVERIFY(pane.codeView()->toPlainText().contains(u"retry_policy"_s));
    QVERIFY(!pane.selectTarget(u"no-such-target"_s));
    QVERIFY(!pane.selectTarget(u"got"_s, u"99"_s));
    // Another policy, the same target: the code follows.
    const QString before = pane.codeView()->toPlainText();
    pane.setPolicy(preset(u"aws-standard"_s));
    QVERIFY(pane.codeView()->toPlainText() != before);
    QVERIFY(pane.codeView()->toPlainText().contains(u"\"aws-standard\""_s));
}

void TestCodeExportPane::lostListEqualsTheExport()
{
    CodeExportPane pane;
    const RetryPolicy policy = preset(u"slen"_s);
    pane.setPolicy(policy);
    for (const CodeTarget& t : CodeTargets::all()) {
        QVERIFY(pane.selectTarget(t.id));
        QString error;
        const std::optional<CodeExport> e = exportPolicy(t, policy, QString(), &error);
        QVERIFY(e);
        QCOMPARE(pane.codeView()->toPlainText(), e->code);
        QCOMPARE(pane.lostList()->count(), e->lost.size());
        for (int i = 0; i < pane.lostList()->count(); ++i)
            QVERIFY(pane.lostList()->item(i)->text().startsWith(e->lost.at(i).path + u" — "_s));
        QCOMPARE(pane.verdictLabel()->text().startsWith(u"Exact"_s), e->exact());
        QVERIFY(!pane.lostList()->isHidden() || e->exact());
    }
}

void TestCodeExportPane::noPolicyNoCode()
{
    CodeExportPane pane;
    pane.setPolicy(std::nullopt);
    QVERIFY(pane.codeView()->toPlainText().isEmpty());
    QVERIFY(pane.verdictLabel()->text().contains(u"problems"_s));
    QVERIFY(!pane.copyButton()->isEnabled());
    QVERIFY(!pane.checkButton()->isEnabled());
}

void TestCodeExportPane::copy()
{
    CodeExportPane pane;
    pane.setPolicy(preset(u"stripe"_s));
    QVERIFY(pane.selectTarget(u"grpc"_s));
    QSignalSpy status(&pane, &CodeExportPane::statusMessage);
    QTest::mouseClick(pane.copyButton(), Qt::LeftButton);
    QCOMPARE(QApplication::clipboard()->text(), pane.codeView()->toPlainText());
    QCOMPARE(status.size(), 1);
}

void TestCodeExportPane::checkWhereTheTargetRuns()
{
    CodeExportPane pane;
    pane.setPolicy(preset(u"urllib3"_s));
    // Envoy does not run here: the button says why.
    QVERIFY(pane.selectTarget(u"envoy"_s));
    QVERIFY(!pane.checkButton()->isEnabled());
    QVERIFY(pane.checkButton()->toolTip().contains(u"does not run"_s));
    // urllib3 runs with Debian's python3: the unit and its client land in a folder, and the command runs there.
    QVERIFY(pane.selectTarget(u"urllib3"_s));
    if (!QFileInfo::exists(u"/usr/bin/python3"_s))
        QSKIP("no /usr/bin/python3 here");
    QVERIFY2(pane.checkButton()->isEnabled(), qPrintable(pane.checkUnavailableReason()));
    QSignalSpy asked(&pane, &CodeExportPane::checkRequested);
    QTest::mouseClick(pane.checkButton(), Qt::LeftButton);
    QCOMPARE(asked.size(), 1);
    const QString command = asked.first().at(0).toString();
    QVERIFY2(command.startsWith(u"cd '"_s) && command.contains(u"exec "_s), qPrintable(command));
    const QString folder = command.section(u'\'', 1, 1);
    QVERIFY(QFileInfo::exists(folder + u"/retrylab_policy.py"_s));
    const ProofClient client = CodeTargets::find(u"urllib3"_s)->proofClient(u"retrylab_policy.py"_s, u"1.26"_s);
    QVERIFY(QFileInfo::exists(folder + u'/' + client.fileName));
    QCOMPARE(asked.first().at(1).toString(), u"urllib3 1.26"_s);
}

// In the editor, the Export tab follows the form as the previews do.
void TestCodeExportPane::editorTabFollowsEdits()
{
    PolicyEditor editor;
    QVERIFY(editor.loadPreset(u"urllib3"_s));
    editor.showPage(PolicyEditor::Page::Export);
    QCOMPARE(editor.tabs()->tabText(int(PolicyEditor::Page::Export)), u"Export"_s);
    CodeExportPane* pane = editor.exportPane();
    QVERIFY(pane->selectTarget(u"urllib3"_s));
    QTRY_VERIFY(pane->codeView()->toPlainText().contains(u"\"urllib3\""_s));
    RetryPolicy changed = preset(u"urllib3"_s);
    changed.limits.maxAttempts = 9;
    editor.setPolicy(changed, u"test"_s);
    QString error;
    const QString expected = exportPolicy(*CodeTargets::find(u"urllib3"_s), changed, QString(), &error)->code;
    QTRY_COMPARE(pane->codeView()->toPlainText(), expected);
}

// "Export as Code…" opens the pane in a window of its own that follows the edited policy, and forwards
// its check as the tab's does.
void TestCodeExportPane::exportWindow()
{
    PolicyEditor editor;
    QVERIFY(editor.loadPreset(u"slen"_s));
    QCOMPARE(editor.exportWindow(), nullptr);
    editor.exportAsCodeAction()->trigger();
    QDialog* window = editor.exportWindow();
    QVERIFY(window);
    QVERIFY(window->isVisible());
    auto* pane = window->findChild<CodeExportPane*>();
    QVERIFY(pane);
    // Roomy (1000 px wide where the screen allows) and inside the screen.
    const QRect available = window->screen()->availableGeometry();
    QCOMPARE(window->width(), std::min(1000, available.width() - 80));
    QVERIFY(available.contains(window->geometry()));
    QVERIFY(pane->codeView()->toPlainText().contains(u"\"slen\""_s));
    editor.setPolicy(preset(u"stripe"_s), u"test"_s);
    QTRY_VERIFY(pane->codeView()->toPlainText().contains(u"\"stripe\""_s));
    editor.exportAsCodeAction()->trigger(); // again: the same window
    QCOMPARE(editor.exportWindow(), window);
    window->close();
}

QTEST_MAIN(TestCodeExportPane)
#include "tst_codeexportpane.moc"
