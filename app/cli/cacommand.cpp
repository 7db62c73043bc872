// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab ca show|create|export|remove`: the CA the intercepting proxy mints its certificates with (issue 31 §1).
#include "cli/clicommand.h"

#include "cli/cliargs.h"
#include "cli/filechecks.h"
#include "intercept/authorityfiles.h"
#include "intercept/interceptauthority.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ca", text);
}

const QString kUsage = uR"(Usage: retrylab ca show [--dir DIR]
       retrylab ca create [--dir DIR]
       retrylab ca export [--out FILE] [--format pem|der] [--dir DIR]
       retrylab ca remove --yes [--dir DIR]

Retrylab's certificate authority for TLS interception. `serve --proxy` mints with it a short-lived
certificate for each host a client reaches through the proxy; a client accepts those once it trusts
this CA (`observe --proxy` arranges that for the command it runs). One CA per user, made on the first
`serve --proxy`: an EC P-256 key readable by you alone (mode 0600, in a 0700 folder) and a ten-year
self-signed certificate. A key that others may read is refused, never used.

show    the CA's folder, subject, validity and SHA-256 fingerprint (or that there is none yet)
create  makes the CA now when there is none, then shows it
export  the CA's certificate (never its key): PEM on stdout, or into --out FILE; DER needs --out
remove  deletes the CA's key and certificate (asks for --yes); clients told to trust it should forget
        it, as the next `serve --proxy` makes a new one

Options:
  --dir DIR        the CA's folder (default: $RETRYLAB_DATA_DIR/ca when that is set, else
                   ~/.local/share/Retrylab/retrylab/ca)
  --out FILE       export: write the certificate to FILE instead of stdout
  --format pem|der export: the encoding (default pem)
  --yes            remove: yes, delete it

Exit status: 0 done, 1 the CA is refused (a key open to others, damaged or mismatched files, expired)
or cannot be written, 2 bad arguments.
)"_s;

int usage(CliIo& io, const QString& action, const QString& message)
{
    io.err << u"retrylab ca "_s << action << u": "_s << message << u"\n"_s;
    return CliExit::Usage;
}

int failed(CliIo& io, const QString& action, const QString& message)
{
    io.err << u"retrylab ca "_s << action << u": "_s << message << u"\n"_s;
    return CliExit::Failed;
}

bool hasAuthority(const QString& dir)
{
    const QDir folder(dir);
    return QFileInfo::exists(folder.filePath(QLatin1String(AuthorityFiles::kKeyFile)))
        || QFileInfo::exists(folder.filePath(QLatin1String(AuthorityFiles::kCertificateFile)));
}

QString noneYet(const QString& dir)
{
    return tr("no CA in \"%1\" yet: it is made on the first `retrylab serve --proxy`, or now by `retrylab ca create`")
        .arg(dir);
}

QString utc(const QDateTime& time)
{
    return time.toUTC().toString(u"yyyy-MM-dd HH:mm:ss 'UTC'"_s);
}

void describe(const InterceptAuthority& ca, QTextStream& out)
{
    const QSslCertificate c = ca.certificate();
    QStringList subject;
    for (const auto& [attribute, label] :
        { std::pair { QSslCertificate::CommonName, u"CN"_s }, { QSslCertificate::Organization, u"O"_s } }) {
        for (const QString& value : c.subjectInfo(attribute))
            subject << label + u'=' + value;
    }
    const qint64 daysLeft = QDateTime::currentDateTimeUtc().daysTo(c.expiryDate());
    out << tr("folder:       %1\n").arg(ca.directory());
    out << tr("certificate:  %1\n").arg(ca.certificatePath());
    out << tr("key:          %1 (mode 0600)\n")
               .arg(QDir(ca.directory()).filePath(QLatin1String(AuthorityFiles::kKeyFile)));
    out << tr("subject:      %1\n").arg(subject.join(u", "_s));
    out << tr("valid:        %1 to %2 (%3 days left)\n").arg(utc(c.effectiveDate()), utc(c.expiryDate())).arg(daysLeft);
    out << tr("SHA-256:      %1\n").arg(ca.fingerprintSha256());
}

// The options every action takes; --dir checked. DIR is empty when the arguments are refused (the message printed).
QString parse(CliArgs& cli, const QString& action, const QStringList& args, CliIo& io)
{
    cli.option(u"dir"_s);
    if (!cli.parse(args)) {
        usage(io, action, cli.error());
        return {};
    }
    if (!cli.positional().isEmpty()) {
        usage(io, action, tr("takes no arguments, not \"%1\"").arg(cli.positional().join(u' ')));
        return {};
    }
    const QString dir = cli.value(u"dir"_s).value_or(InterceptAuthority::defaultDirectory());
    if (dir.isEmpty()) {
        usage(io, action, tr("--dir needs a folder"));
        return {};
    }
    if (QFileInfo info(dir); info.exists() && !info.isDir()) {
        usage(io, action, tr("--dir \"%1\" is not a folder").arg(dir));
        return {};
    }
    return dir;
}

