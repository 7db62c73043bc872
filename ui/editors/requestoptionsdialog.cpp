// SPDX-License-Identifier: GPL-3.0-or-later
#include "editors/requestoptionsdialog.h"

#include "engine/requestheaders.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpressionValidator>
#include <QTableWidget>
#include <QUrl>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {

enum Column { Send, Name, Value, WhenOff, ColumnCount };
enum AttemptIdChoice { LabOnly, Always, Never };

QString whenOff(const QByteArray& name)
{
    const QByteArray lower = name.toLower();
    if (lower == "host")
        return RequestOptionsDialog::tr("always sent (from the URL)");
    if (lower == "accept")
        return RequestOptionsDialog::tr("not sent");
    const QString qt = QString::fromLatin1(qtOwnHeaderValue(name, QUrl()));
    if (lower == "accept-encoding")
        return RequestOptionsDialog::tr("Qt sends \"%1\" (answers are then recorded compressed)").arg(qt);
    if (lower == "accept-language")
        return RequestOptionsDialog::tr("Qt sends \"%1\" (from the system locale)").arg(qt);
    return RequestOptionsDialog::tr("Qt sends \"%1\"").arg(qt);
}

} // namespace

RequestOptionsDialog::RequestOptionsDialog(const RequestOptions& options, QWidget* parent)
    : QDialog(parent)
    , m_table(new QTableWidget(0, ColumnCount, this))
    , m_attemptId(new QButtonGroup(this))
    , m_attemptIdHeader(new QLineEdit(QString::fromLatin1(options.attemptIdHeader), this))
    , m_redirects(new QCheckBox(tr("Follow redirects (each hop is recorded as a new attempt)"), this))
    , m_http2(new QCheckBox(tr("Allow HTTP/2 (negotiated over TLS; off: HTTP/1.1, as the lab speaks)"), this))
{
    setWindowTitle(tr("Request Options"));
    m_table->setHorizontalHeaderLabels({ tr("Send"), tr("Header"), tr("Value"), tr("When turned off") });
    m_table->verticalHeader()->hide();
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    for (const SentHeader& h : defaultRequestHeaders(QUrl(u"http://host/"_s))) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        auto* send = new QTableWidgetItem;
        const bool host = h.name.compare("host", Qt::CaseInsensitive) == 0;
        send->setFlags(host ? Qt::ItemIsUserCheckable : Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
        send->setCheckState(!options.omittedDefaults.contains(h.name.toLower()) ? Qt::Checked : Qt::Unchecked);
        send->setData(Qt::UserRole, h.name);
        m_table->setItem(row, Send, send);
        m_table->setItem(row, Name, new QTableWidgetItem(QString::fromLatin1(h.name)));
        m_table->setItem(row, Value, new QTableWidgetItem(host ? tr("from the URL") : QString::fromLatin1(h.value)));
        m_table->setItem(row, WhenOff, new QTableWidgetItem(whenOff(h.name)));
    }
    m_table->resizeColumnsToContents();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->resizeRowsToContents();
    int rows = m_table->horizontalHeader()->sizeHint().height() + 2 * m_table->frameWidth();
    for (int r = 0; r < m_table->rowCount(); ++r)
        rows += m_table->rowHeight(r);
    m_table->setMinimumHeight(rows); // all six, no scrolling

    auto* note = new QLabel(tr("Qt 6.4 adds Connection, Accept-Encoding, Accept-Language, User-Agent and Host to every "
                               "request that lacks them (or has them empty), so they can be changed — add the header "
                               "in the Headers table — but not left out. Turned off here, Qt's own value goes out, and "
                               "the attempt log shows it."),
        this);
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);

    auto* labOnly = new QRadioButton(tr("Only to the built-in lab"), this);
    auto* always = new QRadioButton(tr("Always"), this);
    auto* never = new QRadioButton(tr("Never"), this);
    m_attemptId->addButton(labOnly, LabOnly);
    m_attemptId->addButton(always, Always);
    m_attemptId->addButton(never, Never);
    const AttemptIdChoice choice = !options.attemptId ? LabOnly : *options.attemptId ? Always : Never;
    m_attemptId->button(choice)->setChecked(true);
    m_attemptIdHeader->setValidator(new QRegularExpressionValidator(QRegularExpression(u"[!#$%&'*+.^_`|~0-9A-Za-z-]+"_s), this));
    auto* idRow = new QHBoxLayout;
    idRow->addWidget(labOnly);
    idRow->addWidget(always);
    idRow->addWidget(never);
    idRow->addStretch();
    auto* idHelp = new QLabel(tr("A new UUID per attempt: the lab's events name it, so they are matched to attempts."), this);
    idHelp->setWordWrap(true);
    idHelp->setForegroundRole(QPalette::PlaceholderText);
    auto* form = new QFormLayout;
    form->addRow(tr("Attempt-id header"), idRow);
    form->addRow(tr("Its name"), m_attemptIdHeader);
    form->addRow(QString(), idHelp);

    m_redirects->setChecked(options.followRedirects);
    m_http2->setChecked(options.http2Allowed);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_attemptIdHeader, &QLineEdit::textChanged, this, [this, buttons] {
        buttons->button(QDialogButtonBox::Ok)->setEnabled(!m_attemptIdHeader->text().isEmpty());
    });

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Sent on every attempt besides the headers you add:"), this));
    layout->addWidget(m_table, 1);
    layout->addWidget(note);
    layout->addLayout(form);
    layout->addWidget(m_redirects);
    layout->addWidget(m_http2);
    layout->addWidget(buttons);
    const int em = fontMetrics().horizontalAdvance(u'M');
    resize(74 * em, minimumSizeHint().height());
}

void RequestOptionsDialog::showEvent(QShowEvent* event)
{
    // The wrapping notes need more height at a narrow width than the layout's minimum says.
    if (const int need = layout()->totalHeightForWidth(width()); need > height()) {
        setMinimumHeight(need);
        resize(width(), need);
    }
    QDialog::showEvent(event);
}

RequestOptions RequestOptionsDialog::options() const
{
    RequestOptions o;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const QTableWidgetItem* send = m_table->item(row, Send);
        if (send->checkState() != Qt::Checked)
            o.omittedDefaults.append(send->data(Qt::UserRole).toByteArray().toLower());
    }
    switch (m_attemptId->checkedId()) {
    case Always:
        o.attemptId = true;
        break;
    case Never:
        o.attemptId = false;
        break;
    default:
        break;
    }
    o.attemptIdHeader = m_attemptIdHeader->text().toLatin1();
    o.followRedirects = m_redirects->isChecked();
    o.http2Allowed = m_http2->isChecked();
    return o;
}
