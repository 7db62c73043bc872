// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QTextBrowser>

struct AttemptRecord;

// The full story of one attempt: request and response headers (the values SecretHeaders lists are shown
// as "••• (redacted)"), a body excerpt, and
// the decision with its reason. Read-only; follows the platform palette.
class AttemptDetailPane : public QTextBrowser
{
    Q_OBJECT
public:
    explicit AttemptDetailPane(QWidget* parent = nullptr);

    void showAttempt(const AttemptRecord& attempt);
    void showNothing();
};
