// SPDX-License-Identifier: GPL-3.0-or-later
#include "editors/requesteditor.h"

#include "editors/curlcommand.h"
#include "http/targeturl.h"
#include "run/runplan.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

RequestEditor::RequestEditor(QWidget* parent)
    : QWidget(parent)
    , m_target(new QComboBox(this))
    , m_base(new QLabel(this))
    , m_url(new QLineEdit(this))
    , m_method(new QComboBox(this))
    , m_headers(new QTableWidget(0, 2, this))
    , m_body(new QPlainTextEdit(this))
    , m_bodyFile(new QLineEdit(this))
    , m_keyMode(new QComboBox(this))
    , m_keyValue(new QLineEdit(this))
    , m_repeat(new QSpinBox(this))
    , m_concurrency(new QSpinBox(this))
{
    m_target->addItem(tr("Built-in fault lab"));
    m_target->addItem(tr("Another server (URL)"));
    m_method->setEditable(true);
    m_method->addItems({ u"GET"_s, u"HEAD"_s, u"POST"_s, u"PUT"_s, u"PATCH"_s, u"DELETE"_s });
    m_method->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_base->setForegroundRole(QPalette::PlaceholderText);

    m_headers->setHorizontalHeaderLabels({ tr("Header"), tr("Value") });
    m_headers->horizontalHeader()->setStretchLastSection(true);
    m_headers->verticalHeader()->hide();
    m_headers->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_headers->setMaximumHeight(fontMetrics().height() * 6);
    auto* addHeader = new QToolButton(this);
    addHeader->setText(tr("Add"));
    addHeader->setToolTip(tr("Add a request header"));
    connect(addHeader, &QToolButton::clicked, this, [this] { addHeaderRow(); });
    auto* removeHeader = new QToolButton(this);
    removeHeader->setText(tr("Remove"));
    removeHeader->setToolTip(tr("Remove the selected header"));
    connect(removeHeader, &QToolButton::clicked, this, [this] {
        if (m_headers->currentRow() >= 0)
            m_headers->removeRow(m_headers->currentRow());
    });

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
    connect(m_repeat, &QSpinBox::valueChanged, this, &RequestEditor::repeatChanged);
    connect(m_concurrency, &QSpinBox::valueChanged, this, &RequestEditor::repeatChanged);

    auto* paste = new QPushButton(tr("Paste curl command…"), this);
    connect(paste, &QPushButton::clicked, this, &RequestEditor::pasteCurl);

    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto* targetRow = new QHBoxLayout;
    targetRow->addWidget(m_target, 1);
    targetRow->addWidget(paste);
    form->addRow(tr("Send to"), targetRow);
    auto* urlRow = new QHBoxLayout;
    urlRow->setSpacing(2);
    urlRow->addWidget(m_method);
    urlRow->addWidget(m_base);
    urlRow->addWidget(m_url, 1);
    form->addRow(tr("Request"), urlRow);
    auto* headerButtons = new QVBoxLayout;
    headerButtons->addWidget(addHeader);
    headerButtons->addWidget(removeHeader);
    headerButtons->addStretch();
    auto* headerRow = new QHBoxLayout;
    headerRow->addWidget(m_headers, 1);
    headerRow->addLayout(headerButtons);
    form->addRow(tr("Headers"), headerRow);
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

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(form);

    connect(m_target, &QComboBox::currentIndexChanged, this, &RequestEditor::onTargetChanged);
    setRequest(u"POST"_s, u"/api/orders"_s, true);
    m_body->setPlainText(u"{\"item\": \"book\", \"quantity\": 1}"_s);
    addHeaderRow(u"Content-Type"_s, u"application/json"_s);
    onKeyModeChanged();
}

void RequestEditor::setLabUrl(const QUrl& url)
{
    m_labUrl = url;
    onTargetChanged();
}

