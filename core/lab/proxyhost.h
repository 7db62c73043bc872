// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// One host:port a client reached through the lab as a forward proxy, and what became of it.
struct ProxyHost
{
    QString authority; // "api.test:443"
    bool intercepted = false; // decrypted and handled as the lab's own requests; false: relayed untouched
    QString mappedTo; // "--map" target ("127.0.0.1:8443"), empty when none
    int tunnels = 0; // CONNECTs accepted
    int requests = 0; // requests handled (intercepted tunnels and absolute-form requests)
    int failures = 0; // tunnels that could not be set up (handshake refused, host unreachable…)
    qint64 relayedBytes = 0; // both ways, relayed tunnels
    QString lastProblem;
};
