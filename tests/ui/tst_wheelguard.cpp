// SPDX-License-Identifier: GPL-3.0-or-later
// Spin boxes and combo boxes take the wheel only when focused (issue 15 item 3: scrolling the policy form
// turned Attempt timeout 65 000 into 64 985 ms). Without focus the wheel event is left unaccepted, which is
// what makes QApplication hand a (spontaneous) wheel event on to the scroll area around them.
#include "editors/policyeditor.h"
#include "editors/policyform.h"
#include "shell/wheelguard.h"

#include <QApplication>
#include <QComboBox>
#include <QScrollArea>
#include <QSpinBox>
#include <QTest>
#include <QVBoxLayout>
#include <QWheelEvent>

namespace {

// True when the event was accepted (used by the widget).
bool wheel(QWidget* target, int steps)
{
    const QPointF at(target->width() / 2.0, target->height() / 2.0);
    QWheelEvent e(at, target->mapToGlobal(at), QPoint(), QPoint(0, 120 * steps), Qt::NoButton, Qt::NoModifier,
        Qt::NoScrollPhase, false);
    QApplication::sendEvent(target, &e);
    return e.isAccepted();
}

} // namespace

class TestWheelGuard : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { WheelGuard::install(qApp); }

    void unfocusedFieldsLetTheFormScroll()
    {
        QScrollArea area;
        auto* form = new QWidget;
        auto* column = new QVBoxLayout(form);
        auto* other = new QSpinBox; // has the focus
        column->addWidget(other);
        auto* spin = new QSpinBox;
        spin->setRange(0, 100000);
        spin->setValue(65000);
        auto* combo = new QComboBox;
        combo->addItems({ QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c") });
        column->addWidget(spin);
        column->addWidget(combo);
        column->addSpacing(3000); // taller than the area: it scrolls
        area.setWidget(form);
        area.setWidgetResizable(true);
        area.resize(300, 200);
        area.show();
        QVERIFY(QTest::qWaitForWindowExposed(&area));
        QCOMPARE(spin->focusPolicy(), Qt::StrongFocus);
        QCOMPARE(combo->focusPolicy(), Qt::StrongFocus);
        other->setFocus();
        QTRY_VERIFY(other->hasFocus());

        QVERIFY2(!wheel(spin, -1), "left for the scroll area");
        QVERIFY(!wheel(combo, -1));
        QCOMPARE(spin->value(), 65000);
        QCOMPARE(combo->currentIndex(), 0);
        QVERIFY(!spin->hasFocus());

        spin->setFocus();
        QTRY_VERIFY(spin->hasFocus());
        QVERIFY(wheel(spin, 1));
        QCOMPARE(spin->value(), 65001);
    }

    void thePolicyFormIsGuarded()
    {
        PolicyEditor editor;
        editor.resize(400, 400);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setFocus();
        const RetryPolicy before = *editor.policy();
        for (QAbstractSpinBox* s : editor.form()->findChildren<QAbstractSpinBox*>()) {
            if (s->isVisible())
                wheel(s, -3);
        }
        for (QComboBox* c : editor.form()->findChildren<QComboBox*>()) {
            if (c->isVisible())
                wheel(c, -3);
        }
        QVERIFY(editor.policy());
        QCOMPARE(*editor.policy(), before);
    }
};

QTEST_MAIN(TestWheelGuard)
#include "tst_wheelguard.moc"
