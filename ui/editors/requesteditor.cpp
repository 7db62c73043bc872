// SPDX-License-Identifier: GPL-3.0-or-later
#include "editors/requesteditor.h"

#include "editors/curlpastedialog.h"
#include "editors/curlpreset.h"
#include "editors/requestoptionsdialog.h"
#include "live/chartpalette.h"
#include "run/proxypanel.h"
#include "shell/elidedlabel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

RequestEditor::RequestEditor(QWidget* parent)
    : QWidget(parent)
    , m_target(new QComboBox(this))
    , m_route(new QComboBox(this))
    , m_routeLabel(new QLabel(tr("Lab route"), this))
    , m_base(new ElidedLabel(this))
    , m_url(new QLineEdit(this))
    , m_method(new QComboBox(this))
    , m_hint(new QLabel(this))
    , m_proxyPanel(new ProxyPanel(this))
    , m_headers(new QTableWidget(0, 2, this))
    , m_sent(new QLabel(this))
    , m_optionsButton(new QToolButton(this))
    , m_body(new QPlainTextEdit(this))
    , m_bodyFile(new QLineEdit(this))
    , m_keyMode(new QComboBox(this))
    , m_keyValue(new QLineEdit(this))
    , m_repeat(new QSpinBox(this))
    , m_concurrency(new QSpinBox(this))
    , m_interval(new QSpinBox(this))
{
    m_target->addItem(tr("Built-in fault lab"));
    m_target->addItem(tr("Another server (URL)"));
    m_target->addItem(tr("Observe a client"));
    m_target->setItemData(2, tr("Run starts watching what any program sends to the lab: its own retries, "
                                "inferred, fill the views live; Stop ends it and keeps the session"), Qt::ToolTipRole);
    m_target->addItem(tr("Observe a client as its proxy"));
    // The longest item must not set the pane's smallest width (tst_windowlayout at scale 2): the box elides.
    m_target->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_target->setMinimumContentsLength(18);
    m_target->setItemData(3, tr("Run starts the lab as an HTTP(S) proxy that decrypts with the Retrylab CA: any program "
                                "run with the copied shell lines is observed against its real API, unchanged"),
        Qt::ToolTipRole);
    m_route->setPlaceholderText(tr("Another request (type it below)"));
    m_route->setToolTip(tr("The routes of the lab's scenario: picking one fills in the method, the path and a sample body"));
    m_route->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_route->setMinimumContentsLength(16);
    m_routeLabel->setBuddy(m_route);
    m_method->setEditable(true);
    m_method->addItems({ u"GET"_s, u"HEAD"_s, u"POST"_s, u"PUT"_s, u"PATCH"_s, u"DELETE"_s });
    m_method->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_base->setForegroundRole(QPalette::PlaceholderText);
    m_base->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred); // gives way to the path when narrow
    m_hint->setWordWrap(true);
    m_hint->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_hint->hide();

    m_headers->setHorizontalHeaderLabels({ tr("Header"), tr("Value") });
    m_headers->horizontalHeader()->setStretchLastSection(true);
    m_headers->verticalHeader()->hide();
    m_headers->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_headers->setMaximumHeight(fontMetrics().height() * 6);
    auto* addHeader = new QToolButton(this);
    addHeader->setText(tr("Add"));
    addHeader->setToolTip(tr("Add a request header (one with the name of a header Retrylab sends replaces it)"));
    connect(addHeader, &QToolButton::clicked, this, [this] { addHeaderRow(); });
    auto* removeHeader = new QToolButton(this);
    removeHeader->setText(tr("Remove"));
    removeHeader->setToolTip(tr("Remove the selected header"));
    connect(removeHeader, &QToolButton::clicked, this, [this] {
        if (m_headers->currentRow() >= 0)
            m_headers->removeRow(m_headers->currentRow());
    });
    m_sent->setWordWrap(true);
    m_sent->setForegroundRole(QPalette::PlaceholderText);
    m_optionsButton->setText(tr("Options…"));
    m_optionsButton->setToolTip(tr("Retrylab's own headers, the attempt-id header, redirects and HTTP/2"));
    connect(m_optionsButton, &QToolButton::clicked, this, &RequestEditor::editOptions);

    m_body->setPlaceholderText(tr("Request body (sent once per attempt, never re-sent by the transport)"));
    m_body->setMaximumHeight(fontMetrics().height() * 4);
    m_body->setTabChangesFocus(true);
    m_bodyFile->setPlaceholderText(tr("…or send a file's contents"));
    m_bodyFile->setClearButtonEnabled(true);
    auto* browse = new QToolButton(this);
    browse->setText(tr("Choose…"));
    connect(browse, &QToolButton::clicked, this, &RequestEditor::chooseBodyFile);

    m_keyMode->addItem(tr("As the policy says"));
    m_keyMode->addItem(tr("Never"));
    m_keyMode->addItem(tr("This value:"));
    m_keyValue->setPlaceholderText(tr("key"));
    connect(m_keyMode, &QComboBox::currentIndexChanged, this, &RequestEditor::onKeyModeChanged);

    m_repeat->setRange(1, 100000);
    m_repeat->setValue(20);
    m_repeat->setSuffix(tr(" runs"));
    m_concurrency->setRange(1, 1000);
    m_concurrency->setValue(4);
    m_concurrency->setSuffix(tr(" at once"));
    // The runs' pace: as fast as "at once" allows, or one every N ms (calls at a fixed rate, as through an
    // outage: 20 a second is 50 ms), as `retrylab run --interval` does.
    m_interval->setRange(0, 3600000);
    m_interval->setValue(0);
    m_interval->setSpecialValueText(tr("as fast as allowed"));
    m_interval->setPrefix(tr("one every "));
    m_interval->setSuffix(tr(" ms"));
    m_interval->setToolTip(tr("Start the runs on a fixed beat, one every this many milliseconds (a fixed call rate); "
                              "0: each as soon as fewer than \"at once\" are running"));
    connect(m_repeat, &QSpinBox::valueChanged, this, &RequestEditor::repeatChanged);
    connect(m_concurrency, &QSpinBox::valueChanged, this, &RequestEditor::repeatChanged);

    auto* paste = new QPushButton(tr("Paste curl…"), this);
    paste->setToolTip(tr("Fill in the request from a curl command line"));
    connect(paste, &QPushButton::clicked, this, &RequestEditor::pasteCurl);

    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto* targetRow = new QHBoxLayout;
    targetRow->addWidget(m_target, 1);
    targetRow->addWidget(paste);
    form->addRow(tr("Send to"), targetRow);
    form->addRow(m_routeLabel, m_route);
    auto* urlRow = new QHBoxLayout;
    urlRow->setSpacing(2);
    urlRow->addWidget(m_method);
    urlRow->addWidget(m_base);
    m_url->setMinimumWidth(fontMetrics().horizontalAdvance(u'M') * 8);
    urlRow->addWidget(m_url, 1);
    form->addRow(tr("Request"), urlRow);
    form->addRow(QString(), m_hint);
    form->addRow(m_proxyPanel);
    m_form = form;
    auto* headerButtons = new QVBoxLayout;
    headerButtons->addWidget(addHeader);
    headerButtons->addWidget(removeHeader);
    headerButtons->addStretch();
    auto* headerRow = new QHBoxLayout;
    headerRow->addWidget(m_headers, 1);
    headerRow->addLayout(headerButtons);
    form->addRow(tr("Headers"), headerRow);
    auto* sentRow = new QHBoxLayout;
    sentRow->addWidget(m_sent, 1);
    sentRow->addWidget(m_optionsButton, 0, Qt::AlignTop);
    form->addRow(tr("Also sent"), sentRow);
    form->addRow(tr("Body"), m_body);
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(m_bodyFile, 1);
    fileRow->addWidget(browse);
    form->addRow(QString(), fileRow);
    auto* keyRow = new QHBoxLayout;
    keyRow->addWidget(m_keyMode);
    keyRow->addWidget(m_keyValue, 1);
    form->addRow(tr("Idempotency key"), keyRow);
    auto* repeatRow = new QHBoxLayout;
    repeatRow->addWidget(m_repeat, 1);
    repeatRow->addWidget(m_concurrency, 1);
    form->addRow(tr("Run N×"), repeatRow);
    form->addRow(tr("Pace"), m_interval);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(form);
    layout->addStretch(1); // a taller dock leaves the room below the form

    connect(m_target, &QComboBox::currentIndexChanged, this, &RequestEditor::onTargetChanged);
    connect(m_route, &QComboBox::activated, this, &RequestEditor::pickRoute);
    const auto edited = [this] {
        m_scenarioNote.clear(); // the user took over
        updateHint();
    };
    connect(m_url, &QLineEdit::textEdited, this, edited);
    connect(m_method, &QComboBox::currentTextChanged, this, edited);
    setRequest(u"POST"_s, u"/api/orders"_s, true);
    m_body->setPlainText(u"{\"item\": \"book\", \"quantity\": 1}"_s);
    addHeaderRow(u"Content-Type"_s, u"application/json"_s);
    onKeyModeChanged();
    updateOptionsSummary();
}

