// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/responsetemplate.h"

#include <QJsonArray>
#include <QJsonObject>

QString ResponseTemplate::render(const QString& text, const Values& values)
{
    QString out;
    qsizetype pos = 0;
    while (true) {
        const qsizetype open = text.indexOf(QLatin1String("{{"), pos);
        if (open < 0)
            break;
        const qsizetype close = text.indexOf(QLatin1String("}}"), open + 2);
        if (close < 0)
            break;
        const QString name = text.mid(open + 2, close - open - 2).trimmed();
        out += QStringView(text).sliced(pos, open - pos);
        const auto it = values.constFind(name);
        out += it != values.constEnd() ? *it : QStringView(text).sliced(open, close + 2 - open).toString();
        pos = close + 2;
    }
    out += QStringView(text).sliced(pos);
    return out;
}

QByteArray ResponseTemplate::renderBody(const QByteArray& text, const Values& values)
{
    return render(QString::fromUtf8(text), values).toUtf8();
}

QJsonValue ResponseTemplate::renderJson(const QJsonValue& value, const Values& values)
{
    if (value.isString()) {
        const QString s = value.toString();
        const QString rendered = render(s, values);
        const QString trimmed = s.trimmed();
        if (trimmed.startsWith(QLatin1String("{{")) && trimmed.endsWith(QLatin1String("}}"))
            && trimmed.count(QLatin1String("{{")) == 1) {
            bool ok = false;
            const qint64 n = rendered.toLongLong(&ok);
            if (ok)
                return QJsonValue(n);
        }
        return rendered;
    }
    if (value.isArray()) {
        QJsonArray out;
        const QJsonArray in = value.toArray();
        for (const QJsonValue& item : in)
            out.append(renderJson(item, values));
        return out;
    }
    if (value.isObject()) {
        QJsonObject out;
        const QJsonObject in = value.toObject();
        for (auto it = in.constBegin(); it != in.constEnd(); ++it)
            out.insert(render(it.key(), values), renderJson(it.value(), values));
        return out;
    }
    return value;
}
