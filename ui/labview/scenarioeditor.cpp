// SPDX-License-Identifier: GPL-3.0-or-later
#include "labview/scenarioeditor.h"

#include "labview/routeform.h"
#include "labview/scenarioeditmodel.h"
#include "labview/stepform.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSplitter>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {

QToolButton* button(const QString& text, const QString& tip, QWidget* parent)
{
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setToolTip(tip);
    return b;
}

} // namespace

ScenarioEditor::ScenarioEditor(QWidget* parent)
    : QWidget(parent)
    , m_model(new ScenarioEditModel(this))
    , m_judge(new QTimer(this))
    , m_name(new QLineEdit(this))
    , m_upstream(new QLineEdit(this))
    , m_seed(new QSpinBox(this))
    , m_tree(new QTreeView(this))
    , m_forms(new QStackedWidget(this))
    , m_routeForm(new RouteForm(m_forms))
    , m_stepForm(new StepForm(m_forms))
    , m_status(new QLabel(this))
    , m_addStep(button(tr("+ Step"), tr("Add a step to the selected route, after the selected step"), this))
    , m_remove(button(tr("Remove"), tr("Remove the selected route or step"), this))
    , m_up(button(tr("↑"), tr("Move up (the first route that matches answers)"), this))
    , m_down(button(tr("↓"), tr("Move down"), this))
{
    m_upstream->setPlaceholderText(tr("http(s)://host:port — where forward steps go"));
    m_seed->setRange(0, std::numeric_limits<int>::max());
    m_seed->setToolTip(tr("Random routes draw from a generator seeded with this: the same seed, the same answers"));
    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->setMinimumHeight(fontMetrics().lineSpacing() * 5);
    auto* empty = new QLabel(tr("Select a route or a step to edit it."), m_forms);
    empty->setWordWrap(true);
    empty->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_forms->addWidget(empty);
    m_forms->addWidget(m_routeForm);
    m_forms->addWidget(m_stepForm);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_judge->setSingleShot(true);
    m_judge->setInterval(250);

    auto* nameRow = new QHBoxLayout;
    nameRow->addWidget(m_name, 1);
    auto* seedLabel = new QLabel(tr("S&eed"), this);
    seedLabel->setBuddy(m_seed);
    nameRow->addWidget(seedLabel);
    nameRow->addWidget(m_seed);
    auto* top = new QFormLayout;
    top->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    top->addRow(tr("Na&me"), nameRow);
    top->addRow(tr("&Upstream"), m_upstream);
    auto* newButton = button(tr("New"), tr("Start from one catch-all route answering 200"), this);
    auto* addRoute = button(tr("+ Route"), tr("Add a route after the selected one"), this);
    auto* save = button(tr("Save As…"), tr("Save the scenario as JSON (retrylab serve --scenario FILE plays it)"), this);
    auto* tools = new QHBoxLayout;
    tools->setSpacing(2);
    for (QToolButton* b : { newButton, addRoute, m_addStep, m_remove, m_up, m_down })
        tools->addWidget(b);
    tools->addStretch();
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(m_status, 1);
    bottom->addWidget(save, 0, Qt::AlignTop);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addLayout(tools);
    // The tree above the selected item's form; the form scrolls rather than make the panel taller.
    auto* formArea = new QScrollArea(this);
    formArea->setWidget(m_forms);
    formArea->setWidgetResizable(true);
    formArea->setFrameShape(QFrame::NoFrame);
    formArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_tree);
    split->addWidget(formArea);
    split->setChildrenCollapsible(false);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    layout->addWidget(split, 1);
    layout->addLayout(bottom);

    connect(m_model, &ScenarioEditModel::edited, m_judge, qOverload<>(&QTimer::start));
    connect(m_judge, &QTimer::timeout, this, &ScenarioEditor::applyNow);
    connect(m_name, &QLineEdit::textEdited, this, [this](const QString& t) { m_model->setValue(u"name"_s, t); });
    connect(m_upstream, &QLineEdit::textEdited, this, [this](const QString& t) {
        m_model->setValue(u"upstream"_s, t.trimmed().isEmpty() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(t.trimmed()));
    });
    connect(m_seed, &QSpinBox::valueChanged, this, [this](int seed) {
        if (m_model->document().value(u"seed"_s).toInt(-1) != seed)
            m_model->setValue(u"seed"_s, seed);
    });
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &ScenarioEditor::showSelected);
    connect(m_model, &QAbstractItemModel::modelReset, this, &ScenarioEditor::showSelected);
    // A weight edited in the tree for the step the form shows: the form takes it, or its next edit would
    // write its older copy back.
    connect(m_model, &QAbstractItemModel::dataChanged, this, [this] {
        const QModelIndex current = m_tree->currentIndex();
        const int route = ScenarioEditModel::routeOf(current);
        const int step = ScenarioEditModel::stepOf(current);
        if (step >= 0 && m_forms->currentWidget() == m_stepForm && m_model->step(route, step) != m_stepForm->step())
            m_stepForm->setStep(m_model->step(route, step));
    });
    connect(m_routeForm, &RouteForm::routeEdited, this, [this](const QJsonObject& route) {
        const int r = ScenarioEditModel::routeOf(m_tree->currentIndex());
        QJsonObject edited = route;
        edited.insert(u"steps"_s, m_model->route(r).value(u"steps"_s)); // the form's copy may predate step edits
        m_model->setRoute(r, edited);
    });
    connect(m_stepForm, &StepForm::stepEdited, this, [this](const QJsonObject& step) {
        const QModelIndex current = m_tree->currentIndex();
        m_model->setStep(ScenarioEditModel::routeOf(current), ScenarioEditModel::stepOf(current), step);
    });
    connect(newButton, &QToolButton::clicked, this, &ScenarioEditor::newScenario);
    connect(addRoute, &QToolButton::clicked, this, &ScenarioEditor::addRoute);
    connect(m_addStep, &QToolButton::clicked, this, &ScenarioEditor::addStep);
    connect(m_remove, &QToolButton::clicked, this, &ScenarioEditor::removeSelected);
    connect(m_up, &QToolButton::clicked, this, [this] { moveSelected(-1); });
    connect(m_down, &QToolButton::clicked, this, [this] { moveSelected(1); });
    connect(save, &QToolButton::clicked, this, &ScenarioEditor::askSaveAs);
    updateButtons();
}

