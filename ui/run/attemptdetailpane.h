// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "run/hedgewords.h"

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

    // COPY: what the rest of its run says, for a copy of a hedged request (the copy that won, the delay).
    void showAttempt(const AttemptRecord& attempt, const HedgeWords::CopyContext& copy = {});
    void showNothing();
};
