// SPDX-License-Identifier: GPL-3.0-or-later
#include "fleetcomparisonresult.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <optional>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("FleetComparisonResult", text);
}

QList<double> numbers(const QJsonValue& v)
{
    QList<double> out;
    for (const QJsonValue& x : v.toArray())
        out << x.toDouble();
    return out;
}

FleetComparisonResult::Side side(const QJsonObject& o)
{
    FleetComparisonResult::Side s;
    s.attemptsPerS = o.value(u"attempts_per_s"_s).toDouble();
    s.goodputPerS = o.value(u"goodput_per_s"_s).toDouble();
    s.amplification = o.value(u"amplification"_s).toDouble();
    const QJsonObject series = o.value(u"series"_s).toObject();
    s.attemptsSeries = numbers(series.value(u"attempts_per_s"_s));
    s.goodputSeries = numbers(series.value(u"goodput_per_s"_s));
    return s;
}

QString signedPercent(double share)
{
    return u"%1%2 %"_s.arg(share > 0 ? u"+"_s : QString()).arg(share * 100, 0, 'f', 0);
}

} // namespace

std::optional<FleetComparisonResult> FleetComparisonResult::fromJson(const QJsonObject& json, QString* error)
{
    const QJsonObject c = json.contains(u"compare_herd"_s) ? json.value(u"compare_herd"_s).toObject() : json;
    if (!c.value(u"measured"_s).isObject() || !c.value(u"simulated"_s).isObject()) {
        if (error)
            *error = tr("This file has no fleet comparison: run `retrylab fleet … --compare-herd --json` and open what "
                        "it printed.");
        return std::nullopt;
    }
    FleetComparisonResult r;
    r.measured = side(c.value(u"measured"_s).toObject());
    r.simulated = side(c.value(u"simulated"_s).toObject());
    const QJsonObject apart = c.value(u"apart"_s).toObject();
    r.attemptsGap = apart.value(u"attempts_per_s"_s).toDouble();
    r.goodputGap = apart.value(u"goodput_per_s"_s).toDouble();
    r.amplificationGap = apart.value(u"amplification"_s).toDouble();
    r.worstSecond = apart.value(u"worst_second"_s).toInt();
    r.worstSecondGap = apart.value(u"worst_second_attempts_per_s"_s).toDouble();
    const QJsonValue policy = json.value(u"policy"_s);
    r.policy = policy.isString() ? policy.toString() : policy.toObject().value(u"name"_s).toString();
    return r;
}

std::optional<FleetComparisonResult> FleetComparisonResult::read(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = tr("Cannot read %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parse);
    if (!doc.isObject()) {
        if (error)
            *error = tr("%1 is not a JSON object: %2").arg(path, parse.errorString());
        return std::nullopt;
    }
    return fromJson(doc.object(), error);
}

QString FleetComparisonResult::gapText() const
{
    return tr("Simulated against measured: attempts/s %1 (%2 vs %3), goodput/s %4 (%5 vs %6), amplification %7 "
              "(%8× vs %9×); they part most at second %10, %11 attempts/s apart.")
        .arg(signedPercent(attemptsGap), QString::number(simulated.attemptsPerS, 'f', 0),
            QString::number(measured.attemptsPerS, 'f', 0), signedPercent(goodputGap),
            QString::number(simulated.goodputPerS, 'f', 0), QString::number(measured.goodputPerS, 'f', 0),
            signedPercent(amplificationGap), QString::number(simulated.amplification, 'f', 2),
            QString::number(measured.amplification, 'f', 2))
        .arg(worstSecond)
        .arg(QString::number(worstSecondGap, 'f', 0));
}
