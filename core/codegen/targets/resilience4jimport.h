// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Reads a Spring Boot resilience4j retry configuration (application.yaml: resilience4j.retry.instances.<name>,
// or configs.default) into a policy, starting from RetryConfig's defaults: 3 attempts, a fixed 500 ms wait,
// every exception retried (the decorated call throwing for transport failures and statuses ≥ 400, as the
// resilience4j preset assumes). Facts: retry-systems.md §8, resilience-fleets.md §5.

#include "codegen/codeexport.h"

#include <QByteArray>

CodeImport importResilience4jYaml(const QByteArray& text);
