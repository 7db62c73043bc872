// SPDX-License-Identifier: GPL-3.0-or-later
// The policy editor's pipeline section (issue 28 §4): each pipeline preset shows its strategies in order,
// in the list and in the diagram, and reads back unchanged; a policy without a pipeline stays format 1
// until a strategy is added, which brings the retry along; strategies are added by kind, moved and
// removed, and the JSON tab follows; each kind shows its own fields; a value validatePipeline() refuses
// (an attempt timeout above the total) shows its problem at the row and the field, with its path.
#include "layoutcheck.h"

#include "editors/pipelinediagram.h"
#include "editors/policyeditor.h"
#include "editors/policyform.h"
#include "editors/policylists/policylistmodel.h"
#include "editors/policylists/policylistsection.h"
#include "editors/policylists/strategyeditor.h"
#include "editors/policylists/strategylistmodel.h"

#include "policy/policyjson.h"
#include "policy/presetcatalog.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QListView>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QTest>

using namespace Qt::StringLiterals;
using Kind = ResilienceStrategy::Kind;

namespace {

QList<Kind> kinds(const QList<ResilienceStrategy>& pipeline)
{
    QList<Kind> out;
    for (const ResilienceStrategy& s : pipeline)
        out << s.kind;
    return out;
}

RetryPolicy jsonPolicy(const PolicyEditor& editor)
{
    const PolicyParseResult parsed = policyFromJsonBytes(editor.jsonEdit()->toPlainText().toUtf8());
    if (!parsed.ok())
        qWarning() << "the JSON tab does not hold a usable policy:" << parsed.problems.value(0).message;
    return parsed.policy.value_or(RetryPolicy {});
}

QStringList rowProblems(PolicyListSection* section, int row)
{
    return section->model()->data(section->model()->index(row), PolicyListModel::ProblemsRole).toStringList();
}

int rowOf(const RetryPolicy& policy, Kind kind)
{
    for (qsizetype i = 0; i < policy.pipeline.size(); ++i) {
        if (policy.pipeline.at(i).kind == kind)
            return int(i);
    }
    return -1;
}

} // namespace

