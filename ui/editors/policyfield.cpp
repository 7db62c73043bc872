// SPDX-License-Identifier: GPL-3.0-or-later
#include "editors/policyfield.h"

#include <QLabel>
#include <QPalette>
#include <QWidget>

using namespace Qt::StringLiterals;

namespace {

bool under(const QString& path, const QString& prefix)
{
    if (path == prefix)
        return true;
    return path.startsWith(prefix) && path.size() > prefix.size()
        && (path.at(prefix.size()) == u'.' || path.at(prefix.size()) == u'[');
}

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

bool PolicyField::owns(const QString& problemPath) const
{
    if (under(problemPath, path))
        return true;
    for (const QString& alias : aliases) {
        if (under(problemPath, alias))
            return true;
    }
    return false;
}

void PolicyField::setProblems(const QStringList& messages)
{
    if (!editor || !message)
        return;
    const bool bad = !messages.isEmpty();
    const bool wasBad = editor->property("policyProblem").toBool();
    if (bad != wasBad) {
        editor->setProperty("policyProblem", bad);
        if (tintEditor && bad) {
            QPalette palette = editor->palette();
            palette.setColor(QPalette::Base, problemBase(palette));
            editor->setPalette(palette);
        } else if (tintEditor) {
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
    if (tintEditor)
        editor->setToolTip(bad ? messages.join(u'\n') : QString());
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