int show(const QStringList& args, CliIo& io, bool create)
{
    const QString action = create ? u"create"_s : u"show"_s;
    CliArgs cli;
    const QString dir = parse(cli, action, args, io);
    if (dir.isEmpty())
        return CliExit::Usage;
    if (!create && !hasAuthority(dir)) {
        io.out << noneYet(dir) << u"\n"_s;
        return CliExit::Ok;
    }
    const bool existed = hasAuthority(dir);
    QString error;
    const std::shared_ptr<InterceptAuthority> ca = InterceptAuthority::open(dir, create, &error);
    if (!ca)
        return failed(io, action, error);
    if (create)
        io.out << (existed ? tr("a CA exists already; it is kept:\n") : tr("made a new CA:\n"));
    describe(*ca, io.out);
    return CliExit::Ok;
}

int exportCertificate(const QStringList& args, CliIo& io)
{
    const QString action = u"export"_s;
    CliArgs cli;
    cli.option(u"out"_s).option(u"format"_s);
    const QString dir = parse(cli, action, args, io);
    if (dir.isEmpty())
        return CliExit::Usage;
    const QString format = cli.value(u"format"_s).value_or(u"pem"_s);
    if (format != u"pem" && format != u"der")
        return usage(io, action, tr("--format must be pem or der, not \"%1\"").arg(format));
    const std::optional<QString> out = cli.value(u"out"_s);
    if (format == u"der" && !out)
        return usage(io, action, tr("--format der is binary: give --out FILE"));
    if (out) {
        if (const QString problem = outputPathProblem(*out); !problem.isEmpty())
            return usage(io, action, u"--out: "_s + problem);
    }
    if (!hasAuthority(dir))
        return failed(io, action, noneYet(dir));
    QString error;
    const std::shared_ptr<InterceptAuthority> ca = InterceptAuthority::open(dir, false, &error);
    if (!ca)
        return failed(io, action, error);
    const QByteArray bytes = format == u"der" ? ca->certificate().toDer() : ca->certificate().toPem();
    if (!out) {
        io.out << QString::fromLatin1(bytes);
        return CliExit::Ok;
    }
    QSaveFile file(*out);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return failed(io, action, tr("cannot write \"%1\": %2").arg(*out, file.errorString()));
    io.out
        << tr("wrote the CA certificate to %1 (%2, SHA-256 %3)\n").arg(*out, format.toUpper(), ca->fingerprintSha256());
    return CliExit::Ok;
}

int removeAuthority(const QStringList& args, CliIo& io)
{
    const QString action = u"remove"_s;
    CliArgs cli;
    cli.flag(u"yes"_s);
    const QString dir = parse(cli, action, args, io);
    if (dir.isEmpty())
        return CliExit::Usage;
    if (!hasAuthority(dir)) {
        io.out << tr("no CA in \"%1\": nothing to remove\n").arg(dir);
        return CliExit::Ok;
    }
    if (!cli.isSet(u"yes"_s))
        return usage(io, action,
            tr("this deletes the CA in \"%1\" for good, and clients set up to trust it will refuse the next one: "
               "add --yes")
                .arg(dir));
    // Named by its fingerprint when its certificate can still be read, refused or not.
    const QList<QSslCertificate> certificate
        = QSslCertificate::fromPath(QDir(dir).filePath(QLatin1String(AuthorityFiles::kCertificateFile)));
    QString error;
    if (!InterceptAuthority::remove(dir, &error))
        return failed(io, action, error);
    if (certificate.size() == 1)
        io.out << tr("removed the CA in \"%1\" (SHA-256 %2)\n")
                      .arg(dir,
                          QString::fromLatin1(
                              certificate.first().digest(QCryptographicHash::Sha256).toHex(':').toUpper()));
    else
        io.out << tr("removed the CA in \"%1\"\n").arg(dir);
    return CliExit::Ok;
}

int runCa(const QStringList& args, CliIo& io)
{
    if (args.isEmpty()) {
        io.err << tr("retrylab ca: give an action: show, create, export or remove (see retrylab help ca)\n");
        return CliExit::Usage;
    }
    const QString& verb = args.first();
    const QStringList rest = args.mid(1);
    if (verb == u"show")
        return show(rest, io, false);
    if (verb == u"create")
        return show(rest, io, true);
    if (verb == u"export")
        return exportCertificate(rest, io);
    if (verb == u"remove")
        return removeAuthority(rest, io);
    io.err << tr("retrylab ca: unknown action \"%1\" (show, create, export, remove)\n").arg(verb);
    return CliExit::Usage;
}

} // namespace

CliCommand caCommand()
{
    return CliCommand { u"ca"_s, tr("show, create, export or remove the CA that TLS interception (serve --proxy) uses"),
        kUsage, runCa };
}
