// SPDX-License-Identifier: GPL-3.0-or-later
#include "intercept/authorityfiles.h"
#include "intercept/interceptwords.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace {

using InterceptWords::tr;
using InterceptWords::refuse;

QString systemError()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

} // namespace

namespace AuthorityFiles {

bool makePrivateFolder(const QString& dir, QString* error)
{
    const QFileInfo info(dir);
    if (info.exists())
        return info.isDir() || refuse(error, tr("\"%1\" is not a folder").arg(dir));
    if (!QDir().mkpath(dir))
        return refuse(error, tr("cannot create the folder \"%1\"").arg(dir));
    if (::chmod(QFile::encodeName(dir).constData(), 0700) != 0)
        return refuse(error, tr("cannot make \"%1\" private: %2").arg(dir, systemError()));
    return true;
}

bool writeAtomically(const QString& path, const QByteArray& bytes, unsigned mode, QString* error)
{
    const QByteArray target = QFile::encodeName(path);
    const QByteArray temporary = target + ".tmp-" + QByteArray::number(QRandomGenerator::system()->generate(), 16);
    const int fd = ::open(temporary.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(mode));
    if (fd < 0)
        return refuse(error, tr("cannot write \"%1\": %2").arg(path, systemError()));
    bool ok = ::fchmod(fd, mode_t(mode)) == 0; // the umask may have taken bits the file must have
    for (qsizetype written = 0; ok && written < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.constData() + written, size_t(bytes.size() - written));
        if (n < 0 && errno == EINTR)
            continue;
        ok = n > 0;
        written += n > 0 ? n : 0;
    }
    ok = ok && ::fsync(fd) == 0;
    const QString reason = ok ? QString() : systemError();
    ok = ::close(fd) == 0 && ok;
    if (ok && ::rename(temporary.constData(), target.constData()) == 0)
        return true;
    const QString message = tr("cannot write \"%1\": %2").arg(path, reason.isEmpty() ? systemError() : reason);
    ::unlink(temporary.constData());
    return refuse(error, message);
}

QString privateKeyProblem(const QString& path)
{
    struct stat st
    {
    };
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
        return tr("cannot read \"%1\": %2").arg(path, systemError());
    if (!S_ISREG(st.st_mode))
        return tr("\"%1\" is not a regular file").arg(path);
    if (st.st_uid != ::geteuid())
        return tr("\"%1\" belongs to another user (uid %2): the CA key must be this user's own")
            .arg(path)
            .arg(st.st_uid);
    if ((st.st_mode & 077) != 0)
        return tr("\"%1\" has permissions %2, open to group or others: the CA key must be mode 0600 (chmod 600 it, or "
                  "`retrylab ca remove` and make a new CA)")
            .arg(path, u"0"_s + QString::number(st.st_mode & 0777, 8));
    return {};
}

} // namespace AuthorityFiles
