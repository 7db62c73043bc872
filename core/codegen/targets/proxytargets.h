// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The proxy and RPC targets (issue 30): Envoy's route retry_policy (YAML) and gRPC's service config (JSON),
// each written from a policy and read back into one. proxyTargets() lists them.

#include "codegen/codeexport.h"

CodeExport exportEnvoy(const RetryPolicy& policy, const QString& version);
CodeImport importEnvoy(const QByteArray& text);
CodeExport exportGrpc(const RetryPolicy& policy, const QString& version);
CodeImport importGrpc(const QByteArray& text);
