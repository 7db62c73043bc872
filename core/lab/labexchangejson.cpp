// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/labexchangejson.h"

#include "http/secretheaders.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("lab", text); }

QJsonValue optionalMs(const std::optional<qint64>& ms)
{
    return ms ? QJsonValue(*ms) : QJsonValue();
}

QJsonValue textOrNull(const QString& text)
{
    return text.isEmpty() ? QJsonValue() : QJsonValue(text);
}

QJsonArray headersToJson(const HttpHeaderList& headers, const LabExchangeJson::HeaderFilter& filter)
{
    QJsonArray out;
    for (const auto& [name, value] : headers) {
        const QByteArray shown = filter ? filter(name, value) : value;
        out.append(QJsonArray { QString::fromUtf8(name), QString::fromUtf8(shown) });
    }
    return out;
}

// Reads the fields of one exchange, stopping at the first problem.
class Fields
{
public:
    Fields(const QJsonObject& o, QString* problem)
        : m_o(o)
        , m_problem(problem)
    {
    }
    bool ok() const { return m_ok; }

    bool fail(const QString& key, const QString& message)
    {
        if (m_ok)
            *m_problem = key + u": "_s + message;
        m_ok = false;
        return false;
    }
    // An integer from MIN to MAX; absent or null leaves OUT as it was.
    template<typename T>
    void integer(const QString& key, T* out, qint64 min, qint64 max)
    {
        const QJsonValue v = m_o.value(key);
        if (v.isUndefined() || v.isNull())
            return;
        const double d = v.toDouble(std::nan(""));
        if (!v.isDouble() || !(d >= double(min) && d <= double(max)) || d != std::floor(d)) {
            fail(key, tr("must be an integer from %1 to %2").arg(min).arg(max));
            return;
        }
        *out = T(qint64(d));
    }
    void ms(const QString& key, std::optional<qint64>* out)
    {
        qint64 v = 0;
        const QJsonValue j = m_o.value(key);
        if (j.isUndefined() || j.isNull())
            return;
        integer(key, &v, -(1LL << 52), 1LL << 52);
        if (m_ok)
            *out = v;
    }
    void text(const QString& key, QString* out)
    {
        const QJsonValue v = m_o.value(key);
        if (v.isUndefined() || v.isNull())
            return;
        if (!v.isString())
            fail(key, tr("must be a string"));
        else
            *out = v.toString();
    }
    void bytes(const QString& key, QByteArray* out)
    {
        QString s;
        text(key, &s);
        *out = s.toUtf8();
    }
    void boolean(const QString& key, bool* out)
    {
        const QJsonValue v = m_o.value(key);
        if (v.isUndefined() || v.isNull())
            return;
        if (!v.isBool())
            fail(key, tr("must be true or false"));
        else
            *out = v.toBool();
    }
    void headers(const QString& key, HttpHeaderList* out)
    {
        const QJsonValue v = m_o.value(key);
        if (v.isUndefined() || v.isNull())
            return;
        if (!v.isArray()) {
            fail(key, tr("must be a list of [name, value] pairs"));
            return;
        }
        const QJsonArray list = v.toArray();
        for (qsizetype i = 0; i < list.size(); ++i) {
            const QJsonArray pair = list.at(i).toArray();
            if (pair.size() != 2 || !pair.at(0).isString() || !pair.at(1).isString()) {
                fail(key + u'[' + QString::number(i) + u']', tr("must be a [name, value] pair of strings"));
                return;
            }
            out->append({ pair.at(0).toString().toUtf8(), pair.at(1).toString().toUtf8() });
        }
    }

private:
    const QJsonObject& m_o;
    QString* m_problem;
    bool m_ok = true;
};

