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

QNetworkReply::NetworkError qtErrorForStatus(int status)
{
    // Qt 6.4's own table (qhttpthreaddelegate.cpp statusCodeFromHttp), applied once the whole answer has been
    // read. A body cut short is reported with the socket's error instead (RemoteHostClosedError …).
    using E = QNetworkReply::NetworkError;
    switch (status) {
    case 400:
    case 418:
        return E::ProtocolInvalidOperationError;
    case 401: return E::AuthenticationRequiredError;
    case 403: return E::ContentAccessDenied;
    case 404: return E::ContentNotFoundError;
    case 405: return E::ContentOperationNotPermittedError;
    case 407: return E::ProxyAuthenticationRequiredError;
    case 409: return E::ContentConflictError;
    case 410: return E::ContentGoneError;
    case 500: return E::InternalServerError;
    case 501: return E::OperationNotImplementedError;
    case 503: return E::ServiceUnavailableError;
    default:
        if (status > 500)
            return E::UnknownServerError;
        if (status >= 400)
            return E::UnknownContentError;
        return E::NoError;
    }
}

std::optional<ErrorClass> classifyError(const ClassifierInput& in)
{
    switch (in.abort) {
    case AbortReason::Cancelled:
    case AbortReason::HedgeLost: // cancelled by the engine: no error of the request's
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

    // An attempt whose status line and headers arrived is an answer, whatever code Qt derived from its
    // status (a 400 is ProtocolInvalidOperationError to Qt, and not a protocol failure).
    // Only the exact code for this status counts: HTTP/2 maps an RST_STREAM (INTERNAL_ERROR, ENHANCE_YOUR_CALM…)
    // to InternalServerError or UnknownServerError too, and that after a 200 head is a body cut short.
    if (reached(in, AttemptPhase::HeadersReceived) && in.status && in.code != QNetworkReply::NoError
        && in.code == qtErrorForStatus(*in.status))
        return std::nullopt;

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
        // After the head arrived: a 307/308 (or an authentication challenge Qt answers by itself) that Qt
        // would follow by sending the body again, which the engine's non-rewindable body refuses
        // (qhttpnetworkconnectionchannel.cpp handleStatus). The server answered; only its body is unread.
        if (reached(in, AttemptPhase::HeadersReceived))
            return std::nullopt;
        // Before it: Qt wanted to re-send after the connection closed with no status line (or a status line
        // that was not HTTP): the request may have been applied, the answer is lost.
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
    // Anything left (proxy errors, HTTP/2 stream errors that share names with status codes…) by how far the
    // attempt got: after the head, the answer's own code was handled above, so this one broke its body.
    if (reached(in, AttemptPhase::HeadersReceived))
        return ErrorClass::Protocol;
    return reached(in, AttemptPhase::RequestSent) ? ErrorClass::ConnectionLost : ErrorClass::Refused;
}
