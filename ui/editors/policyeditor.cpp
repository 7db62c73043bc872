// SPDX-License-Identifier: GPL-3.0-or-later
#include "editors/policyeditor.h"
#include "codeexport/codeexportpane.h"
#include "shell/windowfit.h"

#include "editors/policyform.h"
#include "previews/decisiontablemodel.h"
#include "previews/delaydistribution.h"
#include "previews/delaypreview.h"

#include "policy/decisiontable.h"
#include "policy/policyjson.h"
#include "policy/presetcatalog.h"

#include <QAction>
#include <QComboBox>
#include <QDialog>
#include <QScreen>
#include <QDateTime>
#include <QFile>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSaveFile>
#include <QScrollArea>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {

QString problemLines(const QList<PolicyProblem>& problems)
{
    QStringList lines;
    for (const PolicyProblem& p : problems)
        lines << (p.path.isEmpty() ? p.message : p.path + u": "_s + p.message);
    return lines.join(u'\n');
}

} // namespace

PolicyEditor::PolicyEditor(QWidget* parent)
    : QWidget(parent)
    , m_presets(new QComboBox(this))
    , m_source(new QLabel(this))
    , m_changed(new QLabel(this))
    , m_revert(new QToolButton(this))
    , m_sendToHerd(new QAction(tr("Send to Herd"), this))
    , m_exportAsCode(new QAction(tr("Export as &Code…"), this))
    , m_tabs(new QTabWidget(this))
    , m_form(new PolicyForm(this))
    , m_json(new QPlainTextEdit(this))
    , m_jsonProblems(new QLabel(this))
    , m_decisions(new DecisionTableModel(this))
    , m_decisionView(new QTableView(this))
    , m_waits(new QLabel(this))
    , m_delays(new DelayPreview(this))
    , m_export(new CodeExportPane(this))
{
    const QList<PresetInfo> presets = PresetCatalog::list();
    for (const PresetInfo& p : presets) {
        m_presets->addItem(p.name, p.name);
        m_presets->setItemData(m_presets->count() - 1, PresetCatalog::summaryOf(p.description), Qt::ToolTipRole);
    }
    m_presets->setToolTip(tr("A built-in policy, each taken from a real SDK or specification"));
    m_source->setWordWrap(true);
    m_source->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_source->setForegroundRole(QPalette::PlaceholderText);
    m_changed->setObjectName(u"policyChanges"_s);
    m_changed->setWordWrap(true);
    m_changed->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_changed->hide();
    m_revert->setText(tr("Revert"));
    m_revert->setToolTip(tr("Go back to the preset as shipped"));
    connect(m_revert, &QToolButton::clicked, this, [this] { loadPreset(m_presetName); });
    m_sendToHerd->setObjectName(u"sendToHerd"_s);
    m_sendToHerd->setToolTip(tr("Run this policy against the Herd view's last experiment: many clients at once"));
    connect(m_sendToHerd, &QAction::triggered, this, &PolicyEditor::sendToHerdRequested);
    m_exportAsCode->setObjectName(u"exportAsCode"_s);
    m_exportAsCode->setToolTip(tr("The policy as code for the library you use, in a window of its own"));
    connect(m_exportAsCode, &QAction::triggered, this, &PolicyEditor::openExportWindow);
    auto* sendToHerd = new QToolButton(this);
    sendToHerd->setDefaultAction(m_sendToHerd);

    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_form);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    m_json->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_json->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_jsonProblems->setWordWrap(true);
    m_jsonProblems->hide();
    auto* jsonPage = new QWidget(this);
    auto* jsonLayout = new QVBoxLayout(jsonPage);
    jsonLayout->setContentsMargins(0, 0, 0, 0);
    jsonLayout->addWidget(m_json, 1);
    jsonLayout->addWidget(m_jsonProblems);

    m_decisionView->setModel(m_decisions);
    m_decisionView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_decisionView->horizontalHeader()->setMinimumSectionSize(fontMetrics().horizontalAdvance(u"retry"_s) + 8);
    m_decisionView->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    m_decisionView->setSelectionMode(QAbstractItemView::NoSelection);
    m_waits->setWordWrap(true);
    auto* decisionPage = new QWidget(this);
    auto* decisionLayout = new QVBoxLayout(decisionPage);
    decisionLayout->setContentsMargins(0, 0, 0, 0);
    auto* decisionHelp = new QLabel(tr("What the first failed attempt leads to, per outcome and method (hover a cell for the reason):"), this);
    decisionHelp->setWordWrap(true);
    decisionLayout->addWidget(decisionHelp);
    decisionLayout->addWidget(m_decisionView, 1);
    decisionLayout->addWidget(m_waits);

    m_tabs->addTab(scroll, tr("Form"));
    m_tabs->addTab(jsonPage, tr("JSON"));
    m_tabs->addTab(decisionPage, tr("Decisions"));
    m_tabs->addTab(m_delays, tr("Delays"));
    m_tabs->addTab(m_export, tr("Export"));
    m_tabs->setTabToolTip(int(Page::Export), tr("The policy as code for the library you use, and what it cannot express"));
    connect(m_export, &CodeExportPane::checkRequested, this, &PolicyEditor::checkWithClientRequested);
    connect(m_export, &CodeExportPane::statusMessage, this, &PolicyEditor::statusMessage);

    auto* top = new QHBoxLayout;
    auto* presetLabel = new QLabel(tr("&Preset"), this);
    presetLabel->setBuddy(m_presets);
    top->addWidget(presetLabel);
    top->addWidget(m_presets, 1);
    top->addWidget(m_revert);
    top->addWidget(sendToHerd);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(top);
    layout->addWidget(m_changed);
    layout->addWidget(m_source);
    layout->addWidget(m_tabs, 1);

    m_jsonTimer.setSingleShot(true);
    m_jsonTimer.setInterval(350);
    connect(&m_jsonTimer, &QTimer::timeout, this, &PolicyEditor::applyJson);
    m_previewTimer.setSingleShot(true);
    m_previewTimer.setInterval(120);
    connect(&m_previewTimer, &QTimer::timeout, this, &PolicyEditor::updatePreviews);
    connect(m_form, &PolicyForm::edited, this, &PolicyEditor::onFormEdited);
    connect(m_json, &QPlainTextEdit::textChanged, this, &PolicyEditor::onJsonEdited);
    connect(m_presets, &QComboBox::activated, this, &PolicyEditor::onPresetPicked);

    // The demo's default: slen retries the lab's 429s after Retry-After and its lost answers after a
    // jittered backoff, so the first Run shows both kinds of wait (stripe would stop at every 429).
    const int demo = m_presets->findData(u"slen"_s);
    loadPreset(m_presets->itemData(demo >= 0 ? demo : 0).toString());
}

