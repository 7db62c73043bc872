// SPDX-License-Identifier: GPL-3.0-or-later
#include "herd/herdview.h"

#include "herd/charts/herdchartstack.h"
#include "herd/fleetcomparisonview.h"
#include "herd/form/herdexperimentform.h"
#include "herd/form/herdpolicylist.h"
#include "herd/herdfiles.h"
#include "herd/herdrunner.h"
#include "herd/herdtotalsmodel.h"

#include "editors/policyfield.h"
#include "sessions/chartexport.h"
#include "shell/dockscrollarea.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace {

enum ExportKind { ChartsPng, ChartsSvg, DataJson, DataCsv, DataCsvFolder };

} // namespace

HerdView::HerdView(QWidget* parent)
    : QWidget(parent)
    , m_form(new HerdExperimentForm)
    , m_runner(new HerdRunner(this))
    , m_charts(new HerdChartStack)
    , m_totals(new HerdTotalsModel(this))
    , m_table(new QTableView)
{
    setObjectName(u"HerdView"_s);

    // Left: the experiment, its file buttons over the form, scrolling in a column of its own.
    auto* builder = new QWidget;
    auto* builderLayout = new QVBoxLayout(builder);
    builderLayout->setContentsMargins(0, 0, 0, 0);
    builderLayout->setSpacing(0);
    builderLayout->addWidget(buildFileRow());
    builderLayout->addWidget(m_form, 1);
    auto* column = new DockScrollArea(builder);
    column->setObjectName(u"herdBuilder"_s);
    ChartExport::markControl(column);
    m_builder = column;

    // Right: run and export over the charts and the totals.
    m_table->setModel(m_totals);
    m_table->setObjectName(u"herdTotals"_s);
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(false);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_table->setMinimumHeight(fontMetrics().height() * 4);
    m_results = new QSplitter(Qt::Vertical);
    m_results->addWidget(m_charts);
    m_results->addWidget(m_table);
    m_results->setStretchFactor(0, 1);
    m_results->setStretchFactor(1, 0);
    m_results->setChildrenCollapsible(false);
    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->setSpacing(2);
    rightLayout->addWidget(buildBar());
    rightLayout->addWidget(m_results, 1);
    m_fleet = new FleetComparisonView;
    m_fleet->hide();
    rightLayout->addWidget(m_fleet, 1);
    connect(m_fleet, &FleetComparisonView::closeRequested, this, [this] { setFleetVisible(false); });

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(column);
    split->addWidget(right);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    const int builderWidth = std::min(column->sizeHint().width(), 24 * fontMetrics().height());
    split->setSizes({ builderWidth, 4 * builderWidth });
    // A tab smaller than the builder and the charts' least sizes (a small screen at scale 2) scrolls rather
    // than making the window larger than the screen.
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(u"herdScroll"_s);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setWidget(split);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);

    connect(m_runner, &HerdRunner::progressChanged, this, &HerdView::onProgress);
    connect(m_runner, &HerdRunner::finished, this, &HerdView::onFinished);
    connect(m_form, &HerdExperimentForm::edited, this, &HerdView::updateActions);
    connect(m_form->policies(), &HerdPolicyList::problem, this, [this](const QString& text) { setStatus(text, true); });
    setStatus(tr("Pick or build an experiment, then Run."));
    updateActions();
}

HerdView::~HerdView() = default;

QWidget* HerdView::buildFileRow()
{
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(6, 6, 6, 0);
    auto* open = new QToolButton(row);
    open->setText(tr("Open…"));
    open->setToolTip(tr("Open an experiment file"));
    auto* save = new QToolButton(row);
    save->setText(tr("Save As…"));
    save->setToolTip(tr("Save the experiment, with its policies, as a file that `retrylab herd --experiment` runs too"));
    connect(open, &QToolButton::clicked, this, &HerdView::chooseOpen);
    connect(save, &QToolButton::clicked, this, &HerdView::chooseSave);
    auto* fleet = new QToolButton(row);
    fleet->setText(tr("Fleet…")); // short: the row sets the tab's smallest width (tst_windowlayout at scale 2)
    fleet->setToolTip(tr("Open what `retrylab fleet --compare-herd --json` printed: measured against simulated"));
    connect(fleet, &QToolButton::clicked, this, &HerdView::chooseFleetResult);
    layout->addWidget(open);
    layout->addWidget(save);
    layout->addWidget(fleet);
    layout->addStretch(1);
    return row;
}

