// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The words the views use for an attempt's answer, in one place: an HTTP answer reads as its status and
// reason ("429 Too Many Requests") — Qt's own error text for a 4xx or 5xx ("Error transferring … server
// replied: Too Many Requests") is not an error of the transport and is not shown — and a Retry-After the
// policy did not read is said, since the decision's reason cannot mention what the policy never saw.

#include <QString>

struct AttemptRecord;

namespace AnswerWords {
// "429 Too Many Requests", "connection-lost: Connection closed", "no answer (cancelled)", and for a call the
// pipeline refused, what notSent() says.
QString answer(const AttemptRecord& attempt);
// For a call the pipeline refused (never sent): "not sent — circuit open (4.2 s left)", "not sent — circuit
// half-open (its probe is under way)", "not sent — limiter full". Empty for any other attempt.
QString notSent(const AttemptRecord& attempt);
// "waited 120 ms for the half-open circuit's verdict" when the call waited for one; empty otherwise.
QString verdictWait(const AttemptRecord& attempt);
// Qt's error text when it describes a transport failure (no complete HTTP answer); empty otherwise.
QString transportError(const AttemptRecord& attempt);
// A sentence when the answer carried a Retry-After (or retry-after-ms…) that the policy did not read;
// empty otherwise.
QString unreadRetryAfter(const AttemptRecord& attempt);
// For an attempt a client made (retrylab observe, a HAR import), which nobody here decided: "The client
// sent it 210 ms after the previous answer, which asked for 2 s (retry-after)." / "The client's first
// attempt." Empty for the engine's own attempts.
QString observedReason(const AttemptRecord& attempt);
// The client's wait before an observed attempt, as the views show a wait ("210 ms"); empty when none.
QString observedWait(const AttemptRecord& attempt);
}