void RequestEditor::setLabUrl(const QUrl& url)
{
    m_labUrl = url;
    onTargetChanged();
}

void RequestEditor::setLabScenario(const FaultScenario& scenario)
{
    const bool changed = scenario.name != m_scenario.name || scenario.source != m_scenario.source;
    m_scenario = scenario;
    if (!changed) {
        updateHint();
        return;
    }
    m_routes = LabRoutes::samples(scenario);
    {
        const QSignalBlocker block(m_route);
        m_route->clear();
        for (const RouteSample& s : std::as_const(m_routes))
            m_route->addItem(s.label());
    }
    m_scenarioNote.clear();
    if (targetsLab() && !m_routes.isEmpty()
        && !LabRoutes::matches(scenario, m_method->currentText(), m_url->text().trimmed())) {
        pickRoute(0);
        m_scenarioNote = tr("The request is now %1, the first route of %2.").arg(m_routes.first().label(), scenario.name);
    }
    updateHint();
}

bool RequestEditor::targetsLab() const
{
    return m_target->currentIndex() == 0;
}

bool RequestEditor::observesClient() const
{
    return m_target->currentIndex() == 2 || m_target->currentIndex() == 3;
}

bool RequestEditor::observesAsProxy() const
{
    return m_target->currentIndex() == 3;
}

