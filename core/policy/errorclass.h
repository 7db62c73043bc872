// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <optional>

// How an attempt failed when no HTTP status came back. The names are part of the policy format, the CLI
// and the session format: never rename them.
enum class ErrorClass {
    Dns, // "dns": the host name did not resolve
    Refused, // "refused": the TCP connection was refused
    Tls, // "tls": the TLS handshake or certificate check failed
    ConnectTimeout, // "connect-timeout": the connection did not open in time
    ResponseTimeout, // "response-timeout": sent, but no (complete) answer in time
    ConnectionLost, // "connection-lost": closed or reset after the request was sent
    Protocol, // "protocol": the answer was not valid HTTP (garbage, truncated body)
};

QString errorClassName(ErrorClass error);
std::optional<ErrorClass> errorClassFromName(const QString& name);
QStringList errorClassNames();

// Only dns, refused, tls and connect-timeout prove the server never saw the request.
bool errorClassServerCouldHaveActed(ErrorClass error);
// True for connect-timeout and response-timeout (budgets charge timeouts differently).
bool errorClassIsTimeout(ErrorClass error);