QWidget* HerdView::buildBar()
{
    auto* bar = new QWidget;
    ChartExport::markControl(bar);
    auto* layout = new QVBoxLayout(bar);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->setSpacing(2);
    auto* buttons = new QHBoxLayout;
    m_builderToggle = new QToolButton(bar);
    m_builderToggle->setCheckable(true);
    m_builderToggle->setChecked(true);
    m_builderToggle->setArrowType(Qt::LeftArrow);
    m_builderToggle->setToolTip(tr("Show or hide the experiment"));
    m_builderToggle->setAccessibleName(tr("Experiment"));
    connect(m_builderToggle, &QToolButton::toggled, this, &HerdView::setBuilderVisible);
    buttons->addWidget(m_builderToggle);
    m_run = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Run"), bar);
    m_run->setToolTip(tr("Simulate every policy against the experiment"));
    m_cancel = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("Cancel"), bar);
    m_progress = new QProgressBar(bar);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setFormat(tr("%p %"));
    m_export = new QToolButton(bar);
    m_export->setText(tr("Export"));
    m_export->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(m_export);
    menu->addAction(tr("Charts as PNG…"), this, [this] { chooseExport(ChartsPng); });
    menu->addAction(tr("Charts as SVG…"), this, [this] { chooseExport(ChartsSvg); });
    menu->addSeparator();
    menu->addAction(tr("Data as JSON…"), this, [this] { chooseExport(DataJson); });
    menu->addAction(tr("Data as CSV…"), this, [this] { chooseExport(DataCsv); });
    menu->addAction(tr("Data as CSV, a File per Policy…"), this, [this] { chooseExport(DataCsvFolder); });
    m_export->setMenu(menu);
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_progress, 1);
    buttons->addWidget(m_export);
    m_status = new QLabel(bar);
    m_status->setObjectName(u"herdStatus"_s);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    connect(m_run, &QPushButton::clicked, this, &HerdView::run);
    connect(m_cancel, &QPushButton::clicked, this, &HerdView::cancel);
    return bar;
}

void HerdView::setEditorPolicy(std::function<std::optional<RetryPolicy>()> provider)
{
    m_form->policies()->setEditorPolicy(std::move(provider));
}

bool HerdView::isRunning() const
{
    return m_runner->isRunning();
}

void HerdView::setBuilderVisible(bool visible)
{
    m_builder->setVisible(visible);
    const QSignalBlocker block(m_builderToggle);
    m_builderToggle->setChecked(visible);
    m_builderToggle->setArrowType(visible ? Qt::LeftArrow : Qt::RightArrow);
}

bool HerdView::isBuilderVisible() const
{
    return m_builder->isVisibleTo(this);
}

bool HerdView::run()
{
    const QList<PolicyProblem> problems = m_form->problems();
    if (!problems.isEmpty()) {
        const PolicyProblem& first = problems.first();
        setStatus(tr("The experiment has problems; the fields in red say why. First: %1")
                      .arg(first.path.isEmpty() ? first.message : first.path + u": "_s + first.message),
            true);
        return false;
    }
    const HerdExperiment experiment = m_form->experiment();
    // In a tab too narrow for both, the charts get the room; the builder is a click away.
    if (isVisible() && width() < m_builder->width() + 34 * fontMetrics().height())
        setBuilderVisible(false);
    m_elapsed.start();
    m_progress->setValue(0);
    setFleetVisible(false); // the run's charts, not a fleet result's
    m_runner->start(experiment);
    const QString policies = experiment.policies.size() == 1 ? tr("1 policy") : tr("%1 policies").arg(experiment.policies.size());
    setStatus(experiment.runs > 1 ? tr("Running %1: %2, %3 runs each…").arg(experiment.name, policies).arg(experiment.runs)
                                  : tr("Running %1: %2…").arg(experiment.name, policies));
    updateActions();
    emit runningChanged(true);
    return true;
}

void HerdView::cancel()
{
    if (!m_runner->isRunning())
        return;
    m_runner->cancel();
    setStatus(tr("Cancelling…"));
}

bool HerdView::runPolicy(const RetryPolicy& policy)
{
    if (m_lastRun)
        m_form->setExperiment(*m_lastRun);
    const QString label = policy.name.isEmpty() ? tr("edited") : tr("%1 (edited)").arg(policy.name);
    m_form->policies()->put(HerdPolicy { label, policy });
    return run();
}

