// SPDX-License-Identifier: GPL-3.0-or-later
#include "herd/form/herdpolicylist.h"

#include "herd/charts/herdpolicycolor.h"

#include "policy/presetcatalog.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QListWidget>
#include <QMenu>
#include <QPainter>
#include <QPixmap>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {

QIcon swatch(const QColor& color, int size)
{
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawRoundedRect(QRectF(1, size * 0.3, size - 2, size * 0.4), 2, 2);
    return QIcon(pixmap);
}

} // namespace

HerdPolicyList::HerdPolicyList(QWidget* parent)
    : QWidget(parent)
    , m_list(new QListWidget(this))
    , m_addPreset(new QToolButton(this))
    , m_addEditor(new QToolButton(this))
    , m_remove(new QToolButton(this))
{
    m_list->setObjectName(u"herdPolicies"_s);
    m_list->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked);
    m_list->setToolTip(tr("The policies the clients run, one experiment each; double-click a label to rename it"));
    m_list->setUniformItemSizes(true);

    m_addPreset->setText(tr("Add Preset"));
    m_addPreset->setToolTip(tr("Add a built-in policy"));
    m_addPreset->setPopupMode(QToolButton::InstantPopup);
    auto* presets = new QMenu(m_addPreset);
    for (const PresetInfo& info : PresetCatalog::list()) {
        QAction* action = presets->addAction(info.name, this, [this, name = info.name] { addPreset(name); });
        action->setToolTip(PresetCatalog::summaryOf(info.description));
    }
    presets->setToolTipsVisible(true);
    m_addPreset->setMenu(presets);
    m_addEditor->setText(tr("Add Edited"));
    m_addEditor->setToolTip(tr("Add the policy the policy editor shows"));
    m_remove->setText(tr("Remove"));
    m_remove->setToolTip(tr("Remove the selected policy"));
    connect(m_addEditor, &QToolButton::clicked, this, &HerdPolicyList::addEditorPolicy);
    connect(m_remove, &QToolButton::clicked, this, [this] { remove(m_list->currentRow()); });
    connect(m_list, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) { onLabelEdited(m_list->row(item)); });
    connect(m_list, &QListWidget::currentRowChanged, this, &HerdPolicyList::updateButtons);

    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->addWidget(m_addPreset);
    buttons->addWidget(m_addEditor);
    buttons->addStretch(1);
    buttons->addWidget(m_remove);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_list);
    layout->addLayout(buttons);
    updateButtons();
}

void HerdPolicyList::setEditorPolicy(std::function<std::optional<RetryPolicy>()> provider)
{
    m_editorPolicy = std::move(provider);
    updateButtons();
}

void HerdPolicyList::setPolicies(const QList<HerdPolicy>& policies)
{
    m_policies = policies; // a built-in experiment may hold more than the four one can add (aws-2015 has five)
    rebuild();
    emit changed();
}

QString HerdPolicyList::uniqueLabel(const QString& wanted, int except) const
{
    const QString base = wanted.trimmed().isEmpty() ? tr("policy") : wanted.trimmed();
    const auto taken = [this, except](const QString& label) {
        for (int i = 0; i < m_policies.size(); ++i) {
            if (i != except && m_policies.at(i).label == label)
                return true;
        }
        return false;
    };
    QString label = base;
    for (int n = 2; taken(label); ++n)
        label = u"%1 (%2)"_s.arg(base).arg(n);
    return label;
}

bool HerdPolicyList::add(HerdPolicy policy)
{
    if (m_policies.size() >= kMaxPolicies)
        return false;
    policy.label = uniqueLabel(policy.label, -1);
    m_policies.append(policy);
    rebuild();
    m_list->setCurrentRow(int(m_policies.size()) - 1);
    emit changed();
    return true;
}

bool HerdPolicyList::addPreset(const QString& name)
{
    const PolicyParseResult loaded = PresetCatalog::load(name);
    if (!loaded.ok())
        return false;
    return add(HerdPolicy { name, *loaded.policy });
}

bool HerdPolicyList::addEditorPolicy()
{
    const std::optional<RetryPolicy> policy = m_editorPolicy ? m_editorPolicy() : std::nullopt;
    if (!policy) {
        emit problem(tr("The policy editor's policy has problems: fix the fields in red first."));
        return false;
    }
    return add(HerdPolicy { policy->name.isEmpty() ? tr("edited") : tr("%1 (edited)").arg(policy->name), *policy });
}

int HerdPolicyList::put(const HerdPolicy& policy)
{
    int row = -1;
    for (int i = 0; i < m_policies.size(); ++i) {
        if (m_policies.at(i).label == policy.label)
            row = i;
    }
    if (row < 0 && m_policies.size() < kMaxPolicies) {
        m_policies.append(policy);
        row = int(m_policies.size()) - 1;
    } else {
        if (row < 0)
            row = int(m_policies.size()) - 1;
        m_policies[row] = policy;
        m_policies[row].label = uniqueLabel(policy.label, row);
    }
    rebuild();
    m_list->setCurrentRow(row);
    emit changed();
    return row;
}

void HerdPolicyList::remove(int row)
{
    if (row < 0 || row >= m_policies.size())
        return;
    m_policies.removeAt(row);
    rebuild();
    m_list->setCurrentRow(std::min(row, int(m_policies.size()) - 1));
    emit changed();
}

void HerdPolicyList::onLabelEdited(int row)
{
    if (m_rebuilding || row < 0 || row >= m_policies.size())
        return;
    const QString label = uniqueLabel(m_list->item(row)->text(), row);
    m_policies[row].label = label;
    if (m_list->item(row)->text() != label) { // empty, or another row's: say what it became
        const QSignalBlocker block(m_list);
        m_list->item(row)->setText(label);
    }
    emit changed();
}

void HerdPolicyList::rebuild()
{
    m_rebuilding = true;
    m_list->clear();
    const bool dark = palette().color(QPalette::Base).lightnessF() < 0.5;
    const int icon = fontMetrics().height();
    for (int i = 0; i < m_policies.size(); ++i) {
        const HerdPolicy& p = m_policies.at(i);
        auto* item = new QListWidgetItem(swatch(herdPolicyColor(i, dark), icon), p.label, m_list);
        item->setFlags(item->flags() | Qt::ItemIsEditable);
        item->setToolTip(p.policy.name.isEmpty() ? tr("An edited policy")
                                                 : tr("Policy %1 — %2").arg(p.policy.name, PresetCatalog::summaryOf(p.policy.description)));
    }
    // Four rows, or as many as there are: the list never scrolls.
    const int rowHeight = std::max(m_list->sizeHintForRow(0), fontMetrics().height() + 6);
    m_list->setFixedHeight(rowHeight * std::max<int>(kMaxPolicies, int(m_policies.size())) + 2 * m_list->frameWidth() + 4);
    m_rebuilding = false;
    updateButtons();
}

void HerdPolicyList::updateButtons()
{
    const bool room = m_policies.size() < kMaxPolicies;
    m_addPreset->setEnabled(room);
    m_addEditor->setEnabled(room && m_editorPolicy);
    m_addEditor->setVisible(bool(m_editorPolicy));
    // The experiment needs a policy: the last one stays.
    m_remove->setEnabled(m_list->currentRow() >= 0 && m_policies.size() > 1);
}

void HerdPolicyList::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        rebuild();
}
