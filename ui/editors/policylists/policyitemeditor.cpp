// SPDX-License-Identifier: GPL-3.0-or-later
#include "editors/policylists/policyitemeditor.h"

#include <QGroupBox>

using namespace Qt::StringLiterals;

PolicyItemEditor::PolicyItemEditor(QWidget* parent)
    : QWidget(parent)
{
}

void PolicyItemEditor::showProblems(const QList<PolicyProblem>& problems)
{
    for (PolicyField& f : m_fields) {
        QStringList messages;
        for (const PolicyProblem& p : problems) {
            if (f.owns(p.path))
                messages << (p.path == f.path ? p.message : p.path.mid(p.path.indexOf(u'.') + 1) + u": "_s + p.message);
        }
        f.setProblems(messages);
    }
}

const PolicyField* PolicyItemEditor::field(const QString& path) const
{
    for (const PolicyField& f : m_fields) {
        if (f.path == path)
            return &f;
    }
    return nullptr;
}

bool PolicyItemEditor::setInputProblem(const QString& path, const QString& message)
{
    for (qsizetype i = 0; i < m_inputProblems.size(); ++i) {
        if (m_inputProblems.at(i).path != path)
            continue;
        if (m_inputProblems.at(i).message == message)
            return false;
        if (message.isEmpty())
            m_inputProblems.remove(i);
        else
            m_inputProblems[i].message = message;
        return true;
    }
    if (message.isEmpty())
        return false;
    m_inputProblems << PolicyProblem { path, message };
    return true;
}

void PolicyItemEditor::setTitle(const QString& title)
{
    if (m_group)
        m_group->setTitle(title);
}