bool PolicyEditor::loadPreset(const QString& name)
{
    const PolicyParseResult loaded = PresetCatalog::load(name);
    if (!loaded.ok())
        return false;
    m_presetName = name;
    setReference(*loaded.policy, name, PolicyChanges::BaseKind::Preset);
    m_presets->setCurrentIndex(m_presets->findData(name));
    // The document's own title for people; the file and section citation in the tooltip.
    m_source->setText(tr("Source: %1").arg(m_preset.sourceTitle.isEmpty() ? m_preset.source : m_preset.sourceTitle));
    m_source->setToolTip(m_preset.sourceTitle.isEmpty() ? m_preset.description
                                                        : m_preset.source + u"\n\n"_s + m_preset.description);
    setCurrent(m_preset, true);
    return true;
}

void PolicyEditor::setReference(const RetryPolicy& reference, const QString& base, PolicyChanges::BaseKind kind)
{
    m_preset = reference;
    m_base = base;
    m_baseKind = kind;
    m_form->setReference(m_preset);
}

PolicyChanges PolicyEditor::changes() const
{
    return PolicyChanges { m_base, m_baseKind, PolicyChanges::between(m_preset, m_form->policy()) };
}

void PolicyEditor::onPresetPicked(int index)
{
    loadPreset(m_presets->itemData(index).toString());
}

void PolicyEditor::setCurrent(const RetryPolicy& policy, bool updateJson)
{
    m_form->setPolicy(policy);
    m_problems = validate(policy) + m_form->inputProblems();
    m_form->showProblems(m_problems);
    if (updateJson) {
        m_settingJson = true;
        m_json->setPlainText(QString::fromUtf8(policyToJsonBytes(policy)));
        m_settingJson = false;
        m_jsonProblems->hide();
    }
    updateChangedLabel();
    m_previewTimer.start();
    emit policyChanged();
}

void PolicyEditor::onFormEdited()
{
    const RetryPolicy current = m_form->policy();
    m_problems = validate(current) + m_form->inputProblems();
    const QList<PolicyProblem> unowned = m_form->showProblems(m_problems);
    m_settingJson = true;
    m_json->setPlainText(QString::fromUtf8(policyToJsonBytes(current)));
    m_settingJson = false;
    m_jsonProblems->setVisible(!m_problems.isEmpty());
    m_jsonProblems->setText(problemLines(m_problems));
    updateChangedLabel();
    m_previewTimer.start();
    emit policyChanged();
}

void PolicyEditor::onJsonEdited()
{
    if (!m_settingJson)
        m_jsonTimer.start();
}

void PolicyEditor::applyJson()
{
    const PolicyParseResult parsed = policyFromJsonBytes(m_json->toPlainText().toUtf8());
    m_jsonProblems->setVisible(!parsed.ok());
    m_jsonProblems->setText(problemLines(parsed.problems));
    if (!parsed.ok()) {
        m_problems = parsed.problems;
        m_form->showProblems(m_problems);
        emit policyChanged();
        return;
    }
    setCurrent(*parsed.policy, false);
}

