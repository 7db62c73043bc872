// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/proxypanel.h"

#include <QApplication>
#include <QClipboard>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QTreeWidget>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace {

enum Column { Host, Tunnels, Requests, ColumnCount };

QString hostOf(const QString& authority)
{
    return QUrl(u"//"_s + authority).host();
}

} // namespace

ProxyPanel::ProxyPanel(QWidget* parent)
    : QWidget(parent)
    , m_address(new QLabel(this))
    , m_fingerprint(new QLabel(this))
    , m_copy(new QPushButton(tr("Copy shell lines"), this))
    , m_hosts(new QTreeWidget(this))
{
    m_address->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_fingerprint->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_fingerprint->setWordWrap(true);
    QFont mono = m_fingerprint->font();
    mono.setFamily(u"monospace"_s);
    mono.setStyleHint(QFont::Monospace);
    mono.setPointSizeF(mono.pointSizeF() * 0.9);
    m_fingerprint->setFont(mono);
    m_copy->setToolTip(tr("export HTTPS_PROXY=… and the CA variables (SSL_CERT_FILE, NODE_EXTRA_CA_CERTS…), and "
                          "NODE_OPTIONS for Node: paste them into another terminal, then run any program there"));
    m_hosts->setColumnCount(ColumnCount);
    m_hosts->setHeaderLabels({ tr("Host (tick: intercept)"), tr("Tunnels"), tr("Requests") });
    m_hosts->setRootIsDecorated(false);
    m_hosts->setUniformRowHeights(true);
    m_hosts->header()->setStretchLastSection(false);
    m_hosts->header()->setSectionResizeMode(Host, QHeaderView::Stretch);
    m_hosts->header()->setSectionResizeMode(Tunnels, QHeaderView::ResizeToContents);
    m_hosts->header()->setSectionResizeMode(Requests, QHeaderView::ResizeToContents);
    m_hosts->setToolTip(tr("Unticked, a host's tunnels are relayed untouched (neither decrypted nor observed); "
                           "a tick applies to the host on every port"));
    m_hosts->setMinimumHeight(fontMetrics().height() * 5);
    m_hosts->setMaximumHeight(fontMetrics().height() * 9);

    auto* copyRow = new QHBoxLayout;
    copyRow->setContentsMargins(0, 0, 0, 0);
    copyRow->addWidget(m_copy);
    copyRow->addStretch(1);
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Proxy"), m_address);
    form->addRow(tr("CA SHA-256"), m_fingerprint);
    form->addRow(QString(), copyRow);
    form->addRow(tr("Hosts"), m_hosts);

    connect(m_copy, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(m_shellLines);
        emit copied();
    });
    connect(m_hosts, &QTreeWidget::itemChanged, this, &ProxyPanel::onItemChanged);
    showProxy({}, {}, {}, {});
}

void ProxyPanel::showProxy(const QString& address, const QString& fingerprint, const QString& caPath, const QString& shellLines)
{
    m_shellLines = shellLines;
    m_address->setText(address.isEmpty() ? tr("starts with Run, on 127.0.0.1") : address);
    m_fingerprint->setText(fingerprint.isEmpty() ? tr("(the Retrylab CA is made on first use)") : fingerprint);
    m_fingerprint->setToolTip(caPath);
    m_copy->setEnabled(!shellLines.isEmpty());
}

void ProxyPanel::setHosts(const QList<ProxyHost>& hosts)
{
    m_filling = true;
    for (const ProxyHost& host : hosts) {
        QList<QTreeWidgetItem*> found = m_hosts->findItems(host.authority, Qt::MatchExactly, Host);
        QTreeWidgetItem* item = found.isEmpty() ? new QTreeWidgetItem(m_hosts) : found.first();
        item->setText(Host, host.authority);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Host, host.intercepted ? Qt::Checked : Qt::Unchecked);
        QString tip = host.intercepted ? tr("intercepted: decrypted, its requests observed")
                                       : tr("relayed untouched: not decrypted, not observed");
        if (!host.mappedTo.isEmpty())
            tip += tr("; mapped to %1").arg(host.mappedTo);
        if (host.failures)
            tip += u'\n' + tr("%n tunnel(s) failed; the last: %1", nullptr, host.failures).arg(host.lastProblem);
        item->setToolTip(Host, tip);
        // A host whose tunnels fail (a client refusing the CA, say) stands out.
        item->setForeground(Host, host.failures ? palette().brush(QPalette::Active, QPalette::Highlight) : palette().brush(QPalette::Text));
        item->setIcon(Host, host.failures ? style()->standardIcon(QStyle::SP_MessageBoxWarning) : QIcon());
        item->setText(Tunnels, QString::number(host.tunnels));
        item->setText(Requests, QString::number(host.requests));
        item->setTextAlignment(Tunnels, Qt::AlignRight | Qt::AlignVCenter);
        item->setTextAlignment(Requests, Qt::AlignRight | Qt::AlignVCenter);
    }
    m_filling = false;
}

void ProxyPanel::onItemChanged(QTreeWidgetItem* item, int column)
{
    if (m_filling || column != Host)
        return;
    emit interceptToggled(hostOf(item->text(Host)), item->checkState(Host) == Qt::Checked);
}
