// SPDX-License-Identifier: GPL-3.0-or-later
// The pipeline diagram's geometry (issue 28 §4): each strategy's box lies strictly inside the one before
// it, the attempt innermost, and the widget is as tall as its boxes need, for the deepest preset
// (ms-http-standard: five strategies) and every other pipeline preset, in the policy editor at the
// window sizes the window is checked at (1280×720, 1600×1000) and in docks down to a narrow one.
#include "editors/pipelinediagram.h"
#include "editors/policyeditor.h"
#include "editors/policyform.h"

#include "policy/presetcatalog.h"

#include <QApplication>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

// Every problem with BOXES: one not strictly inside the one before it.
QStringList nestingProblems(const QList<QRect>& boxes)
{
    QStringList out;
    for (qsizetype i = 1; i < boxes.size(); ++i) {
        const QRect& outer = boxes.at(i - 1);
        const QRect& inner = boxes.at(i);
        if (!(inner.left() > outer.left() && inner.top() > outer.top() && inner.right() < outer.right()
                && inner.bottom() < outer.bottom()))
            out << u"box %1 (%2,%3 %4×%5) is not strictly inside box %6 (%7,%8 %9×%10)"_s.arg(i)
                       .arg(inner.x()).arg(inner.y()).arg(inner.width()).arg(inner.height())
                       .arg(i - 1)
                       .arg(outer.x()).arg(outer.y()).arg(outer.width()).arg(outer.height());
    }
    return out;
}

} // namespace

class TestPipelineDiagram : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void boxesNestInTheEditor_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QSize>("size");
        const QList<std::pair<const char*, QSize>> sizes { { "1280x720", QSize(1280, 720) }, { "1600x1000", QSize(1600, 1000) },
            { "34 em dock", QSize(34 * 16, 720) }, { "narrow dock", QSize(300, 720) } };
        for (const QString& name : PresetCatalog::names()) {
            if (PresetCatalog::load(name).policy->pipeline.isEmpty())
                continue;
            for (const auto& [label, size] : sizes)
                QTest::addRow("%s at %s", qPrintable(name), label) << name << size;
        }
    }
    void boxesNestInTheEditor()
    {
        QFETCH(QString, name);
        QFETCH(QSize, size);
        PolicyEditor editor;
        QVERIFY(editor.loadPreset(name));
        editor.resize(size);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        QCoreApplication::processEvents();
        PipelineDiagram* diagram = editor.form()->pipelineDiagram();
        const int strategies = int(PresetCatalog::load(name).policy->pipeline.size());
        QCOMPARE(diagram->labels().size(), strategies);
        const QList<QRect> boxes = diagram->boxes();
        QCOMPARE(boxes.size(), strategies + 1);
        const QStringList problems = nestingProblems(boxes);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
        // Nothing cut off: the widget holds the outermost box, which holds every label at this width.
        QVERIFY2(diagram->rect().contains(boxes.first()),
            qPrintable(u"%1×%2 for a box of %3×%4"_s.arg(diagram->width()).arg(diagram->height())
                           .arg(boxes.first().width()).arg(boxes.first().height())));
        QVERIFY(boxes.last().width() >= diagram->fontMetrics().averageCharWidth() * 10);
    }

    // The geometry alone, at widths from a narrow dock to a wide window, deepest first.
    void boxesNestAtAnyWidth_data()
    {
        QTest::addColumn<int>("width");
        for (int width : { 160, 240, 320, 480, 800, 1280, 1600 })
            QTest::addRow("%d px", width) << width;
    }
    void boxesNestAtAnyWidth()
    {
        QFETCH(int, width);
        const RetryPolicy policy = *PresetCatalog::load(u"ms-http-standard"_s).policy;
        PipelineDiagram diagram;
        diagram.setBoxes(PolicyForm::pipelineLabels(policy), u"the attempt"_s);
        QCOMPARE(diagram.labels().size(), 5);
        const QList<QRect> boxes = diagram.boxesAt(width);
        const QStringList problems = nestingProblems(boxes);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
        QCOMPARE(diagram.heightForWidth(width), boxes.first().bottom() + 2);
        // Narrower means taller, never cut: every label's wrapped text fits above the next box.
        const QFontMetrics fm = diagram.fontMetrics();
        for (int i = 0; i + 1 < boxes.size(); ++i)
            QVERIFY(boxes.at(i + 1).top() - boxes.at(i).top() >= fm.height());
    }

    void clickSelectsTheDeepestBox()
    {
        PipelineDiagram diagram;
        diagram.setBoxes({ u"outer"_s, u"middle"_s, u"inner"_s }, u"attempt"_s);
        diagram.resize(400, diagram.heightForWidth(400));
        const QList<QRect> boxes = diagram.boxes();
        QCOMPARE(diagram.boxAt(boxes.at(1).topLeft() + QPoint(2, 2)), 1);
        QCOMPARE(diagram.boxAt(boxes.at(2).topLeft() + QPoint(2, 2)), 2);
        QCOMPARE(diagram.boxAt(boxes.at(0).bottomRight() - QPoint(1, 1)), 0); // below the boxes inside it
        QCOMPARE(diagram.boxAt(boxes.at(3).center()), -1);
        QCOMPARE(diagram.boxAt(QPoint(-5, -5)), -1);
        diagram.setSelected(7); // no such box
        QCOMPARE(diagram.selected(), -1);
        diagram.setBoxes({}, u"attempt"_s); // empty: just the attempt
        QCOMPARE(diagram.boxesAt(200).size(), 1);
    }
};

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    TestPipelineDiagram test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_pipelinediagram.moc"
