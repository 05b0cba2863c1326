#include "server/render/text/hermetic_fonts.h"

#include "fonts_conf.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <climits>
#include <cstring>

#include <sys/stat.h>
#include <unistd.h>

namespace imprint::render {

namespace {

/// Writes `conf` to `path` unless the file already holds exactly it (other processes of
/// the same build share the file: written once, replaced atomically). Returns success.
bool writeIfDifferent(const QString &path, const QByteArray &conf)
{
    QFile existing(path);
    if (existing.open(QIODevice::ReadOnly) && existing.readAll() == conf)
        return true;
    existing.close();
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return false;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(conf) != conf.size() || !file.commit())
        return false;
    // Readable by the html engine's Chromium when it runs as another user, whatever the
    // caller's umask (the configuration holds nothing secret).
    return QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup
                                           | QFileDevice::ReadOther);
}

/// The user's cache directory as the XDG base directory specification defines it
/// (QStandardPaths would do, but this runs before QCoreApplication exists).
QString userCacheDir()
{
    const QString xdg = qEnvironmentVariable("XDG_CACHE_HOME");
    if (QDir::isAbsolutePath(xdg))
        return xdg;
    const QString home = qEnvironmentVariable("HOME");
    return home.isEmpty() ? QString() : home + QStringLiteral("/.cache");
}

// The temporary directory and file to remove at exit, if they were made. Character arrays
// (nothing to destroy) and POSIX calls: the handler runs after the destructors of statics
// initialised later, this file's own included, and Qt's.
char g_privateDir[PATH_MAX];
char g_privateFile[PATH_MAX];

void removePrivateDir()
{
    if (g_privateFile[0])
        ::unlink(g_privateFile);
    if (g_privateDir[0])
        ::rmdir(g_privateDir);
}

/// Copies `path` into `buffer`; false (and `buffer` empty) when it does not fit.
bool keep(char (&buffer)[PATH_MAX], const QByteArray &path)
{
    buffer[0] = '\0';
    if (path.size() >= PATH_MAX)
        return false;
    std::memcpy(buffer, path.constData(), size_t(path.size()) + 1);
    return true;
}

/// $TMPDIR/imprint-fonts-UID (or /tmp's), the one directory every process of this user
/// shares for the configuration file when it has no writable home or runs as root: kept,
/// like the cache's copy, so that a process ended by SIGKILL or a crash leaves nothing
/// new behind (a directory per process was left by each killed server, hundreds a day
/// under the test suites). Used only when it is a real directory (not a link) owned by
/// this user that no one else may write, so that another user who made the name first
/// cannot choose our configuration: then empty, and privateTempDir() serves. Others may
/// pass through it (0711): the html engine's Chromium reads the file as imprint-browser.
QString userTempDir()
{
    const QByteArray dir
        = QFile::encodeName(QDir::tempPath()) + "/imprint-fonts-" + QByteArray::number(qulonglong(::geteuid()));
    if (::mkdir(dir.constData(), 0711) != 0 && errno != EEXIST)
        return {};
    struct stat st {};
    if (::lstat(dir.constData(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid()
        || (st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
        return {};
    if ((st.st_mode & 07777) != 0711 && ::chmod(dir.constData(), 0711) != 0)
        return {};
    return QFile::decodeName(dir);
}

/// A new directory under $TMPDIR or /tmp that only this user can write or list and others
/// can only pass through (0711), removed at exit: the fallback when userTempDir()'s name
/// is taken by someone else.
QString privateTempDir()
{
    QByteArray pattern = QFile::encodeName(QDir::tempPath() + QStringLiteral("/imprint-fonts-XXXXXX"));
    if (!keep(g_privateDir, pattern) || !mkdtemp(g_privateDir) || ::chmod(g_privateDir, 0711) != 0) {
        if (g_privateDir[0])
            ::rmdir(g_privateDir);
        g_privateDir[0] = '\0';
        return {};
    }
    std::atexit(removePrivateDir);
    return QFile::decodeName(g_privateDir);
}

QString install()
{
    if (qEnvironmentVariable("IMPRINT_SYSTEM_FONTS") == QLatin1String("1"))
        return {};
    const QByteArray conf = hermeticFontConfig();
    // Named by content: builds with different configurations never share a file.
    const QString name = QStringLiteral("fonts-%1.conf")
                             .arg(QString::fromLatin1(
                                 QCryptographicHash::hash(conf, QCryptographicHash::Sha256).toHex().left(16)));
    // The file in `dir` once written there; empty when `dir` is empty or the write failed.
    const auto writtenIn = [&](const QString &dir) {
        const QString file = dir + u'/' + name;
        return !dir.isEmpty() && writeIfDifferent(file, conf) ? file : QString();
    };
    // As root the html engine's Chromium runs as another user (imprint-browser), who cannot
    // enter root's home: the file then goes to a temporary directory it can pass through.
    const QString cache = ::geteuid() == 0 ? QString() : userCacheDir();
    QString path = writtenIn(cache.isEmpty() ? QString() : cache + QStringLiteral("/imprint/fontconfig"));
    if (path.isEmpty())
        path = writtenIn(userTempDir());
    if (path.isEmpty()) {
        // Kept for the exit handler before it is written, so that it is removed either way.
        const QString dir = privateTempDir();
        if (!dir.isEmpty() && keep(g_privateFile, QFile::encodeName(dir + u'/' + name)))
            path = writtenIn(dir);
    }
    if (path.isEmpty()) {
        // Plain stderr: this runs during static initialisation, before any Qt logging setup.
        std::fputs("imprint: could not write the fontconfig configuration; rendering with the host's fonts\n",
                   stderr);
        return {};
    }
    // Replaces any FONTCONFIG_FILE inherited from the caller: that is the point.
    qputenv("FONTCONFIG_FILE", QFile::encodeName(path));
    return path;
}

} // namespace

QByteArray hermeticFontConfig()
{
    return QByteArray::fromRawData(kImprintFontsConf, sizeof(kImprintFontsConf) - 1);
}

QString useHermeticFonts()
{
    // Function-local static: runs once, thread-safely, whoever calls first.
    static const QString path = install();
    return path;
}

} // namespace imprint::render
