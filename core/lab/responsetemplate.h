// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonValue>
#include <QString>

// Fills {{name}} placeholders in a step's body or JSON template. Known names: key (Idempotency-Key),
// n (1-based count of requests the route answered with a step), applied (operations the route applied),
// method, path, route, attempt (attempt-id header), last (last path segment), request_id.
// Unknown placeholders are left as written.
class ResponseTemplate
{
public:
    using Values = QHash<QString, QString>;

    static QString render(const QString& text, const Values& values);
    static QByteArray renderBody(const QByteArray& text, const Values& values);
    // Renders every string inside VALUE (keys too); a string that is exactly "{{n}}" and renders to an
    // integer becomes a JSON number.
    static QJsonValue renderJson(const QJsonValue& value, const Values& values);
};
