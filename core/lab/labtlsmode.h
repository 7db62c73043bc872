// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <optional>

// What the TLS endpoint of a FaultServer does with a connection.
enum class LabTlsMode {
    Off, // no TLS endpoint
    Valid, // certificate for 127.0.0.1 / ::1 / localhost (resources/tls/localhost-cert.pem)
    WrongHost, // certificate for wrong.host.invalid: the client's host-name check fails
    Garbage, // answers the ClientHello with bytes that are not TLS
    Stall, // accepts TCP and never answers the handshake
};

QString labTlsModeName(LabTlsMode mode);
std::optional<LabTlsMode> labTlsModeFromName(const QString& name);