const QStringList& knownKeys()
{
    static const QStringList keys { u"request"_s, u"connection"_s, u"client_address"_s, u"client_port"_s,
        u"request_on_connection"_s, u"arrived_ms"_s, u"request_complete_ms"_s, u"method"_s, u"target"_s,
        u"origin"_s, u"http_version"_s, u"request_headers"_s, u"request_body_size"_s, u"request_body_sha256"_s,
        u"request_body_base64"_s, u"request_body_truncated"_s, u"route"_s, u"step"_s, u"applied"_s, u"note"_s,
        u"upstream"_s, u"upstream_tls_verified"_s, u"upstream_connected_ms"_s, u"upstream_tls_ms"_s,
        u"upstream_first_byte_ms"_s, u"upstream_end_ms"_s, u"upstream_error"_s, u"status"_s, u"response_headers"_s,
        u"response_body_bytes"_s, u"response_started_ms"_s, u"response_finished_ms"_s, u"client_gone_ms"_s,
        u"lab_closed_ms"_s, u"outcome"_s };
    return keys;
}

} // namespace

namespace LabExchangeJson {

QJsonObject toJson(const LabExchange& x, const HeaderFilter& filter)
{
    QJsonObject o {
        { u"request"_s, qint64(x.requestId) },
        { u"connection"_s, qint64(x.connectionId) },
        { u"client_address"_s, x.clientAddress },
        { u"client_port"_s, int(x.clientPort) },
        { u"request_on_connection"_s, x.requestOnConnection },
        { u"arrived_ms"_s, x.arrivedMs },
        { u"request_complete_ms"_s, optionalMs(x.requestCompleteMs) },
        { u"method"_s, QString::fromUtf8(x.method) },
        { u"target"_s, QString::fromUtf8(x.target) },
        { u"http_version"_s, u"1.%1"_s.arg(x.minorVersion) },
        { u"request_headers"_s, headersToJson(x.requestHeaders, filter) },
        { u"request_body_size"_s, x.requestBodySize },
        { u"request_body_sha256"_s, textOrNull(QString::fromLatin1(x.requestBodySha256)) },
        { u"route"_s, textOrNull(x.route) },
        { u"step"_s, textOrNull(x.stepKind) },
        { u"applied"_s, x.applied },
        { u"note"_s, textOrNull(x.note) },
        { u"upstream"_s, textOrNull(x.upstream) },
        { u"upstream_connected_ms"_s, optionalMs(x.upstreamConnectedMs) },
        { u"upstream_tls_ms"_s, optionalMs(x.upstreamTlsMs) },
        { u"upstream_first_byte_ms"_s, optionalMs(x.upstreamFirstByteMs) },
        { u"upstream_end_ms"_s, optionalMs(x.upstreamEndMs) },
        { u"upstream_error"_s, textOrNull(x.upstreamError) },
        { u"status"_s, x.status ? QJsonValue(x.status) : QJsonValue() },
        { u"response_headers"_s, headersToJson(x.responseHeaders, filter) },
        { u"response_body_bytes"_s, x.responseBodyBytes },
        { u"response_started_ms"_s, optionalMs(x.responseStartedMs) },
        { u"response_finished_ms"_s, optionalMs(x.responseFinishedMs) },
        { u"client_gone_ms"_s, optionalMs(x.clientGoneMs) },
        { u"lab_closed_ms"_s, optionalMs(x.labClosedMs) },
        { u"outcome"_s, x.outcome },
    };
    if (!x.upstream.isEmpty())
        o.insert(u"upstream_tls_verified"_s, x.upstreamTlsVerified ? QJsonValue(*x.upstreamTlsVerified) : QJsonValue());
    if (!x.origin.isEmpty())
        o.insert(u"origin"_s, x.origin);
    if (!x.requestBody.isEmpty() || x.requestBodyTruncated) {
        o.insert(u"request_body_base64"_s, QString::fromLatin1(x.requestBody.toBase64()));
        o.insert(u"request_body_truncated"_s, x.requestBodyTruncated);
    }
    return o;
}

bool fromJson(const QJsonObject& o, LabExchange* out, QString* problem)
{
    for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
        if (!knownKeys().contains(it.key()) && !it.key().startsWith(u'_')) {
            *problem = it.key() + u": "_s + tr("unknown field");
            return false;
        }
    }
    LabExchange x;
    Fields f(o, problem);
    constexpr qint64 kMaxId = 1LL << 53;
    f.integer(u"request"_s, &x.requestId, 0, kMaxId);
    f.integer(u"connection"_s, &x.connectionId, 0, kMaxId);
    f.text(u"client_address"_s, &x.clientAddress);
    f.integer(u"client_port"_s, &x.clientPort, 0, 65535);
    f.integer(u"request_on_connection"_s, &x.requestOnConnection, 1, std::numeric_limits<int>::max());
    f.integer(u"arrived_ms"_s, &x.arrivedMs, -(1LL << 52), 1LL << 52);
    f.ms(u"request_complete_ms"_s, &x.requestCompleteMs);
    f.bytes(u"method"_s, &x.method);
    f.bytes(u"target"_s, &x.target);
    f.text(u"origin"_s, &x.origin);
    QString version = u"1.1"_s;
    f.text(u"http_version"_s, &version);
    if (version == u"1.1"_s || version == u"1.0"_s)
        x.minorVersion = version == u"1.1"_s ? 1 : 0;
    else
        f.fail(u"http_version"_s, tr("must be \"1.0\" or \"1.1\""));
    f.headers(u"request_headers"_s, &x.requestHeaders);
    f.integer(u"request_body_size"_s, &x.requestBodySize, 0, 1LL << 52);
    f.bytes(u"request_body_sha256"_s, &x.requestBodySha256);
    QString body;
    f.text(u"request_body_base64"_s, &body);
    if (!body.isEmpty()) {
        const auto decoded = QByteArray::fromBase64Encoding(body.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded)
            f.fail(u"request_body_base64"_s, tr("is not base64"));
        else
            x.requestBody = *decoded;
    }
    f.boolean(u"request_body_truncated"_s, &x.requestBodyTruncated);
    f.text(u"route"_s, &x.route);
    f.text(u"step"_s, &x.stepKind);
    f.boolean(u"applied"_s, &x.applied);
    f.text(u"note"_s, &x.note);
    f.text(u"upstream"_s, &x.upstream);
    if (o.value(u"upstream_tls_verified"_s).isBool())
        x.upstreamTlsVerified = o.value(u"upstream_tls_verified"_s).toBool();
    else if (!o.value(u"upstream_tls_verified"_s).isNull() && !o.value(u"upstream_tls_verified"_s).isUndefined())
        f.fail(u"upstream_tls_verified"_s, tr("must be true, false or null"));
    f.ms(u"upstream_connected_ms"_s, &x.upstreamConnectedMs);
    f.ms(u"upstream_tls_ms"_s, &x.upstreamTlsMs);
    f.ms(u"upstream_first_byte_ms"_s, &x.upstreamFirstByteMs);
    f.ms(u"upstream_end_ms"_s, &x.upstreamEndMs);
    f.text(u"upstream_error"_s, &x.upstreamError);
    f.integer(u"status"_s, &x.status, 100, 999);
    f.headers(u"response_headers"_s, &x.responseHeaders);
    f.integer(u"response_body_bytes"_s, &x.responseBodyBytes, 0, 1LL << 52);
    f.ms(u"response_started_ms"_s, &x.responseStartedMs);
    f.ms(u"response_finished_ms"_s, &x.responseFinishedMs);
    f.ms(u"client_gone_ms"_s, &x.clientGoneMs);
    f.ms(u"lab_closed_ms"_s, &x.labClosedMs);
    f.text(u"outcome"_s, &x.outcome);
    if (f.ok() && x.outcome.isEmpty())
        f.fail(u"outcome"_s, tr("is required"));
    if (!f.ok())
        return false;
    *out = std::move(x);
    return true;
}

HeaderFilter secretRedactor(const QByteArray& salt)
{
    return [salt](QByteArrayView name, QByteArrayView value) {
        return isSecretHeader(name) ? SecretHeaders::redactedValue(value, salt) : value.toByteArray();
    };
}

} // namespace LabExchangeJson