void HerdView::onProgress(double share)
{
    m_progress->setValue(int(std::lround(std::clamp(share, 0.0, 1.0) * 1000.0)));
}

void HerdView::onFinished(bool cancelled)
{
    updateActions();
    emit runningChanged(false);
    if (cancelled) {
        m_progress->setValue(0);
        setStatus(m_charts->hasResult() ? tr("Cancelled; the charts still show the last run that finished.") : tr("Cancelled."));
        emit runFinished(true);
        return;
    }
    m_shown = m_runner->result();
    m_shownExperiment = m_runner->experiment();
    m_lastRun = m_shownExperiment;
    m_totals->setResult(m_shown);
    m_charts->showResult(m_shown, m_shownExperiment);
    // The table as tall as its rows, the charts the rest.
    const int tableHeight = m_table->horizontalHeader()->height() + m_table->verticalHeader()->defaultSectionSize() * int(m_shown.results.size())
        + 2 * m_table->frameWidth() + m_table->horizontalScrollBar()->sizeHint().height();
    const int total = m_results->height();
    if (total > tableHeight * 2)
        m_results->setSizes({ total - tableHeight, tableHeight });
    setStatus(summaryOf(m_shown));
    updateActions();
    emit runFinished(false);
}

QString HerdView::summaryOf(const HerdResult& result) const
{
    QStringList parts;
    for (const HerdPolicyResult& r : result.results) {
        if (r.collapsedAt)
            parts << tr("%1 collapsed at %2").arg(r.label, HerdTotalsModel::formatMoment(double(r.collapsedAt->count())));
        else if (r.recovered)
            parts << (*r.recovered ? tr("%1 recovered").arg(r.label) : tr("%1 did not recover").arg(r.label));
        else
            parts << tr("%1 %2 % success, %3× attempts")
                         .arg(r.label, QLocale().toString(r.totals.successRate() * 100.0, 'f', 1),
                             QLocale().toString(r.totals.amplification(), 'f', 2));
    }
    return tr("%1 in %2: %3.").arg(result.experiment, HerdTotalsModel::formatDuration(double(m_elapsed.elapsed())), parts.join(u"; "_s));
}

void HerdView::setStatus(const QString& text, bool problem)
{
    QPalette palette = m_status->palette();
    palette.setColor(QPalette::WindowText, problem ? problemColour(palette) : this->palette().color(QPalette::WindowText));
    m_status->setPalette(palette);
    m_status->setText(text);
    emit statusMessage(text);
}

void HerdView::updateActions()
{
    const bool running = m_runner->isRunning();
    m_run->setEnabled(!running);
    m_cancel->setEnabled(running);
    m_export->setEnabled(m_charts->hasResult());
    if (!running && !m_charts->hasResult()) {
        const HerdExperiment e = m_form->experiment();
        const QString name = e.name.isEmpty() ? tr("the experiment") : e.name;
        QString text = e.policies.size() == 1
            ? tr("Press Run to simulate %1 with its policy: each measure over time appears here, and the totals below.").arg(name)
            : tr("Press Run to simulate %1 with its %2 policies: each measure over time appears here, one line per policy, "
                 "and the totals below.").arg(name).arg(e.policies.size());
        if (!e.claims.isEmpty())
            text += u"\n\n"_s + e.claims;
        m_charts->setPlaceholderText(text);
    }
}

void HerdView::warn(const QString& title, const QString& text)
{
    // Window-modal but not blocking: no nested event loop while a simulation reports.
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

QString HerdView::openExperiment(const QString& path)
{
    const HerdFiles::Opened opened = HerdFiles::openExperiment(path);
    if (!opened.experiment) {
        warn(tr("Open Experiment"), opened.problem);
        setStatus(tr("%1 was not opened.").arg(QFileInfo(path).fileName()), true);
        return opened.problem;
    }
    m_form->setExperiment(*opened.experiment);
    setStatus(tr("Opened %1: press Run.").arg(QFileInfo(path).fileName()));
    return {};
}

QString HerdView::saveExperiment(const QString& path) const
{
    return HerdFiles::saveExperiment(m_form->experiment(), path);
}

QString HerdView::exportSubtitle() const
{
    QStringList labels;
    for (const HerdPolicyResult& r : m_shown.results)
        labels << r.label;
    const QString runs = m_shownExperiment.runs == 1 ? tr("1 run") : tr("%1 runs").arg(m_shownExperiment.runs);
    return tr("%1 · policies %2 · %3 · seed %4")
        .arg(m_shownExperiment.title.isEmpty() ? m_shownExperiment.name : m_shownExperiment.title, labels.join(u", "_s), runs)
        .arg(m_shownExperiment.seed);
}

QString HerdView::exportCharts(const QString& path)
{
    if (!m_charts->hasResult())
        return tr("Run the experiment first: there are no charts to export.");
    QString error;
    if (!ChartExport::save(m_charts->chartsPage(), path, tr("Retrylab — Herd: %1").arg(m_shownExperiment.name), exportSubtitle(), &error))
        return error.isEmpty() ? tr("%1 cannot be written.").arg(path) : error;
    return {};
}

QString HerdView::exportJson(const QString& path) const
{
    return HerdFiles::saveJson(m_shown, path);
}

QString HerdView::exportCsv(const QString& path) const
{
    return HerdFiles::saveCsv(m_shown, path);
}

QString HerdView::exportCsvFolder(const QString& directory) const
{
    return HerdFiles::saveCsvFolder(m_shown, directory);
}

void HerdView::chooseOpen()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Experiment"), QString(), tr("Herd experiments (*.json)"));
    if (!path.isEmpty())
        openExperiment(path);
}

