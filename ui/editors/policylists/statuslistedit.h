// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/retrypolicy.h"

#include <QLineEdit>

#include <optional>

// A list of HTTP status codes and ranges typed as text: "429, 500-599". "5xx" is read as 500-599.
// Text that does not read as statuses is kept (so the user can finish typing) and explained by problem().
class StatusListEdit : public QLineEdit
{
    Q_OBJECT
public:
    explicit StatusListEdit(QWidget* parent = nullptr);

    void setRanges(const QList<StatusRange>& ranges);
    // The ranges typed, or nullopt when some part is not a status, a range or "Nxx".
    std::optional<QList<StatusRange>> ranges() const;
    // Why the text is not a list of statuses; empty when it is.
    QString problem() const;

    static QString format(const QList<StatusRange>& ranges);
    // "500-599" → "5xx", others as written in the policy format; for one-line summaries.
    static QString shortText(const QList<StatusRange>& ranges);
};
