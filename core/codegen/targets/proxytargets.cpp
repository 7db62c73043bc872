// SPDX-License-Identifier: GPL-3.0-or-later
// The Envoy, gRPC service config targets.
#include "codegen/codeexport.h"
#include "codegen/codewriter.h"
#include "codegen/targets/proxytargets.h"

using namespace Qt::StringLiterals;

QList<CodeTarget> proxyTargets()
{
    CodeTarget envoy;
    envoy.id = u"envoy"_s;
    envoy.title = u"Envoy route retry policy"_s;
    envoy.language = u"yaml"_s;
    envoy.versions = { u"v3"_s };
    envoy.runtime = u"proxy (Envoy 1.3x, API v3)"_s;
    envoy.generate = exportEnvoy;
    envoy.import = importEnvoy;

    CodeTarget grpc;
    grpc.id = u"grpc"_s;
    grpc.title = u"gRPC service config"_s;
    grpc.language = u"json"_s;
    grpc.versions = { u"A6"_s, u"A6-full-jitter"_s };
    // JSON has no comments: the header and the lost list travel in a leading "_retrylab" member (an array of
    // strings), which gRPC's service config parsers ignore as an unknown field.
    grpc.runtime = u"gRPC clients (service config; the header is in \"_retrylab\")"_s;
    grpc.generate = exportGrpc;
    grpc.import = importGrpc;
    return { envoy, grpc };
}
