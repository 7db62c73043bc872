// SPDX-License-Identifier: GPL-3.0-or-later
#include "http/idempotencykey.h"

#include "http/structuredfield.h"

#include <QList>
#include <QUuid>

using namespace Qt::StringLiterals;

namespace {

constexpr qsizetype kStripeMaxLength = 255; // https://docs.stripe.com/idempotency, headers.md §6

bool isSpace(char c) { return c == ' ' || c == '\t'; }
bool isVisible(char16_t c) { return c >= 0x21 && c <= 0x7e; }
bool isPrintable(char16_t c) { return c >= 0x20 && c <= 0x7e; }

QByteArrayView trimmed(QByteArrayView v)
{
    while (!v.isEmpty() && isSpace(v.front()))
        v = v.sliced(1);
    while (!v.isEmpty() && isSpace(v.back()))
        v.chop(1);
    return v;
}

} // namespace

QString newIdempotencyKey(const QString& prefix)
{
    return prefix + QUuid::createUuid().toString(QUuid::WithoutBraces);
}

QByteArray formatIdempotencyKey(const QString& key, IdempotencyKeyFormat format)
{
    if (key.isEmpty())
        return {};
    QByteArray out;
    if (format == IdempotencyKeyFormat::Bare) {
        for (QChar c : key) {
            if (!isVisible(c.unicode()) || c == u'"')
                return {};
        }
        return key.toLatin1();
    }
    out.reserve(key.size() + 2);
    out += '"';
    for (QChar c : key) {
        if (!isPrintable(c.unicode()))
            return {};
        if (c == u'"' || c == u'\\')
            out += '\\';
        out += char(c.unicode());
    }
    out += '"';
    return out;
}

IdempotencyKey parseIdempotencyKey(QByteArrayView value)
{
    IdempotencyKey k;
    k.raw = value.toByteArray();
    const QByteArrayView text = trimmed(value);
    if (text.isEmpty()) {
        k.error = u"empty value"_s;
        return k;
    }
    if (text.front() == '"') {
        QString sfError;
        const std::optional<SfItem> item = parseSfItem(text, &sfError);
        if (!item || !std::holds_alternative<QString>(item->value)) {
            k.error = u"not a valid sf-string: %1"_s.arg(sfError);
            return k;
        }
        k.quoted = true;
        k.key = std::get<QString>(item->value);
        k.conformant = true;
        if (!item->params.isEmpty())
            k.warnings << u"parameters after the key are ignored"_s;
    } else {
        for (char c : text) {
            if (!isVisible(char16_t(static_cast<unsigned char>(c))) || c == '"') {
                k.error = u"a bare key holds only visible ASCII without '\"'"_s;
                return k;
            }
        }
        k.key = QString::fromLatin1(text);
        k.warnings << u"not an sf-string: a bare key, as Stripe sends (non-SF raw)"_s;
    }
    if (k.key.isEmpty()) {
        k.error = u"empty key"_s;
        k.conformant = false;
        return k;
    }
    if (k.key.size() > kStripeMaxLength)
        k.warnings << u"longer than %1 characters (Stripe's limit)"_s.arg(kStripeMaxLength);
    return k;
}

std::optional<IdempotencyKey> parseIdempotencyKeyHeader(const HttpHeaderList& headers, QByteArrayView name)
{
    const QList<QByteArray> values = headerValues(headers, name);
    if (values.isEmpty())
        return std::nullopt;
    IdempotencyKey k = parseIdempotencyKey(values.first());
    if (values.size() > 1) {
        k.key.clear();
        k.conformant = false;
        k.error = u"sent %1 times; a client MUST NOT send more than one"_s.arg(values.size());
    }
    return k;
}
