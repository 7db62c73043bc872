// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

// Matches a request's method and path against a route pattern: literal segments, "*" for exactly one
// segment (or part of one: "pay_*"), "**" for any number of trailing segments.
class RouteMatcher
{
public:
    static bool methodMatches(const QList<QByteArray>& methods, QByteArrayView method);
    static bool pathMatches(QStringView pattern, QStringView path);
    // Pattern problems (empty, no leading '/', "**" not last); empty when valid.
    static QString patternProblem(QStringView pattern);
};
