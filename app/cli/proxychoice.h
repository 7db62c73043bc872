// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/faultserveroptions.h"

#include <QString>
#include <QStringList>

class CliArgs;
class QTextStream;

// The lab as a forward proxy, as `serve` and `observe` are asked for it: `--proxy [--intercept HOST…]
// [--map HOST[:PORT]=ADDRESS:PORT…] [--upstream-ca FILE] [--ca-dir DIR]`. The Retrylab CA is opened (made on
// first use) in DIR, by default the user's data folder.
namespace ProxyChoice {

void declare(CliArgs& cli);
// False and *ERROR (one line) when the options are wrong or the CA cannot be used. Without --proxy: true,
// OPTIONS untouched, and the proxy-only options refused. UPSTREAMTAKEN: the command reads --upstream-ca
// itself (no --proxy).
bool read(CliArgs& cli, FaultServerOptions& options, QString* error);
// What a command says of the proxy it runs: address, CA and fingerprint, hosts intercepted, mappings.
void describe(QTextStream& out, const FaultServerOptions& options, const QString& proxyUrl);
// The options only --proxy takes.
QStringList proxyOnlyOptions();

} // namespace ProxyChoice
