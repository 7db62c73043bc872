// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What-if replay: the server behaviour a session recorded, as a fault-lab scenario. Each run gets its own
// route (/replay/run-ID) that answers, in order, what that run's attempts got: the status, headers
// (Retry-After and rate-limit fields as received), body excerpt and think time; resets as "reset",
// timeouts as "hang" (for twice the recorded wait plus a second), a truncated body as "truncate". The
// last answer repeats, so a policy that tries more often keeps seeing it.

#include "session/session.h"

#include <QJsonObject>
#include <QString>

namespace ReplayScenario {
QJsonObject fromSession(const Session& session);
QString pathFor(int runId); // "/replay/run-ID"
}
