// SPDX-License-Identifier: GPL-3.0-or-later
#include "editors/curlpreset.h"

#include "http/curlrequest.h"
#include "policy/presetcatalog.h"
#include "policy/retrydecision.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("CurlPreset", text);
}

// Makes the preset's rule NAME retry; false when the preset has no such rule.
bool retryRule(RetryPolicy& policy, const QString& name)
{
    for (RetryRule& r : policy.rules) {
        if (r.name == name) {
            r.action = RuleAction::Retry;
            return true;
        }
    }
    return false;
}

} // namespace

namespace CurlPreset {

bool hasKnobs(const CurlRequest& request)
{
    return request.retry.any() || request.maxTime || request.connectTimeout;
}

Result fromCommand(const CurlRequest& request)
{
    Result out;
    const PolicyParseResult loaded = PresetCatalog::load(u"curl"_s);
    if (!loaded.ok()) {
        out.problem = tr("the curl preset did not load");
        return out;
    }
    RetryPolicy p = *loaded.policy;
    const CurlRetryOptions& r = request.retry;
    if (r.retries) {
        p.limits.maxAttempts = *r.retries + 1;
        out.changes << tr("%1 retries after the first attempt (--retry %1)").arg(*r.retries);
    }
    if (r.delay && r.delay->count() > 0) {
        p.backoff.kind = BackoffKind::Constant;
        p.backoff.base = *r.delay;
        out.changes << tr("a constant wait of %1 (--retry-delay)").arg(formatMillis(*r.delay));
    }
    if (r.maxTime && r.maxTime->count() > 0) {
        p.limits.deadline = *r.maxTime;
        out.changes << tr("a deadline of %1 (--retry-max-time; Retrylab stops before a wait that would cross it, "
                          "curl lets a backoff wait cross it)").arg(formatMillis(*r.maxTime));
    }
    if (r.connectionRefused || r.allErrors) {
        if (!retryRule(p, u"refused-needs-flag"_s))
            out.problem = tr("the curl preset has no rule \"refused-needs-flag\"");
        else
            out.changes << tr("refused connections retried (%1)").arg(r.allErrors ? u"--retry-all-errors"_s : u"--retry-connrefused"_s);
    }
    if (r.allErrors) {
        if (!retryRule(p, u"other-error-needs-flag"_s))
            out.problem = tr("the curl preset has no rule \"other-error-needs-flag\"");
        else
            out.changes << tr("TLS, lost-connection and protocol errors retried (--retry-all-errors)");
    }
    if (request.maxTime) {
        p.limits.attemptTimeout = *request.maxTime;
        out.changes << tr("each attempt at most %1 (-m)").arg(formatMillis(*request.maxTime));
    }
    if (request.connectTimeout) {
        p.limits.connectTimeout = *request.connectTimeout;
        out.changes << tr("connecting at most %1 (--connect-timeout)").arg(formatMillis(*request.connectTimeout));
    }
    p.description = tr("curl preset with the pasted command's options: %1.").arg(out.changes.join(u"; "_s));
    out.policy = p;
    return out;
}

} // namespace CurlPreset
