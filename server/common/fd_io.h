#pragma once
// Writing to a file descriptor, whole: the loop a pipe or standard error needs around
// write(2). Header-only, so that the sandboxed SVG helper (server/svg_raster), which links
// no library of ours but the drawing code, shares it with the server's log writer.

#include <QByteArrayView>

#include <cerrno>

#include <unistd.h>

namespace imprint::common {

/// Writes all of `bytes` to `fd`, resuming after short writes and EINTR. False on any other
/// error or when the descriptor takes nothing (the rest is not written).
inline bool writeAll(int fd, QByteArrayView bytes)
{
    qsizetype done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, size_t(bytes.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += n;
    }
    return true;
}

} // namespace imprint::common
