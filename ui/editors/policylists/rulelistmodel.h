// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "editors/policylists/policylistmodel.h"

#include "policy/retrypolicy.h"

// The policy's ordered rules, one line each: "POST without key · 5xx → stop".
class RuleListModel : public PolicyItemListModel<RetryRule>
{
    Q_OBJECT
public:
    explicit RuleListModel(QObject* parent = nullptr);

    static QString summaryOf(const RetryRule& rule);
    static QString actionText(RuleAction action);

protected:
    QString summary(int row) const override;
    QString details(int row) const override;
    RetryRule defaultItem() const override;
};
