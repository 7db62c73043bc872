// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A HAR 1.2 structure check written from the specification (http://www.softwareishard.com/blog/har-12-spec/):
// every required member present with the right JSON type, timings non-negative except the optional
// blocked/dns/connect/ssl which may be -1, and time equal to the sum of the known timings.

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

#include <cmath>

namespace HarCheck {

inline void need(QStringList& p, const QJsonObject& o, const QString& path, const char* key, QJsonValue::Type type)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.type() != type)
        p << path + QLatin1Char('.') + QLatin1String(key) + QStringLiteral(": missing or wrong type");
}

inline void nameValues(QStringList& p, const QJsonArray& a, const QString& path)
{
    for (qsizetype i = 0; i < a.size(); ++i) {
        const QString item = path + QLatin1Char('[') + QString::number(i) + QLatin1Char(']');
        need(p, a.at(i).toObject(), item, "name", QJsonValue::String);
        need(p, a.at(i).toObject(), item, "value", QJsonValue::String);
    }
}

inline QStringList problems(const QJsonObject& har)
{
    QStringList p;
    const QJsonObject log = har.value(QLatin1String("log")).toObject();
    need(p, har, QStringLiteral("$"), "log", QJsonValue::Object);
    if (log.value(QLatin1String("version")).toString() != QLatin1String("1.2"))
        p << QStringLiteral("$.log.version: must be \"1.2\"");
    need(p, log, QStringLiteral("$.log"), "creator", QJsonValue::Object);
    need(p, log.value(QLatin1String("creator")).toObject(), QStringLiteral("$.log.creator"), "name", QJsonValue::String);
    need(p, log.value(QLatin1String("creator")).toObject(), QStringLiteral("$.log.creator"), "version", QJsonValue::String);
    need(p, log, QStringLiteral("$.log"), "entries", QJsonValue::Array);
    const QJsonArray entries = log.value(QLatin1String("entries")).toArray();
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const QString e = QStringLiteral("$.log.entries[") + QString::number(i) + QLatin1Char(']');
        const QJsonObject entry = entries.at(i).toObject();
        need(p, entry, e, "startedDateTime", QJsonValue::String);
        if (!QDateTime::fromString(entry.value(QLatin1String("startedDateTime")).toString(), Qt::ISODateWithMs).isValid())
            p << e + QStringLiteral(".startedDateTime: not ISO 8601");
        need(p, entry, e, "time", QJsonValue::Double);
        need(p, entry, e, "request", QJsonValue::Object);
        need(p, entry, e, "response", QJsonValue::Object);
        need(p, entry, e, "cache", QJsonValue::Object);
        need(p, entry, e, "timings", QJsonValue::Object);
        const QJsonObject rq = entry.value(QLatin1String("request")).toObject();
        for (const char* k : { "method", "url", "httpVersion" })
            need(p, rq, e + QStringLiteral(".request"), k, QJsonValue::String);
        for (const char* k : { "cookies", "headers", "queryString" })
            need(p, rq, e + QStringLiteral(".request"), k, QJsonValue::Array);
        for (const char* k : { "headersSize", "bodySize" })
            need(p, rq, e + QStringLiteral(".request"), k, QJsonValue::Double);
        nameValues(p, rq.value(QLatin1String("headers")).toArray(), e + QStringLiteral(".request.headers"));
        nameValues(p, rq.value(QLatin1String("queryString")).toArray(), e + QStringLiteral(".request.queryString"));
        if (rq.contains(QLatin1String("postData")))
            need(p, rq.value(QLatin1String("postData")).toObject(), e + QStringLiteral(".request.postData"), "mimeType", QJsonValue::String);
        const QJsonObject rs = entry.value(QLatin1String("response")).toObject();
        need(p, rs, e + QStringLiteral(".response"), "status", QJsonValue::Double);
        for (const char* k : { "statusText", "httpVersion", "redirectURL" })
            need(p, rs, e + QStringLiteral(".response"), k, QJsonValue::String);
        for (const char* k : { "cookies", "headers" })
            need(p, rs, e + QStringLiteral(".response"), k, QJsonValue::Array);
        for (const char* k : { "headersSize", "bodySize" })
            need(p, rs, e + QStringLiteral(".response"), k, QJsonValue::Double);
        nameValues(p, rs.value(QLatin1String("headers")).toArray(), e + QStringLiteral(".response.headers"));
        const QJsonObject content = rs.value(QLatin1String("content")).toObject();
        need(p, rs, e + QStringLiteral(".response"), "content", QJsonValue::Object);
        need(p, content, e + QStringLiteral(".response.content"), "size", QJsonValue::Double);
        need(p, content, e + QStringLiteral(".response.content"), "mimeType", QJsonValue::String);
        const QJsonObject t = entry.value(QLatin1String("timings")).toObject();
        double sum = 0;
        for (const char* k : { "send", "wait", "receive" }) {
            need(p, t, e + QStringLiteral(".timings"), k, QJsonValue::Double);
            if (t.value(QLatin1String(k)).toDouble() < 0)
                p << e + QStringLiteral(".timings.") + QLatin1String(k) + QStringLiteral(": must be >= 0");
            sum += t.value(QLatin1String(k)).toDouble();
        }
        for (const char* k : { "blocked", "dns", "connect", "ssl" }) {
            if (!t.contains(QLatin1String(k)))
                continue;
            const double v = t.value(QLatin1String(k)).toDouble();
            if (v < 0 && v != -1)
                p << e + QStringLiteral(".timings.") + QLatin1String(k) + QStringLiteral(": must be >= 0 or -1");
            if (v > 0 && QLatin1String(k) != QLatin1String("ssl")) // ssl is included in connect
                sum += v;
        }
        if (std::abs(sum - entry.value(QLatin1String("time")).toDouble()) > 0.01)
            p << e + QStringLiteral(".time: not the sum of the timings");
        for (auto it = entry.constBegin(); it != entry.constEnd(); ++it) {
            static const QStringList known { QStringLiteral("pageref"), QStringLiteral("startedDateTime"),
                QStringLiteral("time"), QStringLiteral("request"), QStringLiteral("response"), QStringLiteral("cache"),
                QStringLiteral("timings"), QStringLiteral("serverIPAddress"), QStringLiteral("connection"),
                QStringLiteral("comment") };
            if (!known.contains(it.key()) && !it.key().startsWith(QLatin1Char('_')))
                p << e + QLatin1Char('.') + it.key() + QStringLiteral(": custom fields must start with '_'");
        }
    }
    return p;
}

} // namespace HarCheck
