// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/proxyclientenvironment.h"

#include "intercept/interceptauthority.h"
#include "lab/forwardproxyoptions.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcessEnvironment>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace {

QString shellQuoted(const QString& value)
{
    QString quoted = value;
    quoted.replace(u"'"_s, u"'\\''"_s);
    return u'\'' + quoted + u'\'';
}

// NODE_OPTIONS takes double-quoted values for paths with spaces.
QString nodeOptionQuoted(const QString& path)
{
    if (!path.contains(u' ') && !path.contains(u'"') && !path.contains(u'\\'))
        return path;
    QString quoted = path;
    quoted.replace(u"\\"_s, u"\\\\"_s).replace(u"\""_s, u"\\\""_s);
    return u'"' + quoted + u'"';
}

} // namespace

QString ProxyClientEnvironment::noProxyWithout(const QString& noProxy, const QStringList& intercept)
{
    if (intercept.isEmpty())
        return {};
    QStringList kept;
    for (const QString& raw : noProxy.split(u',', Qt::SkipEmptyParts)) {
        const QString entry = raw.trimmed();
        const QString bare = entry.startsWith(u'.') ? entry.mid(1) : entry;
        bool hides = entry == u"*"_s;
        for (const QString& pattern : intercept) {
            const QString host = pattern.startsWith(u"*."_s) ? pattern.mid(2) : pattern;
            // The entry covers the intercepted host (it or a parent domain), or lies under an intercepted pattern.
            if (hostPatternMatches(bare, host) || host.endsWith(u'.' + bare, Qt::CaseInsensitive)
                || hostPatternMatches(pattern, bare))
                hides = true;
        }
        if (!hides)
            kept << entry;
    }
    return kept.join(u',');
}

ProxyClientEnvironment ProxyClientEnvironment::prepare(const QString& dir, const QUrl& proxyUrl,
    const InterceptAuthority& authority, const QStringList& intercept, const QProcessEnvironment& base, QString* error)
{
    ProxyClientEnvironment env;
    if (!QDir().mkpath(dir)) {
        *error = QCoreApplication::translate("proxy", "cannot make %1").arg(dir);
        return {};
    }
    env.m_bundle = QDir(dir).filePath(u"trust-bundle.pem"_s);
    if (!authority.writeTrustBundle(env.m_bundle, error))
        return {};
    env.m_preload = QDir(dir).filePath(u"node-preload.cjs"_s);
    QFile script(u":/retrylab/proxy/node-preload.cjs"_s);
    QSaveFile out(env.m_preload);
    if (!script.open(QIODevice::ReadOnly) || !out.open(QIODevice::WriteOnly) || out.write(script.readAll()) < 0 || !out.commit()) {
        *error = QCoreApplication::translate("proxy", "cannot write %1").arg(env.m_preload);
        return {};
    }
    const QString proxy = proxyUrl.toString(QUrl::StripTrailingSlash);
    for (const QString& name : { u"HTTP_PROXY"_s, u"http_proxy"_s, u"HTTPS_PROXY"_s, u"https_proxy"_s })
        env.m_variables << qMakePair(name, proxy);
    const QString noProxy = base.value(u"NO_PROXY"_s, base.value(u"no_proxy"_s));
    const QString kept = noProxyWithout(noProxy, intercept);
    if (kept.isEmpty()) {
        env.m_unset << u"NO_PROXY"_s << u"no_proxy"_s;
    } else {
        env.m_variables << qMakePair(u"NO_PROXY"_s, kept) << qMakePair(u"no_proxy"_s, kept);
    }
    for (const QString& name : { u"SSL_CERT_FILE"_s, u"CURL_CA_BUNDLE"_s, u"REQUESTS_CA_BUNDLE"_s,
             u"NODE_EXTRA_CA_CERTS"_s, u"AWS_CA_BUNDLE"_s })
        env.m_variables << qMakePair(name, env.m_bundle);
    env.m_variables << qMakePair(u"RETRYLAB_PROXY_URL"_s, proxy);
    const QString nodeOptions = base.value(u"NODE_OPTIONS"_s);
    env.m_variables << qMakePair(u"NODE_OPTIONS"_s,
        (nodeOptions.isEmpty() ? QString() : nodeOptions + u' ') + u"--require "_s + nodeOptionQuoted(env.m_preload));
    return env;
}

void ProxyClientEnvironment::applyTo(QProcessEnvironment& environment) const
{
    for (const QString& name : m_unset)
        environment.remove(name);
    for (const auto& [name, value] : m_variables)
        environment.insert(name, value);
}

QString ProxyClientEnvironment::shellLines() const
{
    QString lines;
    for (const QString& name : m_unset)
        lines += u"unset "_s + name + u'\n';
    for (const auto& [name, value] : m_variables)
        lines += u"export "_s + name + u'=' + shellQuoted(value) + u'\n';
    return lines;
}

QStringList ProxyClientEnvironment::names() const
{
    QStringList list;
    for (const auto& variable : m_variables)
        list << variable.first;
    for (const QString& name : m_unset)
        list << u"-"_s + name;
    return list;
}
