#pragma once
// The processes a process has started and not yet reaped, read from /proc: tests that
// start helpers (the SVG sandbox's, issue 34 item 8) check that none is left behind.

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QStringList>

namespace imprint::test {

/// "PID NAME" of each process whose parent is `parent` (zombies included) and whose
/// name (the kernel's comm, at most 15 characters) starts with `namePrefix`.
inline QStringList childProcesses(qint64 parent, const QString &namePrefix = {})
{
    // proc(5): "pid (comm) state ppid ..."; comm may hold spaces and parentheses.
    static const QRegularExpression statLine(QStringLiteral("^(\\d+) \\((.*)\\) \\S+ (\\d+) "),
                                             QRegularExpression::DotMatchesEverythingOption);
    QStringList children;
    QDirIterator it(QStringLiteral("/proc"), QDir::Dirs | QDir::NoDotAndDotDot);
    while (it.hasNext()) {
        QFile stat(it.next() + QStringLiteral("/stat"));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const auto match = statLine.match(QString::fromLocal8Bit(stat.readAll()));
        if (match.hasMatch() && match.captured(3).toLongLong() == parent && match.captured(2).startsWith(namePrefix))
            children << match.captured(1) + u' ' + match.captured(2);
    }
    return children;
}

} // namespace imprint::test
