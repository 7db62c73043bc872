// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/routematcher.h"

using namespace Qt::StringLiterals;

namespace {

// Glob within one segment: '*' matches any run of characters.
bool segmentMatches(QStringView pattern, QStringView text)
{
    if (pattern == u"*")
        return !text.isEmpty();
    const qsizetype star = pattern.indexOf(u'*');
    if (star < 0)
        return pattern == text;
    const QStringView head = pattern.first(star);
    const QStringView rest = pattern.sliced(star + 1);
    if (!text.startsWith(head))
        return false;
    for (qsizetype i = head.size(); i <= text.size(); ++i) {
        if (segmentMatches(rest, text.sliced(i)))
            return true;
    }
    return rest.isEmpty();
}

} // namespace

bool RouteMatcher::methodMatches(const QList<QByteArray>& methods, QByteArrayView method)
{
    if (methods.isEmpty())
        return true;
    for (const QByteArray& m : methods) {
        if (m == "*" || m.compare(method, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

bool RouteMatcher::pathMatches(QStringView pattern, QStringView path)
{
    const QList<QStringView> want = pattern.split(u'/');
    const QList<QStringView> have = path.split(u'/');
    qsizetype i = 0;
    for (; i < want.size(); ++i) {
        if (want.at(i) == u"**")
            return true; // matches the rest, including nothing
        if (i >= have.size())
            return false;
        if (!segmentMatches(want.at(i), have.at(i)))
            return false;
    }
    return i == have.size();
}

QString RouteMatcher::patternProblem(QStringView pattern)
{
    if (!pattern.startsWith(u'/'))
        return u"path must start with '/'"_s;
    const qsizetype dd = pattern.indexOf(u"**");
    if (dd >= 0 && (dd != pattern.size() - 2 || pattern.at(dd - 1) != u'/'))
        return u"'**' may only be the whole last segment"_s;
    return {};
}
