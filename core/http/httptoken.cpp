// SPDX-License-Identifier: GPL-3.0-or-later
#include "http/httptoken.h"

bool isHttpToken(QStringView text)
{
    if (text.isEmpty())
        return false;
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        const bool tchar = (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9')
            || QStringView(u"!#$%&'*+-.^_`|~").contains(c);
        if (!tchar)
            return false;
    }
    return true;
}