void ScenarioEditor::setDocument(const QJsonObject& document)
{
    m_judge->stop();
    m_model->setDocument(document);
    m_name->setText(document.value(u"name"_s).toString());
    m_upstream->setText(document.value(u"upstream"_s).toString());
    {
        const QSignalBlocker block(m_seed);
        m_seed->setValue(document.value(u"seed"_s).toInt(1));
    }
    m_result = ScenarioLoader::fromObject(document);
    m_model->setProblems(m_result.problems);
    m_applied = document;
    m_tree->expandAll();
    showResult();
}

QJsonObject ScenarioEditor::document() const
{
    return m_model->document();
}

bool ScenarioEditor::applyNow()
{
    m_judge->stop();
    const QJsonObject document = m_model->document();
    m_result = ScenarioLoader::fromObject(document);
    m_model->setProblems(m_result.problems);
    if (m_result.ok() && document != m_applied) {
        m_applied = document;
        emit scenarioReady(*m_result.scenario);
    }
    showResult();
    return m_result.ok();
}

QString ScenarioEditor::statusText() const
{
    return m_status->text();
}

void ScenarioEditor::showResult()
{
    if (m_result.ok()) {
        m_status->setStyleSheet(QString());
        m_status->setText(tr("Valid: the lab plays this scenario."));
    } else {
        m_status->setStyleSheet(u"color: #b00020"_s);
        m_status->setText(tr("Not applied, the lab keeps the last valid version:\n%1").arg(m_result.problemText()));
    }
}

void ScenarioEditor::select(int route, int step)
{
    const QModelIndex index = step < 0 ? m_model->routeIndex(route) : m_model->stepIndex(route, step);
    m_tree->setCurrentIndex(index);
    showSelected(); // also when the index stayed the same but its row holds another route now
}

void ScenarioEditor::showSelected()
{
    const QModelIndex current = m_tree->currentIndex();
    const int route = ScenarioEditModel::routeOf(current);
    const int step = ScenarioEditModel::stepOf(current);
    if (route < 0 || route >= m_model->routeCount()) {
        m_forms->setCurrentIndex(0);
    } else if (step < 0) {
        m_routeForm->setRoute(m_model->route(route));
        m_forms->setCurrentWidget(m_routeForm);
    } else {
        m_stepForm->setStep(m_model->step(route, step));
        m_stepForm->setRandom(m_model->route(route).value(u"mode"_s).toString() == u"random"_s);
        m_forms->setCurrentWidget(m_stepForm);
    }
    updateButtons();
}

void ScenarioEditor::updateButtons()
{
    const QModelIndex current = m_tree->currentIndex();
    const bool any = current.isValid();
    m_addStep->setEnabled(any);
    m_remove->setEnabled(any);
    m_up->setEnabled(any && current.row() > 0);
    m_down->setEnabled(any && current.row() + 1 < m_model->rowCount(current.parent()));
}
