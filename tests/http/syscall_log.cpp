// An LD_PRELOAD interposer for tst_file_durability: wraps fsync, fdatasync and the rename
// family, calls the real function, and appends one line per call to the file named by
// IMPRINT_SYSCALL_LOG: "fsync RESULT INODE PATH" (the descriptor's inode and path, read
// back through /proc/self/fd) or "rename RESULT INODE OLD NEW" (the inode now at NEW).
// Inodes, because QTemporaryFile writes an unnamed O_TMPFILE file and links it under a
// name only later: its fsync path reads "DIR/#INODE (deleted)". Each line is one write(2) on an O_APPEND
// descriptor, so lines from several threads never interleave, and a line is written
// after the call returned, so the log's order is the order the calls completed in.
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

template<typename F>
F real(const char *name)
{
    return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

void logLine(const char *call, int result, unsigned long inode, const char *a, const char *b)
{
    const char *logPath = getenv("IMPRINT_SYSCALL_LOG");
    if (!logPath)
        return;
    char line[8400];
    const int n = snprintf(line, sizeof line, "%s %d %lu %s%s%s\n", call, result, inode, a, b ? " " : "", b ? b : "");
    const int fd = open(logPath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    if (write(fd, line, size_t(n < int(sizeof line) ? n : int(sizeof line) - 1)) < 0) { }
    close(fd);
}

void logFd(const char *call, int result, int fd)
{
    char link[64];
    char path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    const ssize_t n = readlink(link, path, sizeof path - 1);
    path[n > 0 ? n : 0] = '\0';
    struct stat st = {};
    fstat(fd, &st);
    logLine(call, result, (unsigned long)st.st_ino, path, nullptr);
}

unsigned long inodeOf(const char *path)
{
    struct stat st = {};
    return stat(path, &st) == 0 ? (unsigned long)st.st_ino : 0;
}

// A path relative to `dirfd` (AT_FDCWD or a directory), made absolute for the log.
void absolute(int dirfd, const char *path, char *out, size_t size)
{
    if (path[0] == '/' || dirfd == AT_FDCWD) {
        snprintf(out, size, "%s", path);
        return;
    }
    char link[64];
    char dir[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", dirfd);
    const ssize_t n = readlink(link, dir, sizeof dir - 1);
    dir[n > 0 ? n : 0] = '\0';
    snprintf(out, size, "%s/%s", dir, path);
}

} // namespace

extern "C" {

int fsync(int fd)
{
    static auto next = real<int (*)(int)>("fsync");
    const int r = next(fd);
    logFd("fsync", r, fd);
    return r;
}

int fdatasync(int fd)
{
    static auto next = real<int (*)(int)>("fdatasync");
    const int r = next(fd);
    logFd("fdatasync", r, fd);
    return r;
}

int rename(const char *oldPath, const char *newPath)
{
    static auto next = real<int (*)(const char *, const char *)>("rename");
    const int r = next(oldPath, newPath);
    logLine("rename", r, inodeOf(newPath), oldPath, newPath);
    return r;
}

int renameat(int oldDir, const char *oldPath, int newDir, const char *newPath)
{
    static auto next = real<int (*)(int, const char *, int, const char *)>("renameat");
    const int r = next(oldDir, oldPath, newDir, newPath);
    char a[4200], b[4200];
    absolute(oldDir, oldPath, a, sizeof a);
    absolute(newDir, newPath, b, sizeof b);
    logLine("rename", r, inodeOf(b), a, b);
    return r;
}

int renameat2(int oldDir, const char *oldPath, int newDir, const char *newPath, unsigned int flags)
{
    static auto next = real<int (*)(int, const char *, int, const char *, unsigned int)>("renameat2");
    const int r = next(oldDir, oldPath, newDir, newPath, flags);
    char a[4200], b[4200];
    absolute(oldDir, oldPath, a, sizeof a);
    absolute(newDir, newPath, b, sizeof b);
    logLine("rename", r, inodeOf(b), a, b);
    return r;
}

} // extern "C"
