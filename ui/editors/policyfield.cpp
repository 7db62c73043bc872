// SPDX-License-Identifier: GPL-3.0-or-later
#include "editors/policyfield.h"

#include <QLabel>
#include <QPalette>
#include <QWidget>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

QColor blend(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
        float(a.blueF() * (1 - t) + b.blueF() * t));
}

} // namespace

QColor problemColour(const QPalette& palette)
{
    // A red that reads on the current palette: darker on light themes, lighter on dark ones.
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    return dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xc6, 0x28, 0x28);
}

QColor problemBase(const QPalette& palette)
{
    return blend(palette.color(QPalette::Base), problemColour(palette), 0.25);
}

bool problemPathUnder(const QString& path, const QString& prefix)
{
    if (path == prefix)
        return true;
    return path.startsWith(prefix) && path.size() > prefix.size()
        && (path.at(prefix.size()) == u'.' || path.at(prefix.size()) == u'[');
}

void showFieldProblems(QWidget* editor, QLabel* message, const QStringList& messages, bool tint, const QString& idleTooltip,
    const char* flag)
{
    if (!editor || !message)
        return;
    const bool bad = !messages.isEmpty();
    if (bad != editor->property(flag).toBool()) {
        editor->setProperty(flag, bad);
        if (tint && bad) {
            QPalette palette = editor->palette();
            palette.setColor(QPalette::Base, problemBase(palette));
            editor->setPalette(palette);
        } else if (tint) {
            editor->setPalette(QPalette());
        }
    }
    if (bad) {
        QPalette palette = message->palette();
        palette.setColor(QPalette::WindowText, problemColour(palette));
        message->setPalette(palette);
        message->setText(messages.join(u'\n'));
    }
    message->setVisible(bad);
    if (tint)
        editor->setToolTip(bad ? messages.join(u'\n') : idleTooltip);
}

bool PolicyField::owns(const QString& problemPath) const
{
    if (problemPathUnder(problemPath, path))
        return true;
    return std::any_of(aliases.cbegin(), aliases.cend(), [&](const QString& alias) { return problemPathUnder(problemPath, alias); });
}

void PolicyField::setProblems(const QStringList& messages)
{
    showFieldProblems(editor, message, messages, tintEditor, QString(), "policyProblem");
}

void PolicyField::setChanged(bool changed)
{
    if (!label)
        return;
    QFont font = label->font();
    if (font.bold() == changed)
        return;
    font.setBold(changed);
    label->setFont(font);
    label->setText(changed ? labelText + u" •"_s : labelText);
    label->setToolTip(changed ? QObject::tr("Changed from the preset") : QString());
}
