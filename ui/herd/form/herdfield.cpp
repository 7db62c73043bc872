// SPDX-License-Identifier: GPL-3.0-or-later
#include "herd/form/herdfield.h"

#include "editors/policyfield.h"

#include <QLabel>
#include <QWidget>

using namespace Qt::StringLiterals;

namespace {

// "server.queue_timeout_ms" and "server.queue_timeout" name the same field: the unit suffix is dropped from
// every segment before paths are compared.
QString withoutUnits(QString path)
{
    path.replace(u"_ms."_s, u"."_s).replace(u"_ms["_s, u"["_s);
    if (path.endsWith(u"_ms"_s))
        path.chop(3);
    return path;
}

bool under(const QString& problem, const QString& field)
{
    if (field.isEmpty())
        return false;
    const QString path = withoutUnits(problem);
    const QString prefix = withoutUnits(field);
    if (path == prefix)
        return true;
    return path.startsWith(prefix) && path.size() > prefix.size()
        && (path.at(prefix.size()) == u'.' || path.at(prefix.size()) == u'[');
}

} // namespace

bool HerdField::owns(const QString& problemPath) const
{
    if (under(problemPath, path))
        return true;
    for (const QString& alias : aliases) {
        if (under(problemPath, alias))
            return true;
    }
    return false;
}

void HerdField::setProblems(const QStringList& messages)
{
    if (!editor || !message)
        return;
    const bool bad = !messages.isEmpty();
    if (bad != editor->property("herdProblem").toBool()) {
        editor->setProperty("herdProblem", bad);
        if (bad) {
            QPalette palette = editor->palette();
            palette.setColor(QPalette::Base, problemBase(palette));
            editor->setPalette(palette);
        } else {
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
    editor->setToolTip(bad ? messages.join(u'\n') : editor->whatsThis());
}

void HerdField::updateRelevance(const HerdExperiment& experiment)
{
    const bool applies = !relevant || relevant(experiment);
    if (editor)
        editor->setEnabled(applies);
    if (label)
        label->setEnabled(applies);
}