void HerdView::chooseFleetResult()
{
    const QString path
        = QFileDialog::getOpenFileName(this, tr("Open Fleet Result"), QString(), tr("Fleet reports (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    if (const QString problem = openFleetResult(path); !problem.isEmpty())
        warn(tr("Open Fleet Result"), problem);
}

QString HerdView::openFleetResult(const QString& path)
{
    QString error;
    const std::optional<FleetComparisonResult> result = FleetComparisonResult::read(path, &error);
    if (!result) {
        setStatus(error, true);
        return error;
    }
    m_fleet->setResult(*result, path);
    setFleetVisible(true);
    // The experiment form is not what the fleet's comparison simulated: the chart gets its room (the builder
    // is a click away, as after Run in a narrow tab).
    setBuilderVisible(false);
    setStatus(tr("Fleet result %1: measured (solid) against simulated (dashed).").arg(QFileInfo(path).fileName()));
    return QString();
}

bool HerdView::isShowingFleet() const
{
    return !m_fleet->isHidden();
}

void HerdView::setFleetVisible(bool visible)
{
    m_fleet->setVisible(visible);
    m_results->setVisible(!visible);
}

void HerdView::chooseSave()
{
    const HerdExperiment e = m_form->experiment();
    QString path = QFileDialog::getSaveFileName(this, tr("Save Experiment"), HerdFiles::fileNameFor(e.name) + u".json"_s,
        tr("Herd experiments (*.json)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += u".json"_s;
    if (const QString problem = saveExperiment(path); !problem.isEmpty()) {
        warn(tr("Save Experiment"), problem);
        return;
    }
    setStatus(tr("Saved the experiment to %1.").arg(path));
}

void HerdView::chooseExport(int kind)
{
    const QString base = HerdFiles::fileNameFor(m_shownExperiment.name);
    QString path;
    QString problem;
    switch (ExportKind(kind)) {
    case ChartsPng:
    case ChartsSvg: {
        const QString suffix = kind == ChartsPng ? u".png"_s : u".svg"_s;
        path = QFileDialog::getSaveFileName(this, tr("Export Charts"), base + suffix,
            kind == ChartsPng ? tr("PNG image (*.png)") : tr("SVG vector image (*.svg)"));
        if (path.isEmpty())
            return;
        if (QFileInfo(path).suffix().isEmpty())
            path += suffix;
        problem = exportCharts(path);
        break;
    }
    case DataJson:
    case DataCsv: {
        const QString suffix = kind == DataJson ? u".json"_s : u".csv"_s;
        path = QFileDialog::getSaveFileName(this, tr("Export Data"), base + suffix,
            kind == DataJson ? tr("JSON (*.json)") : tr("CSV (*.csv)"));
        if (path.isEmpty())
            return;
        if (QFileInfo(path).suffix().isEmpty())
            path += suffix;
        problem = kind == DataJson ? exportJson(path) : exportCsv(path);
        break;
    }
    case DataCsvFolder:
        path = QFileDialog::getExistingDirectory(this, tr("Export a CSV File per Policy into"));
        if (path.isEmpty())
            return;
        problem = exportCsvFolder(path);
        break;
    }
    if (!problem.isEmpty()) {
        warn(tr("Export"), problem);
        return;
    }
    setStatus(tr("Exported to %1.").arg(path));
}
