// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "editors/policylists/policylistmodel.h"

#include "policy/retrypolicy.h"

// The policy's delay hints in the order they are tried, one line each:
// "Retry-After · 429, 5xx · wait what it asks · over 1 min: give up".
class HintListModel : public PolicyItemListModel<DelayHint>
{
    Q_OBJECT
public:
    explicit HintListModel(QObject* parent = nullptr);

    static QString summaryOf(const DelayHint& hint);

protected:
    QString summary(int row) const override;
    QString details(int row) const override;
    DelayHint defaultItem() const override;
};
