// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringView>

// RFC 9110 §5.6.2: token = 1*tchar, the syntax of a method (§9.1) and of a field name (§5.1).
bool isHttpToken(QStringView text);