std::optional<RetryPolicy> PolicyEditor::policy() const
{
    if (!m_problems.isEmpty())
        return std::nullopt;
    return m_form->policy();
}

void PolicyEditor::updateChangedLabel()
{
    // The same account of the changes as the command line's --set gives, from the same diff; the first few
    // here, every one in the tooltip.
    const PolicyChanges current = changes();
    QStringList all;
    for (const PolicyChange& change : current.changes)
        all << change.text();
    m_changed->setText(current.text(3));
    m_changed->setToolTip(all.join(u'\n'));
    m_changed->setVisible(!current.isEmpty());
    m_revert->setEnabled(!current.isEmpty() && !m_presetName.isEmpty());
}

void PolicyEditor::updatePreviews()
{
    const std::optional<RetryPolicy> current = policy();
    m_export->setPolicy(current);
    if (!current)
        return;
    const DecisionTable table = buildDecisionTable(*current, QDateTime::currentDateTimeUtc());
    m_decisions->setTable(table);
    QStringList waits;
    for (qsizetype i = 0; i < table.waits.size(); ++i) {
        const auto& [low, high] = table.waits.at(i);
        waits << (low == high ? tr("retry %1: %2").arg(i + 1).arg(formatMillis(low))
                              : tr("retry %1: %2 – %3").arg(i + 1).arg(formatMillis(low), formatMillis(high)));
    }
    m_waits->setText(waits.isEmpty() ? tr("No retries.") : tr("Backoff before %1").arg(waits.join(u"; "_s)));
    m_delays->setDistribution(DelayDistribution::compute(*current));
}

QString PolicyEditor::loadFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return tr("%1 cannot be read: %2").arg(path, file.errorString());
    const PolicyParseResult parsed = policyFromJsonBytes(file.readAll());
    if (!parsed.ok())
        return tr("%1 is not a usable policy:\n%2").arg(path, problemLines(parsed.problems));
    // A file's policy is compared with the preset it names, when there is one.
    const PolicyParseResult named = PresetCatalog::load(parsed.policy->name);
    m_presetName = named.ok() ? parsed.policy->name : QString();
    if (named.ok())
        setReference(*named.policy, m_presetName, PolicyChanges::BaseKind::Preset);
    else
        setReference(*parsed.policy, path, PolicyChanges::BaseKind::File);
    m_presets->setCurrentIndex(m_presets->findData(m_presetName));
    m_source->setText(tr("File: %1").arg(path));
    setCurrent(*parsed.policy, true);
    return {};
}

void PolicyEditor::setPolicy(const RetryPolicy& policy, const QString& origin)
{
    // Compared with the preset it is named after (the curl preset for a pasted command's options).
    const PolicyParseResult named = PresetCatalog::load(policy.name);
    m_presetName = named.ok() ? policy.name : QString();
    if (named.ok())
        setReference(*named.policy, m_presetName, PolicyChanges::BaseKind::Preset);
    else
        setReference(policy, policy.name, PolicyChanges::BaseKind::Policy);
    m_presets->setCurrentIndex(m_presets->findData(m_presetName));
    m_source->setText(origin);
    setCurrent(policy, true);
}

QString PolicyEditor::saveFile(const QString& path) const
{
    const std::optional<RetryPolicy> current = policy();
    if (!current)
        return tr("The policy has problems; fix the fields in red first.");
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(policyToJsonBytes(*current)) < 0 || !file.commit())
        return tr("%1 cannot be written: %2").arg(path, file.errorString());
    return {};
}

void PolicyEditor::openExportWindow()
{
    if (!m_exportWindow) {
        m_exportWindow = new QDialog(this, Qt::Window);
        m_exportWindow->setObjectName(u"exportWindow"_s);
        auto* pane = new CodeExportPane(m_exportWindow);
        pane->selectTarget(m_export->targetBox()->currentData().toString(), m_export->versionBox()->currentText());
        auto* layout = new QVBoxLayout(m_exportWindow);
        layout->addWidget(pane);
        connect(pane, &CodeExportPane::checkRequested, this, &PolicyEditor::checkWithClientRequested);
        connect(pane, &CodeExportPane::statusMessage, this, &PolicyEditor::statusMessage);
        connect(this, &PolicyEditor::policyChanged, pane, [this, pane] { pane->setPolicy(policy()); });
        pane->setPolicy(policy());
        // Roomy, but never past the screen it opens on.
        const QScreen* screen = this->screen();
        const QRect available = screen ? screen->availableGeometry() : QRect(0, 0, 1280, 720);
        m_exportWindow->setGeometry(WindowFit::initial(available.adjusted(40, 40, -40, -40), QSize(1000, 760)));
    }
    m_exportWindow->setWindowTitle(tr("Export %1 as Code").arg(policy() ? policy()->name : tr("the policy")));
    m_exportWindow->show();
    m_exportWindow->raise();
    m_exportWindow->activateWindow();
}

void PolicyEditor::showPage(Page page)
{
    m_tabs->setCurrentIndex(int(page));
}
