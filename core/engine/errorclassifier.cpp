// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/errorclassifier.h"

namespace {

bool reached(const ClassifierInput& in, AttemptPhase phase)
{
    return int(in.reached) >= int(phase);
}

// Whether the request can be proven not to have reached the server when the attempt timed out.
ErrorClass timeoutClass(const ClassifierInput& in)
{
    if (reached(in, AttemptPhase::RequestSent))
        return ErrorClass::ResponseTimeout;
    if (in.tls && !reached(in, AttemptPhase::TlsDone) && in.reached == AttemptPhase::Connecting)
        return ErrorClass::ConnectTimeout; // a new connection whose handshake never completed
    if (in.sendObservable)
        return ErrorClass::ConnectTimeout; // requestSent would have been seen
    // Empty body on a connection whose state Qt does not report: the server may hold the request.
    return ErrorClass::ResponseTimeout;
}

} // namespace

std::optional<ErrorClass> classifyError(const ClassifierInput& in)
{
    switch (in.abort) {
    case AbortReason::Cancelled:
        return std::nullopt;
    case AbortReason::ConnectTimeout:
        return ErrorClass::ConnectTimeout;
    case AbortReason::AttemptTimeout:
    case AbortReason::Deadline:
        if (reached(in, AttemptPhase::HeadersReceived))
            return ErrorClass::ResponseTimeout; // the body did not complete in time
        return timeoutClass(in);
    case AbortReason::None:
        break;
    }

    using E = QNetworkReply::NetworkError;
    switch (in.code) {
    case E::NoError:
        return std::nullopt;
    case E::HostNotFoundError:
        return ErrorClass::Dns;
    case E::ConnectionRefusedError:
        return ErrorClass::Refused;
    case E::SslHandshakeFailedError:
        return ErrorClass::Tls;
    case E::TimeoutError:
    case E::OperationCanceledError: // Qt's own transfer timeout (the engine never sets one)
        if (reached(in, AttemptPhase::HeadersReceived))
            return ErrorClass::ResponseTimeout;
        return timeoutClass(in);
    case E::RemoteHostClosedError:
        if (reached(in, AttemptPhase::HeadersReceived))
            return ErrorClass::Protocol; // truncated body
        if (in.tls && !reached(in, AttemptPhase::TlsDone) && in.reached != AttemptPhase::Started)
            return ErrorClass::Tls; // closed during the handshake (never re-sent by Qt)
        return ErrorClass::ConnectionLost;
    case E::ContentReSendError:
        // Qt wanted to re-send after the connection closed with no status line (or a status line that was
        // not HTTP): the request may have been applied, the answer is lost.
        if (reached(in, AttemptPhase::HeadersReceived))
            return ErrorClass::Protocol;
        return ErrorClass::ConnectionLost;
    case E::ProtocolFailure:
    case E::ProtocolUnknownError:
    case E::ProtocolInvalidOperationError:
        return ErrorClass::Protocol;
    case E::TemporaryNetworkFailureError:
    case E::NetworkSessionFailedError:
    case E::UnknownNetworkError:
        return reached(in, AttemptPhase::RequestSent) ? ErrorClass::ConnectionLost : ErrorClass::Refused;
    default:
        break;
    }
    // Proxy errors, and HTTP-status errors Qt derives from an answer: an answer is never an error here,
    // so anything left is classified by how far the attempt got.
    if (reached(in, AttemptPhase::HeadersReceived))
        return std::nullopt;
    return reached(in, AttemptPhase::RequestSent) ? ErrorClass::ConnectionLost : ErrorClass::Refused;
}
