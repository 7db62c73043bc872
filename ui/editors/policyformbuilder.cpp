// SPDX-License-Identifier: GPL-3.0-or-later
#include "editors/policyformbuilder.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

PolicyFormBuilder::PolicyFormBuilder(QWidget* parent, QVBoxLayout* sections, QList<PolicyField>* fields)
    : m_parent(parent)
    , m_sections(sections)
    , m_fields(fields)
{
}

QGroupBox* PolicyFormBuilder::section(const QString& title, const QString& help)
{
    auto* group = new QGroupBox(title, m_parent);
    group->setToolTip(help);
    m_form = new QFormLayout(group);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_sections->addWidget(group);
    return group;
}

PolicyField& PolicyFormBuilder::row(const QString& path, const QString& label, QWidget* editor, const QString& help)
{
    auto [f, cell] = makeField(path, label, editor, help);
    m_form->addRow(f.label, cell);
    m_fields->append(f);
    return m_fields->last();
}

PolicyField& PolicyFormBuilder::wideRow(const QString& path, const QString& label, QWidget* editor, const QString& help)
{
    auto [f, cell] = makeField(path, label, editor, help);
    m_form->addRow(f.label);
    m_form->addRow(cell);
    m_fields->append(f);
    return m_fields->last();
}

std::pair<PolicyField, QWidget*> PolicyFormBuilder::makeField(
    const QString& path, const QString& label, QWidget* editor, const QString& help)
{
    PolicyField f;
    f.path = path;
    f.labelText = label;
    f.label = new QLabel(label, m_parent);
    f.label->setBuddy(editor);
    f.editor = editor;
    f.editor->setObjectName(path);
    f.editor->setWhatsThis(help);
    f.editor->setAccessibleName(label);
    f.label->setStatusTip(help.isEmpty() ? path : path + u" — "_s + help);
    f.message = new QLabel(m_parent);
    f.message->setWordWrap(true);
    f.message->hide();
    auto* cell = new QWidget(m_parent);
    auto* box = new QVBoxLayout(cell);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(1);
    box->addWidget(editor);
    box->addWidget(f.message);
    return { f, cell };
}

QSpinBox* PolicyFormBuilder::intSpin(int min, int max, const QString& suffix)
{
    auto* spin = new QSpinBox(m_parent);
    spin->setRange(min, max);
    spin->setSuffix(suffix);
    spin->setGroupSeparatorShown(true);
    spin->setKeyboardTracking(true);
    return spin;
}

QDoubleSpinBox* PolicyFormBuilder::doubleSpin()
{
    auto* spin = new QDoubleSpinBox(m_parent);
    spin->setDecimals(4);
    spin->setRange(-1.0e6, 1.0e6);
    spin->setSingleStep(0.05);
    return spin;
}

QComboBox* PolicyFormBuilder::comboBox(const QStringList& items)
{
    auto* combo = new QComboBox(m_parent);
    combo->addItems(items);
    return combo;
}

QCheckBox* PolicyFormBuilder::checkBox()
{
    return new QCheckBox(m_parent);
}

QLineEdit* PolicyFormBuilder::lineEdit()
{
    return new QLineEdit(m_parent);
}

QString PolicyFormBuilder::noneText()
{
    return QObject::tr("none");
}

QStringList PolicyFormBuilder::splitWords(const QString& text)
{
    QStringList out;
    const QStringList parts = text.split(u',', Qt::SkipEmptyParts);
    for (const QString& part : parts) {
        const QString word = part.trimmed();
        if (!word.isEmpty())
            out << word;
    }
    return out;
}