void RequestEditor::onTargetChanged()
{
    const bool lab = m_target->currentIndex() == 0;
    m_base->setVisible(lab);
    m_base->setText(m_labUrl.isValid() ? m_labUrl.toDisplayString() : tr("(lab off)"));
    m_url->setPlaceholderText(lab ? tr("/path on the lab") : tr("https://api.example.com/v1/things"));
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
    m_method->setCurrentText(method);
    m_url->setText(pathOrUrl);
    onTargetChanged();
}

void RequestEditor::applyCurl(const CurlCommand& command)
{
    const QUrl url(command.url);
    const bool lab = m_labUrl.isValid() && url.port() == m_labUrl.port()
        && (url.host() == QLatin1String("127.0.0.1") || url.host() == QLatin1String("localhost"));
    QString target = command.url;
    if (lab)
        target = url.path(QUrl::FullyEncoded) + (url.hasQuery() ? u"?"_s + url.query(QUrl::FullyEncoded) : QString());
    setRequest(command.method, target, lab);
    m_headers->setRowCount(0);
    for (const auto& [name, value] : command.headers)
        addHeaderRow(QString::fromLatin1(name), QString::fromUtf8(value));
    m_body->setPlainText(QString::fromUtf8(command.body));
    m_bodyFile->clear();
}

void RequestEditor::pasteCurl()
{
    bool ok = false;
    const QString text = QInputDialog::getMultiLineText(this, tr("Paste curl Command"),
        tr("A curl command line (method, URL, -H headers and -d body are read):"), QString(), &ok);
    if (!ok || text.trimmed().isEmpty())
        return;
    const CurlCommand command = CurlCommand::parse(text);
    if (!command.ok()) {
        QMessageBox::warning(this, tr("Paste curl Command"), tr("The command was not read: %1").arg(command.error));
        return;
    }
    applyCurl(command);
}

QString RequestEditor::fillPlan(RunPlan& plan) const
{
    static const QRegularExpression token(u"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"_s);
    RequestSpec& spec = plan.request;
    spec.method = m_method->currentText().trimmed().toUpper();
    if (!token.match(spec.method).hasMatch())
        return tr("The method \"%1\" is not an HTTP method token.").arg(spec.method);
    plan.targetLab = m_target->currentIndex() == 0;
    const QString target = m_url->text().trimmed();
    if (plan.targetLab) {
        plan.labPath = target.startsWith(u'/') ? target : u"/"_s + target;
    } else {
        const TargetUrl::Parsed url = TargetUrl::parse(target);
        if (!url.ok())
            return url.problem;
        spec.url = url.url;
    }
    spec.headers.clear();
    for (int row = 0; row < m_headers->rowCount(); ++row) {
        const QString name = m_headers->item(row, 0) ? m_headers->item(row, 0)->text().trimmed() : QString();
        const QString value = m_headers->item(row, 1) ? m_headers->item(row, 1)->text().trimmed() : QString();
        if (name.isEmpty() && value.isEmpty())
            continue;
        if (!token.match(name).hasMatch())
            return tr("Header row %1: \"%2\" is not a header name.").arg(row + 1).arg(name);
        spec.headers.append({ name.toLatin1(), value.toUtf8() });
    }
    if (!m_bodyFile->text().isEmpty()) {
        QFile file(m_bodyFile->text());
        if (!file.open(QIODevice::ReadOnly))
            return tr("The body file cannot be read: %1").arg(file.errorString());
        spec.body = file.readAll();
    } else {
        spec.body = m_body->toPlainText().toUtf8();
    }
    switch (m_keyMode->currentIndex()) {
    case 1:
        spec.keyMode = IdempotencyKeyMode::None;
        break;
    case 2:
        if (m_keyValue->text().trimmed().isEmpty())
            return tr("Give the idempotency key a value, or let the policy decide.");
        spec.keyMode = IdempotencyKeyMode::Value;
        spec.idempotencyKey = m_keyValue->text().trimmed();
        break;
    default:
        spec.keyMode = IdempotencyKeyMode::Auto;
        break;
    }
    plan.repeat = m_repeat->value();
    plan.concurrency = m_concurrency->value();
    return {};
}
