// SPDX-License-Identifier: GPL-3.0-or-later
// The policy form round-trips every preset, rules and hints included; validation problems turn the right
// field (or rule/hint row) red; edits are marked as changed from the preset; the JSON tab and the form
// stay in sync both ways; rules and hints are added, duplicated, removed and moved; the decision table
// model passes QAbstractItemModelTester for every preset.
#include "editors/policyeditor.h"
#include "editors/policyform.h"
#include "editors/policylists/hinteditor.h"
#include "editors/policylists/policylistmodel.h"
#include "editors/policylists/policylistsection.h"
#include "editors/policylists/ruleeditor.h"
#include "editors/policylists/statuslistedit.h"
#include "previews/decisiontablemodel.h"
#include "previews/delaydistribution.h"

#include "policy/decisiontable.h"
#include "policy/policyjson.h"
#include "policy/presetcatalog.h"
#include "policy/settings/policysetting.h"

#include <QAbstractItemModelTester>
#include <QAbstractScrollArea>
#include <QScrollBar>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

class TestPolicyEditor : public QObject
{
    Q_OBJECT
private:
    static const PolicyField* field(const PolicyForm& form, const QString& path)
    {
        for (const PolicyField& f : form.fields()) {
            if (f.path == path)
                return &f;
        }
        return nullptr;
    }
    static int ruleRow(const RetryPolicy& policy, const QString& name)
    {
        for (qsizetype i = 0; i < policy.rules.size(); ++i) {
            if (policy.rules.at(i).name == name)
                return int(i);
        }
        return -1;
    }
    // The policy the JSON tab shows, read back.
    static RetryPolicy jsonPolicy(const PolicyEditor& editor)
    {
        const PolicyParseResult parsed = policyFromJsonBytes(editor.jsonEdit()->toPlainText().toUtf8());
        if (!parsed.ok())
            qWarning() << "the JSON tab does not hold a usable policy:" << parsed.problems.value(0).message;
        return parsed.policy.value_or(RetryPolicy {});
    }
    static QStringList rowProblems(PolicyListSection* section, int row)
    {
        return section->model()->data(section->model()->index(row), PolicyListModel::ProblemsRole).toStringList();
    }
    static bool rowChanged(PolicyListSection* section, int row)
    {
        return section->model()->data(section->model()->index(row), PolicyListModel::ChangedRole).toBool();
    }
    // Types TEXT into EDIT as the user would, replacing what it holds.
    static void retype(QLineEdit* edit, const QString& text)
    {
        edit->setFocus();
        edit->selectAll();
        QTest::keyClick(edit, Qt::Key_Backspace);
        QTest::keyClicks(edit, text);
    }

private Q_SLOTS:
    void presets_data()
    {
        QTest::addColumn<QString>("name");
        const QStringList names = PresetCatalog::names();
        QVERIFY(!names.isEmpty());
        for (const QString& n : names)
            QTest::addRow("%s", qPrintable(n)) << n;
    }

    void formRoundTripsEveryPreset_data() { presets_data(); }
    void formRoundTripsEveryPreset()
    {
        QFETCH(QString, name);
        const PolicyParseResult preset = PresetCatalog::load(name);
        QVERIFY(preset.ok());
        PolicyForm form;
        form.setReference(*preset.policy);
        form.setPolicy(*preset.policy);
        const RetryPolicy back = form.policy();
        if (!(back == *preset.policy)) // show which part differs
            QCOMPARE(QString::fromUtf8(policyToJsonBytes(back)), QString::fromUtf8(policyToJsonBytes(*preset.policy)));
        QVERIFY(back == *preset.policy);
        QCOMPARE(form.changedFieldCount(), 0);

        // Showing each rule and hint in its editor changes nothing either.
        for (PolicyListSection* section : { form.ruleSection(), form.hintSection() }) {
            for (int row = 0; row < section->model()->rowCount(); ++row) {
                section->setCurrentRow(row);
                QCOMPARE(section->itemEditor()->row(), row);
                QVERIFY(section->itemEditor()->showsModelItem());
            }
        }
        QVERIFY(form.policy() == *preset.policy);
        QCOMPARE(form.changedFieldCount(), 0);
    }