class TestPipelineEditor : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void pipelinePresets_data()
    {
        QTest::addColumn<QString>("name");
        // The presets of policy-format.md's pipeline section, each citing its library.
        for (const char* name : { "ms-http-standard", "ms-http-hedging", "cockatiel-3", "opossum-9", "polly-circuit-breaker",
                 "resilience4j-circuit-breaker", "grpc-hedging", "envoy-hedge" })
            QTest::addRow("%s", name) << QString::fromLatin1(name);
    }
    void presetShowsItsStrategiesInOrder_data() { pipelinePresets_data(); }
    void presetShowsItsStrategiesInOrder()
    {
        QFETCH(QString, name);
        const PolicyParseResult preset = PresetCatalog::load(name);
        QVERIFY(preset.ok());
        QVERIFY(!preset.policy->pipeline.isEmpty());
        PolicyEditor editor;
        QVERIFY(editor.loadPreset(name));
        PolicyListSection* section = editor.form()->pipelineSection();
        auto* model = qobject_cast<StrategyListModel*>(section->model());
        QVERIFY(model);
        QCOMPARE(model->rowCount(), preset.policy->pipeline.size());
        QCOMPARE(kinds(model->items()), kinds(preset.policy->pipeline));
        QStringList shown;
        for (int row = 0; row < model->rowCount(); ++row)
            shown << model->data(model->index(row)).toString();
        QCOMPARE(editor.form()->pipelineDiagram()->labels(), PolicyForm::pipelineLabels(*preset.policy));
        QCOMPARE(editor.form()->pipelineDiagram()->labels().size(), shown.size());

        // Showing each strategy in its editor changes nothing; its title names its kind.
        auto* strategyEditor = qobject_cast<StrategyEditor*>(section->itemEditor());
        QVERIFY(strategyEditor);
        for (int row = 0; row < model->rowCount(); ++row) {
            section->setCurrentRow(row);
            QCOMPARE(strategyEditor->row(), row);
            QVERIFY(strategyEditor->showsModelItem());
            QCOMPARE(editor.form()->pipelineDiagram()->selected(), row);
        }
        QVERIFY(editor.policy());
        QVERIFY(*editor.policy() == *preset.policy);
        QCOMPARE(editor.form()->changedFieldCount(), 0);
        QVERIFY(jsonPolicy(editor) == *preset.policy);
    }

    void withoutAPipelineStaysFormatOne()
    {
        PolicyEditor editor;
        QVERIFY(editor.loadPreset(u"curl-7.88"_s));
        QVERIFY(editor.policy());
        QVERIFY(editor.policy()->pipeline.isEmpty());
        QCOMPARE(editor.policy()->formatVersion(), 1);
        QVERIFY(!editor.jsonEdit()->toPlainText().contains(u"\"pipeline\""_s));
        QCOMPARE(editor.form()->pipelineSection()->model()->rowCount(), 0);
        // The diagram draws what the policy is: one retry around the attempt.
        QCOMPARE(editor.form()->pipelineDiagram()->labels().size(), 1);
        QVERIFY(editor.form()->pipelineDiagram()->labels().first().startsWith(u"retry · 7 retries"_s));
    }

    void strategiesAreAddedMovedAndRemoved()
    {
        PolicyEditor editor;
        QVERIFY(editor.loadPreset(u"curl-7.88"_s));
        PolicyListSection* section = editor.form()->pipelineSection();
        QVERIFY(section->addMenu());
        QCOMPARE(section->addMenu()->actions().size(), strategyKindNames().size());

        // The first one brings the retry: the breaker goes inside it.
        section->addMenu()->actions().at(int(Kind::CircuitBreaker))->trigger();
        QCOMPARE(kinds(editor.policy()->pipeline), (QList<Kind> { Kind::Retry, Kind::CircuitBreaker }));
        QCOMPARE(section->currentRow(), 1);
        QCOMPARE(section->itemEditor()->row(), 1);
        QCOMPARE(editor.policy()->formatVersion(), 2);
        QVERIFY(jsonPolicy(editor) == *editor.policy());
        QVERIFY(editor.form()->changedFieldCount() >= 1);

        // After the selected one: the attempt timeout inside the breaker.
        section->addChoice(int(Kind::AttemptTimeout));
        QCOMPARE(kinds(editor.policy()->pipeline), (QList<Kind> { Kind::Retry, Kind::CircuitBreaker, Kind::AttemptTimeout }));
        QCOMPARE(section->currentRow(), 2);
        QCOMPARE(editor.policy()->pipeline.at(2).timeout, Millis { 10000 });
        // Up: outside the breaker.
        section->moveItem(-1);
        QCOMPARE(kinds(jsonPolicy(editor).pipeline), (QList<Kind> { Kind::Retry, Kind::AttemptTimeout, Kind::CircuitBreaker }));
        QCOMPARE(section->currentRow(), 1);
        QCOMPARE(editor.form()->pipelineDiagram()->selected(), 1);
        section->moveItem(1);
        QCOMPARE(kinds(jsonPolicy(editor).pipeline), (QList<Kind> { Kind::Retry, Kind::CircuitBreaker, Kind::AttemptTimeout }));
        // A total timeout, then to the top.
        section->setCurrentRow(2);
        section->addChoice(int(Kind::TotalTimeout));
        for (int i = 0; i < 3; ++i)
            section->moveItem(-1);
        QCOMPARE(kinds(jsonPolicy(editor).pipeline),
            (QList<Kind> { Kind::TotalTimeout, Kind::Retry, Kind::CircuitBreaker, Kind::AttemptTimeout }));
        QVERIFY(editor.policy());
        QVERIFY(jsonPolicy(editor) == *editor.policy());
        QCOMPARE(editor.form()->pipelineDiagram()->labels().size(), 4);

        // Removed one by one, down to no pipeline: the format-1 policy as loaded.
        while (section->model()->rowCount() > 0) {
            section->setCurrentRow(0);
            section->removeItem();
        }
        QVERIFY(editor.policy());
        QVERIFY(editor.policy()->pipeline.isEmpty());
        QVERIFY(*editor.policy() == *PresetCatalog::load(u"curl-7.88"_s).policy);
        QVERIFY(!editor.jsonEdit()->toPlainText().contains(u"\"pipeline\""_s));
        QCOMPARE(editor.form()->changedFieldCount(), 0);
    }

    void eachKindShowsItsFields_data()
    {
        QTest::addColumn<Kind>("kind");
        QTest::addColumn<QStringList>("shown");
        QTest::addColumn<QStringList>("hidden");
        QTest::addRow("total timeout") << Kind::TotalTimeout << QStringList { u"timeout_ms"_s }
                                       << QStringList { u"window"_s, u"max_hedges"_s, u"permits"_s, u"failures"_s };
        QTest::addRow("retry: the policy's own") << Kind::Retry << QStringList {}
                                                 << QStringList { u"timeout_ms"_s, u"window"_s, u"permits"_s };
        QTest::addRow("breaker, time window (Polly's defaults)")
            << Kind::CircuitBreaker
            << QStringList { u"window"_s, u"sampling_ms"_s, u"buckets"_s, u"failure_ratio"_s, u"comparator"_s,
                   u"minimum_calls"_s, u"break_ms"_s, u"break_growth"_s, u"half_open_probes"_s, u"half_open_callers"_s,
                   u"transition"_s, u"scope"_s, u"slow_call_ms"_s, u"failures"_s }
            << QStringList { u"consecutive_failures"_s, u"window_calls"_s, u"timeout_ms"_s, u"max_hedges"_s };
        QTest::addRow("hedging") << Kind::Hedging
                                 << QStringList { u"max_hedges"_s, u"delay_ms"_s, u"hedge_unsafe"_s, u"failures"_s }
                                 << QStringList { u"timeout_ms"_s, u"window"_s, u"permits"_s };
        QTest::addRow("bulkhead") << Kind::Bulkhead << QStringList { u"permits"_s, u"queue"_s }
                                  << QStringList { u"timeout_ms"_s, u"failures"_s };
    }
    void eachKindShowsItsFields()
    {
        QFETCH(Kind, kind);
        QFETCH(QStringList, shown);
        QFETCH(QStringList, hidden);
        PolicyEditor editor;
        // As narrow as the policy dock gets at 1280×720 (about 30 em).
        editor.resize(30 * editor.fontMetrics().height() * 4 / 5, 700);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        QVERIFY(editor.loadPreset(u"curl-7.88"_s));
        PolicyListSection* section = editor.form()->pipelineSection();
        section->addChoice(int(kind));
        auto* strategyEditor = qobject_cast<StrategyEditor*>(section->itemEditor());
        QCOMPARE(editor.form()->policy().pipeline.at(section->currentRow()).kind, kind); // hedging: not yet valid (hedge_unsafe)
        QCoreApplication::processEvents();
        for (const QString& path : std::as_const(shown)) {
            QVERIFY2(strategyEditor->isShown(path), qPrintable(path));
            // The row itself, not only the rule: its label is not hidden.
            QVERIFY2(!strategyEditor->field(path)->label->isHidden(), qPrintable(path));
        }
        for (const QString& path : std::as_const(hidden)) {
            QVERIFY2(!strategyEditor->isShown(path), qPrintable(path));
            QVERIFY2(strategyEditor->field(path)->label->isHidden(), qPrintable(path));
        }
        // Laid out whole: no row squeezed, none over another.
        QTest::qWait(50);
        for (const QString& path : std::as_const(shown))
            QVERIFY2(strategyEditor->field(path)->label->height() >= strategyEditor->fontMetrics().height() - 2, qPrintable(path));
        const QStringList problems = LayoutCheck::problems(section);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
        // It fits a dock narrower than 34 em without scrolling sideways, as the rule and hint lists do.
        const int em = QFontInfo(editor.font()).pixelSize();
        QVERIFY2(section->minimumSizeHint().width() <= 28 * em,
            qPrintable(u"%1 px, 28 em = %2 px"_s.arg(section->minimumSizeHint().width()).arg(28 * em)));
    }

    void breakerEditsReachTheJson()
    {
        PolicyEditor editor;
        QVERIFY(editor.loadPreset(u"ms-http-standard"_s));
        PolicyListSection* section = editor.form()->pipelineSection();
        const int row = rowOf(*editor.policy(), Kind::CircuitBreaker);
        section->setCurrentRow(row);
        auto* strategyEditor = qobject_cast<StrategyEditor*>(section->itemEditor());
        auto* window = qobject_cast<QComboBox*>(strategyEditor->input(u"window"_s));
        QVERIFY(window);
        window->setCurrentIndex(int(CircuitBreakerOptions::Window::Count));
        QVERIFY(strategyEditor->isShown(u"window_calls"_s));
        QVERIFY(!strategyEditor->isShown(u"sampling_ms"_s));
        qobject_cast<QSpinBox*>(strategyEditor->input(u"window_calls"_s))->setValue(20);
        qobject_cast<QComboBox*>(strategyEditor->input(u"half_open_callers"_s))->setCurrentIndex(1);
        qobject_cast<QComboBox*>(strategyEditor->input(u"transition"_s))->setCurrentIndex(1);
        qobject_cast<QComboBox*>(strategyEditor->input(u"scope"_s))->setCurrentIndex(1);
        QVERIFY(editor.policy());
        const CircuitBreakerOptions b = jsonPolicy(editor).pipeline.at(row).breaker; // a copy: the policy is a temporary
        QCOMPARE(b.window, CircuitBreakerOptions::Window::Count);
        QCOMPARE(b.windowCalls, 20);
        QCOMPARE(b.halfOpenCallers, CircuitBreakerOptions::HalfOpenCallers::Wait);
        QCOMPARE(b.transition, CircuitBreakerOptions::Transition::Timer);
        QCOMPARE(b.scope, CircuitBreakerOptions::Scope::Host);
        QVERIFY(editor.jsonEdit()->toPlainText().contains(u"\"window\": \"count\""_s));
        QVERIFY(strategyEditor->field(u"window"_s)->label->font().bold()); // changed from the preset
        QVERIFY(section->model()->data(section->model()->index(row), PolicyListModel::ChangedRole).toBool());
        QVERIFY(editor.form()->pipelineDiagram()->labels().at(row).contains(u"of the last 20 calls"_s));
    }

    void hedgingDelayModes_data()
    {
        QTest::addColumn<int>("delay");
        QTest::addColumn<QString>("summary");
        QTest::addRow("latency: 500 ms") << 500 << u"each after 500 ms"_s;
        QTest::addRow("0: all at once (parallel)") << 0 << u"all at once"_s;
        QTest::addRow("-1: fallback (Polly)") << -1 << u"each after a failure"_s;
    }
    void hedgingDelayModes()
    {
        QFETCH(int, delay);
        QFETCH(QString, summary);
        PolicyEditor editor;
        QVERIFY(editor.loadPreset(u"ms-http-hedging"_s));
        PolicyListSection* section = editor.form()->pipelineSection();
        const int row = rowOf(*editor.policy(), Kind::Hedging);
        section->setCurrentRow(row);
        auto* strategyEditor = qobject_cast<StrategyEditor*>(section->itemEditor());
        auto* spin = qobject_cast<QSpinBox*>(strategyEditor->input(u"delay_ms"_s));
        QVERIFY(spin);
        spin->setValue(delay == 500 ? 499 : 500); // a change either way
        spin->setValue(delay);
        QCOMPARE(jsonPolicy(editor).pipeline.at(row).hedging.delay, Millis { delay });
        QVERIFY(section->model()->data(section->model()->index(row)).toString().endsWith(summary));
    }

    // Microsoft.Extensions.Http.Resilience's validator, through validatePipeline(): an attempt timeout
    // longer than the total is refused; the problem shows at the row and at the field, with its path.
    void attemptTimeoutAboveTheTotalShowsItsProblem()
    {
        PolicyEditor editor;
        QVERIFY(editor.loadPreset(u"ms-http-standard"_s));
        PolicyListSection* section = editor.form()->pipelineSection();
        const int attempt = rowOf(*editor.policy(), Kind::AttemptTimeout);
        QVERIFY(attempt >= 0);
        section->setCurrentRow(attempt);
        auto* strategyEditor = qobject_cast<StrategyEditor*>(section->itemEditor());
        auto* timeout = qobject_cast<QSpinBox*>(strategyEditor->input(u"timeout_ms"_s));
        QVERIFY(timeout);
        timeout->setValue(40000);
        QVERIFY(!editor.policy());
        QVERIFY2(rowProblems(section, attempt).join(u'\n').contains(u"timeout_ms: is 40000 ms, longer than the total timeout"_s),
            qPrintable(rowProblems(section, attempt).join(u'\n')));
        QVERIFY(section->model()->data(section->model()->index(attempt), Qt::ForegroundRole).isValid());
        const PolicyField* field = strategyEditor->field(u"timeout_ms"_s);
        QVERIFY(!field->message->isHidden());
        QVERIFY(field->message->text().contains(u"longer than the total timeout"_s));
        QVERIFY(field->editor->property("policyProblem").toBool());
        // Polly's breaker samples at least twice the attempt timeout: its row says so too.
        const int breaker = rowOf(*PresetCatalog::load(u"ms-http-standard"_s).policy, Kind::CircuitBreaker);
        QVERIFY(rowProblems(section, breaker).join(u'\n').contains(u"sampling_ms"_s));

        timeout->setValue(10000);
        QVERIFY(editor.policy());
        QVERIFY(rowProblems(section, attempt).isEmpty());
        QVERIFY(field->message->isHidden());
        QCOMPARE(editor.form()->changedFieldCount(), 0);
    }

    // A problem of the policy the pipeline causes lands on its own field: no retry strategy, more than one attempt.
    void removingTheRetryShowsAtTheLimit()
    {
        PolicyEditor editor;
        QVERIFY(editor.loadPreset(u"polly-circuit-breaker"_s));
        PolicyListSection* section = editor.form()->pipelineSection();
        section->setCurrentRow(rowOf(*editor.policy(), Kind::Retry));
        section->removeItem();
        QVERIFY(!editor.policy());
        const PolicyField* attempts = nullptr;
        for (const PolicyField& f : editor.form()->fields()) {
            if (f.path == u"limits.max_attempts"_s)
                attempts = &f;
        }
        QVERIFY(attempts);
        QVERIFY(!attempts->message->isHidden());
        QVERIFY(attempts->message->text().contains(u"no retry"_s));
    }

    // The diagram's click selects the strategy in the list and its editor.
    void diagramClickSelects()
    {
        PolicyEditor editor;
        editor.resize(600, 900);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        QVERIFY(editor.loadPreset(u"ms-http-standard"_s));
        PolicyListSection* section = editor.form()->pipelineSection();
        PipelineDiagram* diagram = editor.form()->pipelineDiagram();
        QVERIFY(diagram->width() > 0);
        const QList<QRect> boxes = diagram->boxes();
        QCOMPARE(boxes.size(), 6);
        for (int box : { 3, 0, 4 }) {
            // Just inside the box's label, above the next box.
            QTest::mouseClick(diagram, Qt::LeftButton, {}, boxes.at(box).topLeft() + QPoint(4, 4));
            QCOMPARE(section->currentRow(), box);
            QCOMPARE(section->itemEditor()->row(), box);
            QCOMPARE(diagram->selected(), box);
        }
        // The attempt in the middle is no strategy: the selection stays.
        QTest::mouseClick(diagram, Qt::LeftButton, {}, boxes.last().center());
        QCOMPARE(section->currentRow(), 4);
    }
};

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    TestPipelineEditor test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_pipelineeditor.moc"