void RequestEditor::setObservesAsProxy(bool proxy)
{
    m_target->setCurrentIndex(proxy ? 3 : 0);
}

void RequestEditor::setObservesClient(bool observe)
{
    m_target->setCurrentIndex(observe ? 2 : 0);
}

void RequestEditor::onTargetChanged()
{
    const bool lab = targetsLab();
    // Observing sends nothing: the request's own fields do not apply.
    for (QWidget* w : std::initializer_list<QWidget*> { m_method, m_url, m_route })
        w->setEnabled(!observesClient());
    m_base->setVisible(lab);
    m_base->setText(m_labUrl.isValid() ? m_labUrl.toDisplayString() : tr("(lab off)"));
    m_url->setPlaceholderText(lab ? tr("/path on the lab") : tr("https://api.example.com/v1/things"));
    m_route->setVisible(lab);
    m_routeLabel->setVisible(lab);
    if (m_form) // the proxy's address, CA and hosts only when observing as a proxy
        m_form->setRowVisible(m_proxyPanel, observesAsProxy());
    updateOptionsSummary();
    updateHint();
}

void RequestEditor::onKeyModeChanged()
{
    m_keyValue->setEnabled(m_keyMode->currentIndex() == 2);
}

void RequestEditor::addHeaderRow(const QString& name, const QString& value)
{
    const int row = m_headers->rowCount();
    m_headers->insertRow(row);
    m_headers->setItem(row, 0, new QTableWidgetItem(name));
    m_headers->setItem(row, 1, new QTableWidgetItem(value));
}

void RequestEditor::chooseBodyFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Send a File as the Body"));
    if (!path.isEmpty())
        m_bodyFile->setText(path);
}

int RequestEditor::repeatCount() const
{
    return m_repeat->value();
}

int RequestEditor::concurrency() const
{
    return m_concurrency->value();
}

void RequestEditor::setRepeatCount(int count)
{
    m_repeat->setValue(count);
}

void RequestEditor::setRequest(const QString& method, const QString& pathOrUrl, bool targetLab)
{
    m_target->setCurrentIndex(targetLab ? 0 : 1);
    {
        const QSignalBlocker block(m_method);
        m_method->setCurrentText(method);
    }
    m_url->setText(pathOrUrl);
    onTargetChanged();
}

void RequestEditor::setBody(const QString& body)
{
    m_body->setPlainText(body);
    m_bodyFile->clear();
}