    void editorRoundTripsEveryPreset_data() { presets_data(); }
    void editorRoundTripsEveryPreset()
    {
        QFETCH(QString, name);
        PolicyEditor editor;
        QVERIFY(editor.loadPreset(name));
        const auto policy = editor.policy();
        QVERIFY(policy);
        QVERIFY(*policy == *PresetCatalog::load(name).policy);
        QAbstractItemModelTester tester(editor.decisionModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        editor.decisionModel()->setTable(buildDecisionTable(*policy, QDateTime::currentDateTimeUtc()));
        QVERIFY(editor.decisionModel()->rowCount() > 0);
        QCOMPARE(editor.decisionModel()->columnCount(), editor.decisionModel()->table().methods.size());
    }

    void invalidFieldTurnsRedWithItsMessage()
    {
        PolicyEditor editor;
        QVERIFY(editor.loadPreset(u"aws-standard"_s));
        const PolicyField* multiplier = field(*editor.form(), u"backoff.multiplier"_s);
        QVERIFY(multiplier);
        auto* spin = qobject_cast<QDoubleSpinBox*>(multiplier->editor);
        QVERIFY(spin);
        spin->setValue(-1.0);
        QVERIFY(!editor.policy());
        QVERIFY(!multiplier->message->isHidden());
        QVERIFY(multiplier->message->text().contains(u"above 0"_s));
        QVERIFY(multiplier->editor->property("policyProblem").toBool());
        QCOMPARE(editor.form()->changedFieldCount(), 1);
        spin->setValue(3.0);
        QVERIFY(editor.policy());
        QVERIFY(multiplier->message->isHidden());
        QCOMPARE(editor.policy()->backoff.multiplier, 3.0);
        QVERIFY(editor.jsonEdit()->toPlainText().contains(u"\"multiplier\": 3"_s));
    }

    void jsonEditsReachTheForm()
    {
        PolicyEditor editor;
        QVERIFY(editor.loadPreset(u"stripe"_s));
        RetryPolicy edited = *editor.policy();
        edited.limits.maxAttempts = 7;
        edited.backoff.cap = Millis(9000);
        editor.jsonEdit()->setPlainText(QString::fromUtf8(policyToJsonBytes(edited)));
        QTRY_VERIFY(editor.policy() && *editor.policy() == edited);
        const PolicyField* cap = field(*editor.form(), u"backoff.cap_ms"_s);
        QCOMPARE(qobject_cast<QSpinBox*>(cap->editor)->value(), 9000);
        QCOMPARE(editor.form()->changedFieldCount(), 2);
    }

    void ruleEditsReachTheJson()
    {
        PolicyEditor editor;
        QVERIFY(editor.loadPreset(u"paymongo"_s));
        const RetryPolicy preset = *editor.policy();
        const int row = ruleRow(preset, u"safe-method-5xx"_s);
        QVERIFY(row >= 0);
        QCOMPARE(preset.rules.at(row).when.methods, (QStringList { u"GET"_s, u"DELETE"_s }));
        PolicyListSection* rules = editor.form()->ruleSection();
        rules->setCurrentRow(row);
        auto* ruleEditor = qobject_cast<RuleEditor*>(rules->itemEditor());
        QVERIFY(ruleEditor);

        ruleEditor->methodBox(u"PUT"_s)->click(); // added after the others, which keep their order
        QVERIFY(editor.policy());
        QCOMPARE(editor.policy()->rules.at(row).when.methods, (QStringList { u"GET"_s, u"DELETE"_s, u"PUT"_s }));
        QCOMPARE(jsonPolicy(editor).rules.at(row).when.methods, (QStringList { u"GET"_s, u"DELETE"_s, u"PUT"_s }));
        QVERIFY(rowChanged(rules, row));
        QVERIFY(!rowChanged(rules, row == 0 ? 1 : 0));
        QVERIFY(ruleEditor->field(u"when.methods"_s)->label->font().bold());
        QVERIFY(!ruleEditor->field(u"action"_s)->label->font().bold());
        QCOMPARE(editor.form()->changedFieldCount(), 1);

        ruleEditor->actionBox()->setCurrentIndex(int(RuleAction::Stop));
        QCOMPARE(jsonPolicy(editor).rules.at(row).action, RuleAction::Stop);
        QVERIFY(ruleEditor->field(u"action"_s)->label->font().bold());

        // An error class on a rule about statuses can never match: validate() says so at the field.
        ruleEditor->errorBox(ErrorClass::Tls)->click();
        QVERIFY(!editor.policy());
        QVERIFY(ruleEditor->field(u"when.errors"_s)->message->text().contains(u"can never match"_s));
        QVERIFY(rowProblems(rules, row).join(u'\n').contains(u"errors: can never match"_s));
        ruleEditor->errorBox(ErrorClass::Tls)->click();
        QVERIFY(editor.policy());
        QVERIFY(ruleEditor->field(u"when.errors"_s)->message->isHidden());

        ruleEditor->headersEdit()->setPlainText(u"Stripe-Should-Retry: true | 1\n!X-Final"_s);
        const QList<HeaderMatch> headers = jsonPolicy(editor).rules.at(row).when.headers;
        QCOMPARE(headers.size(), 2);
        QVERIFY(headers.at(0) == (HeaderMatch { u"Stripe-Should-Retry"_s, { u"true"_s, u"1"_s }, false }));
        QVERIFY(headers.at(1) == (HeaderMatch { u"X-Final"_s, {}, true }));

        // Unticking and ticking back restores the preset exactly.
        ruleEditor->methodBox(u"PUT"_s)->click();
        ruleEditor->actionBox()->setCurrentIndex(int(preset.rules.at(row).action));
        ruleEditor->headersEdit()->clear();
        QVERIFY(*editor.policy() == preset);
        QCOMPARE(editor.form()->changedFieldCount(), 0);
        QVERIFY(!rowChanged(rules, row));
    }

    // The editor says what was changed in the preset the way the command line's --set reports it, from
    // the same diff (issue 27 §4): "preset curl-7.88, changed: limits.max_retries 7 → 3".
    void changesAreShownAsTheCommandLineSaysThem()
    {
        PolicyEditor editor;
        QVERIFY(editor.loadPreset(u"curl-7.88"_s));
        auto* label = editor.findChild<QLabel*>(u"policyChanges"_s);
        QVERIFY(label);
        QVERIFY(label->isHidden());
        QVERIFY(editor.changes().isEmpty());

        // The form's attempts, for a preset that counts retries: the change in the preset's own spelling.
        qobject_cast<QSpinBox*>(field(*editor.form(), u"limits.max_attempts"_s)->editor)->setValue(4);
        const QString retry3 = u"preset curl-7.88, changed: limits.max_retries 7 → 3"_s;
        QCOMPARE(label->text(), retry3);
        QVERIFY(!label->isHidden());
        // What `--set limits.max_retries=3` reports, by the same functions.
        const PolicyParseResult set = applyPolicySettings(*PresetCatalog::load(u"curl-7.88"_s).policy,
            { PolicySetting { u"limits.max_retries"_s, QJsonValue(3) } });
        QVERIFY(set.ok());
        QCOMPARE(*editor.policy(), *set.policy);
        QCOMPARE((PolicyChanges { u"curl-7.88"_s, PolicyChanges::BaseKind::Preset,
                     PolicyChanges::between(*PresetCatalog::load(u"curl-7.88"_s).policy, *set.policy) }
                         .text()),
            retry3);

        qobject_cast<QSpinBox*>(field(*editor.form(), u"backoff.base_ms"_s)->editor)->setValue(500);
        QCOMPARE(label->text(), u"preset curl-7.88, changed: backoff.base_ms 1000 → 500, limits.max_retries 7 → 3"_s);

        // Many changes: the first three, then how many more; every one in the tooltip.
        RetryPolicy edited = *editor.policy();
        edited.backoff.multiplier = 3.0;
        edited.jitter.floor = Millis(5);
        edited.rules[1].name = u"resolver"_s;
        editor.jsonEdit()->setPlainText(QString::fromUtf8(policyToJsonBytes(edited)));
        QTRY_COMPARE(editor.changes().changes.size(), 5);
        QCOMPARE(label->text(), u"preset curl-7.88, changed: backoff.base_ms 1000 → 500, backoff.multiplier 2 → 3, "
                                "jitter.floor_ms 0 → 5 and 2 more"_s);
        QCOMPARE(label->toolTip().split(u'\n').size(), 5);
        QVERIFY(label->toolTip().contains(u"rules[1].name \"dns\" → \"resolver\""_s));

        // A file whose name is no preset is its own reference: "policy file FILE".
        QTemporaryDir dir;
        const QString path = dir.filePath(u"mine.json"_s);
        edited.name = u"mine"_s;
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(policyToJsonBytes(edited));
        file.close();
        QCOMPARE(editor.loadFile(path), QString());
        QVERIFY(label->isHidden());
        qobject_cast<QSpinBox*>(field(*editor.form(), u"limits.max_attempts"_s)->editor)->setValue(2);
        QCOMPARE(label->text(), u"policy file "_s + path + u", changed: limits.max_retries 3 → 1"_s);

        QVERIFY(editor.loadPreset(u"curl-7.88"_s)); // Revert does the same
        QVERIFY(label->isHidden());
    }

    void invalidRuleValueMarksItsRowRed()
    {
        PolicyEditor editor;
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        QVERIFY(editor.loadPreset(u"stripe"_s));
        PolicyListSection* rules = editor.form()->ruleSection();
        int row = -1;
        for (int i = 0; i < editor.policy()->rules.size() && row < 0; ++i) {
            if (!editor.policy()->rules.at(i).when.statuses.isEmpty())
                row = i;
        }
        QVERIFY(row >= 0);
        rules->setCurrentRow(row);
        auto* ruleEditor = qobject_cast<RuleEditor*>(rules->itemEditor());
        const PolicyField* statuses = ruleEditor->field(u"when.statuses"_s);

        retype(ruleEditor->statusEdit(), u"429, 600"_s);
        QVERIFY(!editor.policy());
        QVERIFY(rowProblems(rules, row).join(u'\n').contains(u"100 to 599"_s));
        QVERIFY(rules->model()->data(rules->model()->index(row), Qt::ToolTipRole).toString().contains(u"100 to 599"_s));
        QVERIFY(rowProblems(rules, row == 0 ? 1 : 0).isEmpty());
        QVERIFY(!statuses->message->isHidden());
        QVERIFY(statuses->message->text().contains(u"100 to 599"_s));
        QVERIFY(statuses->editor->property("policyProblem").toBool());

        // Text that is not a status at all cannot reach the policy: it is a problem of the form.
        retype(ruleEditor->statusEdit(), u"429, 5x"_s);
        QVERIFY(!editor.policy());
        QVERIFY(rowProblems(rules, row).join(u'\n').contains(u"\"5x\" is not a status code"_s));
        QVERIFY(statuses->message->text().contains(u"\"5x\""_s));

        // Revert drops the unreadable text along with everything else.
        QVERIFY(editor.loadPreset(u"stripe"_s));
        QVERIFY(editor.policy());
        QVERIFY(rowProblems(rules, row).isEmpty());
        QCOMPARE(ruleEditor->statusEdit()->text(), StatusListEdit::format(editor.policy()->rules.at(row).when.statuses));

        retype(ruleEditor->statusEdit(), u"429, 5xx"_s);
        QVERIFY(editor.policy());
        QCOMPARE(editor.policy()->rules.at(row).when.statuses,
            (QList<StatusRange> { StatusRange { 429, 429 }, StatusRange { 500, 599 } }));
        QVERIFY(rowProblems(rules, row).isEmpty());
        QVERIFY(statuses->message->isHidden());
        QVERIFY(!statuses->editor->property("policyProblem").toBool());

        // A problem in another row shows on that row while this one stays selected.
        RetryPolicy broken = *editor.policy();
        const int other = row == 0 ? 1 : 0;
        broken.rules[other].when.methods = { u"BAD METHOD"_s };
        editor.jsonEdit()->setPlainText(QString::fromUtf8(policyToJsonBytes(broken)));
        QTRY_VERIFY(!rowProblems(rules, other).isEmpty());
        QVERIFY(rowProblems(rules, other).join(u'\n').contains(u"not an HTTP method name"_s));
        QCOMPARE(rules->currentRow(), row);
        QVERIFY(ruleEditor->field(u"when.methods"_s)->message->isHidden());
    }

    void hintEditsReachTheJson()
    {
        PolicyEditor editor;
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        QVERIFY(editor.loadPreset(u"slen"_s));
        const RetryPolicy preset = *editor.policy();
        QVERIFY(!preset.hints.isEmpty());
        PolicyListSection* hints = editor.form()->hintSection();
        hints->setCurrentRow(0);
        auto* hintEditor = qobject_cast<HintEditor*>(hints->itemEditor());
        QVERIFY(hintEditor);

        hintEditor->flagBox(u"resets_exponent"_s)->click();
        QCOMPARE(jsonPolicy(editor).hints.at(0).resetsExponent, !preset.hints.at(0).resetsExponent);
        hintEditor->maxSpin()->setValue(4321);
        QCOMPARE(jsonPolicy(editor).hints.at(0).max, std::optional<Millis>(Millis(4321)));
        hintEditor->overMaxBox()->setCurrentIndex(int(HintOverMax::Ignore));
        QCOMPARE(jsonPolicy(editor).hints.at(0).overMax, HintOverMax::Ignore);
        retype(hintEditor->statusEdit(), u"429, 503"_s);
        QCOMPARE(jsonPolicy(editor).hints.at(0).statuses, (QList<StatusRange> { StatusRange { 429, 429 }, StatusRange { 503, 503 } }));
        QVERIFY(rowChanged(hints, 0));
        QCOMPARE(editor.form()->changedFieldCount(), 1);

        // An invalid header name turns the hint's row and field red with the reason.
        retype(hintEditor->headerEdit(), u"Retry After"_s);
        QVERIFY(!editor.policy());
        QVERIFY(rowProblems(hints, 0).join(u'\n').contains(u"not a valid header name"_s));
        QVERIFY(hintEditor->field(u"header"_s)->message->text().contains(u"not a valid header name"_s));
        retype(hintEditor->headerEdit(), u"Retry-After"_s);
        QVERIFY(editor.policy());
        QVERIFY(rowProblems(hints, 0).isEmpty());

        // A zero maximum is refused by validate(): "must be more than 0 ms".
        hintEditor->maxSpin()->setValue(0);
        QVERIFY(!editor.policy());
        QVERIFY(hintEditor->field(u"max_ms"_s)->message->text().contains(u"more than 0 ms"_s));
    }

    void rulesAreAddedRemovedAndMoved()
    {
        PolicyEditor editor;
        QVERIFY(editor.loadPreset(u"paymongo"_s));
        const RetryPolicy preset = *editor.policy();
        const qsizetype n = preset.rules.size();
        QVERIFY(n >= 3);
        PolicyListSection* rules = editor.form()->ruleSection();
        QAbstractItemModelTester tester(rules->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);

        rules->setCurrentRow(0);
        rules->addItem(); // after the selected rule
        QCOMPARE(editor.policy()->rules.size(), n + 1);
        QCOMPARE(rules->currentRow(), 1);
        QCOMPARE(editor.policy()->rules.at(1).name, u"new-rule"_s);
        QCOMPARE(jsonPolicy(editor).rules.at(1).name, u"new-rule"_s);
        QCOMPARE(rules->itemEditor()->row(), 1);

        rules->moveItem(-1);
        QCOMPARE(rules->currentRow(), 0);
        QCOMPARE(jsonPolicy(editor).rules.at(0).name, u"new-rule"_s);
        QCOMPARE(jsonPolicy(editor).rules.at(1), preset.rules.at(0));
        rules->moveItem(-1); // already first: nothing
        QCOMPARE(rules->currentRow(), 0);
        rules->moveItem(1);
        QCOMPARE(jsonPolicy(editor).rules.at(1).name, u"new-rule"_s);

        // The editor follows the selection: a name typed goes to the selected rule.
        auto* ruleEditor = qobject_cast<RuleEditor*>(rules->itemEditor());
        retype(ruleEditor->nameEdit(), u"mine"_s);
        QCOMPARE(jsonPolicy(editor).rules.at(1).name, u"mine"_s);

        rules->duplicateItem();
        QCOMPARE(rules->currentRow(), 2);
        QCOMPARE(jsonPolicy(editor).rules.at(2), jsonPolicy(editor).rules.at(1));
        rules->removeItem();
        QCOMPARE(rules->currentRow(), 2);
        rules->setCurrentRow(1);
        rules->removeItem();
        QVERIFY(*editor.policy() == preset);
        QCOMPARE(editor.form()->changedFieldCount(), 0);

        // The last rule can be moved up and removed, and so can every rule.
        rules->setCurrentRow(int(n) - 1);
        rules->moveItem(-1);
        QCOMPARE(editor.policy()->rules.at(n - 2), preset.rules.at(n - 1));
        QVERIFY(editor.form()->changedFieldCount() == 1);
        while (rules->currentRow() >= 0)
            rules->removeItem();
        QVERIFY(editor.policy()->rules.isEmpty());
        QVERIFY(!rules->itemEditor()->isEnabled());
        rules->addItem();
        QCOMPARE(editor.policy()->rules.size(), 1);
    }

    void listKeysWork()
    {
        PolicyEditor editor;
        editor.show();
        QVERIFY(QTest::qWaitForWindowActive(&editor));
        QVERIFY(editor.loadPreset(u"slen"_s));
        const qsizetype n = editor.policy()->hints.size();
        QVERIFY(n > 0);
        PolicyListSection* hints = editor.form()->hintSection();
        hints->view()->setFocus();
        hints->setCurrentRow(0);
        QTest::keyClick(hints->view(), Qt::Key_Insert);
        QCOMPARE(editor.policy()->hints.size(), n + 1);
        QCOMPARE(hints->currentRow(), 1);
        QTest::keyClick(hints->view(), Qt::Key_Up, Qt::AltModifier);
        QCOMPARE(hints->currentRow(), 0);
        QCOMPARE(editor.policy()->hints.at(0).header, u"Retry-After"_s);
        QTest::keyClick(hints->view(), Qt::Key_Delete);
        QCOMPARE(editor.policy()->hints.size(), n);
        QCOMPARE(editor.form()->changedFieldCount(), 0);
    }

    void jsonEditsReachTheListEditors()
    {
        PolicyEditor editor;
        QVERIFY(editor.loadPreset(u"paymongo"_s));
        PolicyListSection* rules = editor.form()->ruleSection();
        rules->setCurrentRow(1);
        auto* ruleEditor = qobject_cast<RuleEditor*>(rules->itemEditor());
        RetryPolicy edited = *editor.policy();
        edited.rules[1].when.methods = { u"PATCH"_s };
        edited.rules[1].action = RuleAction::Success;
        editor.jsonEdit()->setPlainText(QString::fromUtf8(policyToJsonBytes(edited)));
        QTRY_VERIFY(editor.policy() && *editor.policy() == edited);
        QCOMPARE(rules->currentRow(), 1); // same number of rules: the selection stays
        QVERIFY(ruleEditor->methodBox(u"PATCH"_s)->isChecked());
        QVERIFY(!ruleEditor->methodBox(u"GET"_s)->isChecked());
        QCOMPARE(ruleEditor->actionBox()->currentIndex(), int(RuleAction::Success));
        QVERIFY(rowChanged(rules, 1));
        QCOMPARE(editor.form()->changedFieldCount(), 1);

        edited.hints.clear();
        edited.rules.removeFirst();
        editor.jsonEdit()->setPlainText(QString::fromUtf8(policyToJsonBytes(edited)));
        QTRY_VERIFY(editor.policy() && *editor.policy() == edited);
        QCOMPARE(editor.form()->hintSection()->currentRow(), -1);
        QVERIFY(!editor.form()->hintSection()->itemEditor()->isEnabled());
        QCOMPARE(rules->itemEditor()->row(), rules->currentRow());
        QVERIFY(rules->itemEditor()->showsModelItem());
    }

    // Not a check: with RETRYLAB_SHOT_DIR set, saves the form as a ~34 em wide dock shows it, to look at.
    void screenshotOfTheForm()
    {
        const QString dir = qEnvironmentVariable("RETRYLAB_SHOT_DIR");
        if (dir.isEmpty())
            QSKIP("set RETRYLAB_SHOT_DIR to save screenshots of the policy form");
        PolicyEditor editor;
        QVERIFY(editor.loadPreset(u"paymongo"_s));
        const int em = QFontInfo(editor.font()).pixelSize();
        const int widthEm = qEnvironmentVariableIsSet("RETRYLAB_SHOT_EM") ? qEnvironmentVariableIntValue("RETRYLAB_SHOT_EM") : 34;
        editor.resize(widthEm * em, 62 * em);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        PolicyListSection* rules = editor.form()->ruleSection();
        rules->setCurrentRow(3);
        editor.form()->hintSection()->setCurrentRow(0);
        // One rule with a problem, so the red row and field show too.
        auto* ruleEditor = qobject_cast<RuleEditor*>(rules->itemEditor());
        retype(ruleEditor->statusEdit(), u"500-599, 600"_s);
        QVERIFY(!editor.policy());
        auto* scroll = editor.form()->parentWidget()->parentWidget();
        QVERIFY(scroll);
        QVERIFY(editor.grab().save(dir + u"/policy-form-top.png"_s));
        auto* area = qobject_cast<QAbstractScrollArea*>(scroll);
        QVERIFY(area);
        for (PolicyListSection* section : { editor.form()->hintSection(), rules }) {
            const QPoint at = section->mapTo(editor.form(), QPoint(0, 0));
            area->verticalScrollBar()->setValue(at.y() - 3 * em);
            QCoreApplication::processEvents();
            QVERIFY(editor.grab().save(dir + u"/policy-form-"_s + section->objectName() + u".png"_s));
        }
        editor.form()->resize(editor.form()->width(), editor.form()->sizeHint().height());
        QVERIFY(editor.form()->grab().save(dir + u"/policy-form-whole.png"_s));
        // The lists and their editors fit a dock narrower than 34 em without scrolling sideways.
        QVERIFY(rules->minimumSizeHint().width() <= 28 * em);
        QVERIFY(editor.form()->hintSection()->minimumSizeHint().width() <= 28 * em);
    }

    void delayDistributionSamplesTenThousand()
    {
        const RetryPolicy policy = *PresetCatalog::load(u"aws-standard"_s).policy;
        const DelayDistribution d = DelayDistribution::compute(policy);
        QCOMPARE(d.samples, 10000);
        int total = 0;
        for (int c : d.histogram)
            total += c;
        QCOMPARE(total, 10000);
        QCOMPARE(d.bands.size(), qsizetype(policy.maxRetries()));
        for (const DelayDistribution::Band& b : d.bands) {
            QVERIFY(b.lowMs <= b.meanMs + 1e-9);
            QVERIFY(b.meanMs <= b.highMs + 1e-9);
        }
    }
};

int main(int argc, char** argv)
{
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    TestPolicyEditor test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_policyeditor.moc"
