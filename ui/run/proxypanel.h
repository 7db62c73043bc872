// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/proxyhost.h"

#include <QList>
#include <QWidget>

class QLabel;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

// Send to ▸ Observe a client as its proxy (issue 31 §3): where the proxy listens, the Retrylab CA's
// fingerprint, a button that copies the shell lines making a terminal's programs use the proxy and trust the
// CA, and the hosts seen so far, each with a tick: unticked, its tunnels are relayed untouched.
class ProxyPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ProxyPanel(QWidget* parent = nullptr);

    // ADDRESS empty: the proxy is not running (it starts with Run).
    void showProxy(const QString& address, const QString& fingerprint, const QString& caPath, const QString& shellLines);
    void setHosts(const QList<ProxyHost>& hosts);
    QString shellLines() const { return m_shellLines; }
    QTreeWidget* hostList() const { return m_hosts; }

signals:
    void interceptToggled(const QString& host, bool intercepted);
    void copied(); // the shell lines went to the clipboard

private:
    void onItemChanged(QTreeWidgetItem* item, int column);

    QLabel* m_address;
    QLabel* m_fingerprint;
    QPushButton* m_copy;
    QTreeWidget* m_hosts;
    QString m_shellLines;
    bool m_filling = false;
};