void RequestEditor::pickRoute(int index)
{
    if (index < 0 || index >= m_routes.size())
        return;
    const RouteSample& s = m_routes.at(index);
    setRequest(s.method, s.path, true);
    setBody(QString::fromUtf8(s.body));
    if (!s.body.isEmpty()) {
        bool hasType = false;
        for (int row = 0; row < m_headers->rowCount(); ++row)
            hasType |= m_headers->item(row, 0) && m_headers->item(row, 0)->text().trimmed().compare(u"content-type"_s, Qt::CaseInsensitive) == 0;
        if (!hasType)
            addHeaderRow(u"Content-Type"_s, u"application/json"_s);
    }
    m_scenarioNote.clear();
    const QSignalBlocker block(m_route);
    m_route->setCurrentIndex(index);
    updateHint();
}

void RequestEditor::setOptions(const RequestOptions& options)
{
    m_options = options;
    updateOptionsSummary();
}

void RequestEditor::updateOptionsSummary()
{
    QString text = m_options.sentNames(targetsLab()).join(u", "_s);
    if (m_options.followRedirects)
        text += tr("; redirects followed");
    if (m_options.http2Allowed)
        text += tr("; HTTP/2 allowed");
    m_sent->setText(text);
}

QString RequestEditor::hint() const
{
    if (observesAsProxy()) {
        return tr("Run starts the proxy: copy the shell lines into another terminal and run any program there, "
                  "unchanged — its requests go through the lab, its HTTPS decrypted with the Retrylab CA, its retries "
                  "inferred live; Stop ends it and keeps the session.");
    }
    if (observesClient()) {
        if (!m_labUrl.isValid())
            return tr("Observing needs the built-in lab: switch it on in the lab panel.");
        const QString url = m_labUrl.toString(QUrl::StripTrailingSlash);
        return tr("Run starts observing: point any client at %1, e.g. curl --retry 3 %1%2 — its attempts and "
                  "retries fill the views as they arrive; Stop ends it and keeps the session.")
            .arg(url, m_url->text().trimmed().startsWith(u'/') ? m_url->text().trimmed() : u"/"_s);
    }
    const QString target = m_url->text().trimmed();
    if (targetsLab()) {
        if (m_scenario.name.isEmpty() || target.isEmpty())
            return m_scenarioNote;
        const QString problem = LabRoutes::noRouteProblem(m_scenario, m_method->currentText().trimmed(), target);
        return problem.isEmpty() ? m_scenarioNote : problem;
    }
    if (!target.isEmpty() && !target.contains(u"://"_s))
        return tr("No scheme: http://%1 is sent (as curl does).").arg(target);
    return {};
}

void RequestEditor::updateHint()
{
    const QString text = hint();
    const bool problem = targetsLab() && !m_scenario.name.isEmpty() && !m_url->text().trimmed().isEmpty()
        && !LabRoutes::matches(m_scenario, m_method->currentText().trimmed(), m_url->text().trimmed());
    m_hint->setText(text);
    m_hint->setStyleSheet(problem ? u"color: %1"_s.arg(ChartPalette::fromPalette(palette()).failure.name()) : QString());
    m_hint->setVisible(!text.isEmpty());
    // The route picker shows the route the request is, if it is one.
    int current = -1;
    for (int i = 0; i < m_routes.size(); ++i) {
        if (m_routes.at(i).method == m_method->currentText().trimmed().toUpper() && m_routes.at(i).path == m_url->text().trimmed())
            current = i;
    }
    {
        const QSignalBlocker block(m_route);
        m_route->setCurrentIndex(current);
    }
    emit hintChanged(text);
}

void RequestEditor::editOptions()
{
    auto* dialog = new RequestOptionsDialog(m_options, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { setOptions(dialog->options()); });
    dialog->open();
}

void RequestEditor::pasteCurl()
{
    if (m_curlDialog) {
        m_curlDialog->raise();
        return;
    }
    auto* dialog = new CurlPasteDialog(m_lastCurlText, this);
    m_curlDialog = dialog;
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::finished, this, [this, dialog](int result) {
        m_lastCurlText = dialog->text(); // kept, read or not, for the next paste
        if (result != QDialog::Accepted || !dialog->request().ok())
            return;
        applyCurl(dialog->request());
        if (dialog->loadCurlPreset()) {
            const CurlPreset::Result preset = CurlPreset::fromCommand(dialog->request());
            if (preset.policy)
                emit policyFromCurl(*preset.policy, tr("curl preset from the pasted command"));
        }
    });
    dialog->open();
}

CurlPasteDialog* RequestEditor::curlDialog() const
{
    return m_curlDialog;
}
