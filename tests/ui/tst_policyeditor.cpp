// SPDX-License-Identifier: GPL-3.0-or-later
// The policy form round-trips every preset; validation problems turn the right field red; edits are
// marked as changed from the preset; the JSON tab and the form stay in sync; the decision table model
// passes QAbstractItemModelTester for every preset.
#include "editors/policyeditor.h"
#include "editors/policyform.h"
#include "previews/decisiontablemodel.h"
#include "previews/delaydistribution.h"

#include "policy/decisiontable.h"
#include "policy/policyjson.h"
#include "policy/presetcatalog.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QStandardPaths>
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
