// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QUrl>

class InterceptAuthority;
class QProcessEnvironment;

// What makes common runtimes use the lab as their proxy and trust the Retrylab CA (issue 31 §2; facts in
// resilience-fleets.md §4b): the proxy variables in both cases, NO_PROXY without the intercepted hosts, the CA
// variables pointing to a bundle of the system's CAs and Retrylab's, and for Node 20 (which ignores the proxy
// variables) a preload of Retrylab's own that routes http, https and fetch through CONNECT tunnels.
class ProxyClientEnvironment
{
public:
    // Writes the trust bundle and the Node preload into DIR (made if needed) and builds the variables for a
    // proxy at PROXYURL intercepting INTERCEPT (empty: every host), starting from BASE's NO_PROXY and
    // NODE_OPTIONS. *ERROR and an empty environment when the files cannot be written.
    static ProxyClientEnvironment prepare(const QString& dir, const QUrl& proxyUrl, const InterceptAuthority& authority,
        const QStringList& intercept, const QProcessEnvironment& base, QString* error);

    bool isEmpty() const { return m_variables.isEmpty(); }
    const QList<QPair<QString, QString>>& variables() const { return m_variables; }
    QStringList unset() const { return m_unset; } // NO_PROXY/no_proxy when nothing is left of them
    void applyTo(QProcessEnvironment& environment) const;
    // `export NAME='value'` lines (and `unset` ones) to paste into a POSIX shell.
    QString shellLines() const;
    QString trustBundlePath() const { return m_bundle; }
    QString nodePreloadPath() const { return m_preload; }

    // NO_PROXY's entries that would keep an intercepted host from the proxy, removed (every entry when
    // INTERCEPT is empty).
    static QString noProxyWithout(const QString& noProxy, const QStringList& intercept);
    // The variables' names, in the order they are set: for reports.
    QStringList names() const;

private:
    QList<QPair<QString, QString>> m_variables;
    QStringList m_unset;
    QString m_bundle;
    QString m_preload;
};
