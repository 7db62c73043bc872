// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a request says, in its own client's words, about its place in a run of attempts: the attempt
// headers that real SDKs send. Each reader below names the source it was taken from.
//
//   x-retrylab-attempt      Retrylab's engine: "RUN;attempt=N", RUN a UUID per run (core/engine/requestheaders.cpp)
//   amz-sdk-invocation-id   AWS SDKs: a UUID per operation, with amz-sdk-request: "attempt=N; max=M"
//                           (@smithy/core retry: INVOCATION_ID_HEADER, REQUEST_HEADER; botocore the same)
//   x-stainless-retry-count openai-node and anthropic-sdk-typescript: "0" on the first attempt, then 1, 2…
//                           (src/client.ts buildHeaders: 'X-Stainless-Retry-Count': String(retryCount))
//   grpc-previous-rpc-attempts  gRPC (gRFC A6): the number of attempts before this one; absent on the first
//   x-envoy-attempt-count   Envoy with include_request_attempt_count: 1 on the first attempt
//   retry-attempt           Microsoft Graph JS client and Kiota: the retry number, absent on the first attempt
//                           (src/middleware/RetryHandler.ts: RETRY_ATTEMPT_HEADER = "Retry-Attempt")
//   x-ms-client-request-id  Azure SDKs: set once per logical request before the Retry phase, so every attempt
//                           carries the same value (@azure/core-rest-pipeline setClientRequestIdPolicy)
//   x-goog-api-client       Google Cloud client libraries: "… gccl-invocation-id/UUID" per call
//                           (@google-cloud/storage nodejs-common/util.js)
// curl, urllib3 and python-stripe send no such header (curl's tool_operate.c, urllib3/util/retry.py and
// stripe/api_requestor.py were read for it): their retries are told by Idempotency-Key or by repetition.

#include "http/httpfield.h"

#include <QByteArray>
#include <QString>

#include <optional>

struct AttemptEvidence
{
    QByteArray header; // the field that said it, lower case
    QByteArray value; // as received
    // The identifier every attempt of the run carries; empty when the header has only a count (then attempts
    // are chained by count and fingerprint: core/observe/retryinference.h).
    QByteArray runId;
    std::optional<int> attempt; // the client's number for this attempt, 1 = the first
    std::optional<int> maxAttempts; // when the client says how many it will make at most
    bool absentOnFirst = false; // the client sends the field on retries only (a first attempt looks unmarked)

    QString describe() const; // "x-stainless-retry-count: 1", "amz-sdk-invocation-id 3f2a…, attempt 2 of 3"
};

// The strongest attempt evidence among HEADERS (in the order of the table above), or nullopt. A value that
// cannot be read (a count that is not a number, an X-Retrylab-Attempt without ";attempt=") is not evidence.
std::optional<AttemptEvidence> readAttemptEvidence(const HttpHeaderList& headers);

// The Idempotency-Key the request carries, unquoted (sf-string or bare); empty when absent or invalid.
QByteArray idempotencyKeyOf(const HttpHeaderList& headers);
