#include "server/render/backends/chromium/chromium_process.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace imprint::render {

namespace {

/// What a child needs to enter a network namespace, prepared before fork() (a forked
/// child of a threaded process may only make async-signal-safe calls).
struct NamespaceEntry {
    bool asRoot = false;
    QByteArray uidMap, gidMap; // "uid uid 1": the same ids inside, no privilege gained
};

NamespaceEntry namespaceEntry()
{
    NamespaceEntry e;
    e.asRoot = geteuid() == 0;
    e.uidMap = QByteArray::number(geteuid()) + ' ' + QByteArray::number(geteuid()) + " 1";
    e.gidMap = QByteArray::number(getegid()) + ' ' + QByteArray::number(getegid()) + " 1";
    return e;
}

bool writeProcFile(const char *path, const QByteArray &text)
{
    const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = ::write(fd, text.constData(), size_t(text.size())) == ssize_t(text.size());
    ::close(fd);
    return ok;
}

/// Brings the namespace's own loopback interface up: Chromium's processes expect one,
/// and it reaches nothing but this namespace, where nothing listens. Async-signal-safe.
void bringLoopbackUp()
{
    const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return;
    ifreq request{};
    std::memcpy(request.ifr_name, "lo", 3);
    if (::ioctl(fd, SIOCGIFFLAGS, &request) == 0) {
        request.ifr_flags = short(request.ifr_flags | IFF_UP);
        ::ioctl(fd, SIOCSIFFLAGS, &request);
    }
    ::close(fd);
}

/// In a forked child: leaves the parent's network namespace for a new one, whose only
/// interface is its own loopback. Async-signal-safe.
bool enterNetworkNamespace(const NamespaceEntry &e)
{
    if (e.asRoot) {
        if (::unshare(CLONE_NEWNET) != 0)
            return false;
        bringLoopbackUp();
        return true;
    }
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0)
        return false;
    // user_namespaces(7): gid_map may be written only once setgroups is denied.
    if (!writeProcFile("/proc/self/setgroups", "deny") || !writeProcFile("/proc/self/uid_map", e.uidMap)
        || !writeProcFile("/proc/self/gid_map", e.gidMap))
        return false;
    bringLoopbackUp();
    return true;
}

} // namespace

bool chromiumCanIsolateNetwork()
{
    static const bool can = [] {
        const NamespaceEntry e = namespaceEntry();
        const pid_t pid = fork();
        if (pid < 0)
            return false;
        if (pid == 0)
            _exit(enterNetworkNamespace(e) ? 0 : 1);
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        return WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }();
    return can;
}

RefusingPort::RefusingPort()
{
    m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (m_fd < 0)
        return;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    socklen_t length = sizeof address;
    if (::bind(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0
        || ::getsockname(m_fd, reinterpret_cast<sockaddr *>(&address), &length) != 0) {
        ::close(m_fd);
        m_fd = -1;
        return;
    }
    // Bound, never listen()ed: the kernel answers a connection with a reset.
    m_port = ntohs(address.sin_port);
}

RefusingPort::~RefusingPort()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

QStringList chromiumNetworkSwitches(quint16 proxyPort)
{
    const QString proxy = QStringLiteral("http://127.0.0.1:%1").arg(proxyPort ? proxyPort : 9);
    return {
        // Every request of every frame and worker, of every scheme, goes to the proxy...
        QStringLiteral("--proxy-server=%1").arg(proxy),
        // ...loopback and link-local addresses too (Chromium exempts them by default).
        QStringLiteral("--proxy-bypass-list=<-loopback>"),
        // No name resolves (no DNS query leaves either); the proxy's address is a literal.
        QStringLiteral("--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
        // WebRTC would send UDP (STUN, mDNS) around a proxy.
        QStringLiteral("--webrtc-ip-handling-policy=disable_non_proxied_udp"),
        QStringLiteral("--dns-prefetch-disable"),
        QStringLiteral("--no-pings"),
    };
}

common::Expected<common::Done, QString> DevToolsPipe::start(const QStringList &args, ChromiumNetworkIsolation isolation,
                                                            const std::optional<ProcessAccount> &user,
                                                            const QString &home)
{
    // A write to a browser that just died must fail with EPIPE, not end this process.
    std::signal(SIGPIPE, SIG_IGN);
    // The browser's temporary files (its ProcessSingleton's socket directory,
    // org.chromium.Chromium.XXXXXX) in its own directory, which the server removes: Chromium
    // removes that directory only when it exits cleanly, and a browser killed for a crash,
    // its memory or the server's stop left one in /tmp at every start.
    QByteArray browserTemp;
    if (!home.isEmpty()) {
        browserTemp = QFile::encodeName(home) + "/tmp";
        if (::mkdir(browserTemp.constData(), 0700) != 0 && errno != EEXIST)
            return QStringLiteral("the browser's temporary directory: %1").arg(QString::fromLocal8Bit(strerror(errno)));
        if (user && ::chown(browserTemp.constData(), user->uid, user->gid) != 0)
            return QStringLiteral("the browser's temporary directory could not be given to %1").arg(user->name);
    }
    int toBrowser[2], fromBrowser[2];
    if (pipe2(toBrowser, O_CLOEXEC) != 0 || pipe2(fromBrowser, O_CLOEXEC) != 0)
        return QStringLiteral("pipe: %1").arg(QString::fromLocal8Bit(strerror(errno)));
    // Our end is non-blocking: writeAll() waits for room with a bound (poll()).
    fcntl(toBrowser[1], F_SETFL, fcntl(toBrowser[1], F_GETFL) | O_NONBLOCK);
    std::vector<QByteArray> storage;
    for (const QString &a : args)
        storage.push_back(a.toLocal8Bit());
    std::vector<char *> argv;
    for (QByteArray &a : storage)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    // The environment, with HOME (and the XDG homes) in the browser's own directory when it
    // runs as another user, who may not write this one's.
    std::vector<QByteArray> envStorage;
    for (char **e = environ; *e; ++e) {
        const QByteArray entry(*e);
        if (user && (entry.startsWith("HOME=") || entry.startsWith("XDG_CONFIG_HOME=")
                     || entry.startsWith("XDG_CACHE_HOME=") || entry.startsWith("XDG_RUNTIME_DIR=")))
            continue;
        envStorage.push_back(entry);
    }
    if (!browserTemp.isEmpty()) {
        envStorage.erase(std::remove_if(envStorage.begin(), envStorage.end(),
                                        [](const QByteArray &e) { return e.startsWith("TMPDIR="); }),
                         envStorage.end());
        envStorage.push_back("TMPDIR=" + browserTemp);
    }
    if (user) {
        envStorage.push_back("HOME=" + home.toLocal8Bit());
        envStorage.push_back("XDG_CONFIG_HOME=" + home.toLocal8Bit() + "/.config");
        envStorage.push_back("XDG_CACHE_HOME=" + home.toLocal8Bit() + "/.cache");
    }
    std::vector<char *> envp;
    for (QByteArray &e : envStorage)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    const uid_t runUid = user ? user->uid : 0;
    const gid_t runGid = user ? user->gid : 0;
    const bool switchUser = user.has_value();
    // IMPRINT_CHROMIUM_DEBUG: the browser's own log on this process's stderr.
    const bool keepStderr = qEnvironmentVariableIsSet("IMPRINT_CHROMIUM_DEBUG");
    const NamespaceEntry entry = namespaceEntry();
    const bool isolate = isolation == ChromiumNetworkIsolation::Namespace;
    const pid_t parent = getpid();

    pid_t pid = -1;
    int forkErrno = 0;
    m_launcher = std::thread([&, this] {
        pid = fork();
        forkErrno = errno;
        if (pid == 0) {
            // The child: killed when the launcher thread (and so this process) ends; its
            // own process group (so a restart ends every Chromium process); the pipe ends
            // at 3 and 4 whatever numbers they had; nothing else inherited.
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != parent)
                _exit(125); // the server died before prctl()
            setpgid(0, 0);
            if (isolate && !enterNetworkNamespace(entry))
                _exit(126);
            // Root's powers end here: the namespace is made, the rest needs none.
            if (switchUser && (setgroups(0, nullptr) != 0 || setgid(runGid) != 0 || setuid(runUid) != 0))
                _exit(124);
            // A change of user clears the parent-death signal (prctl(2)): without it again,
            // a browser running as the account outlived a server killed with SIGKILL (seen:
            // six orphaned browsers spinning after killed test servers). The parent may
            // have died in between, before the signal was armed again.
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != parent)
                _exit(125);
            const int in = fcntl(toBrowser[0], F_DUPFD, 10), out = fcntl(fromBrowser[1], F_DUPFD, 10);
            const int null = open("/dev/null", O_RDWR);
            dup2(null, 0);
            dup2(null, 1);
            if (!keepStderr)
                dup2(null, 2);
            dup2(in, 3);
            dup2(out, 4);
            execve(argv[0], argv.data(), envp.data());
            _exit(127);
        }
        const bool forked = pid > 0; // start()'s locals are gone once it is told
        {
            std::lock_guard lock(m_launchMutex);
            m_launched = true;
        }
        m_launchChanged.notify_all();
        if (!forked)
            return;
        std::unique_lock lock(m_launchMutex);
        m_launchChanged.wait(lock, [this] { return m_stopping; });
    });
    {
        std::unique_lock lock(m_launchMutex);
        m_launchChanged.wait(lock, [this] { return m_launched; });
    }
    if (pid < 0) {
        ::close(toBrowser[0]);
        ::close(toBrowser[1]);
        ::close(fromBrowser[0]);
        ::close(fromBrowser[1]);
        return QStringLiteral("fork: %1").arg(QString::fromLocal8Bit(strerror(forkErrno)));
    }
    setpgid(pid, pid);
    ::close(toBrowser[0]);
    ::close(fromBrowser[1]);
    m_pid = pid;
    m_write = toBrowser[1];
    m_read = fromBrowser[0];
    m_reader = std::thread([this] { readLoop(); });
    return common::Done{};
}

void DevToolsPipe::stop()
{
    if (m_pid > 0) {
        ::kill(-m_pid, SIGKILL);
        ::kill(m_pid, SIGKILL);
    }
    if (m_write >= 0)
        ::close(m_write);
    m_write = -1;
    if (m_reader.joinable())
        m_reader.join();
    if (m_read >= 0)
        ::close(m_read);
    m_read = -1;
    if (m_pid > 0)
        waitpid(m_pid, nullptr, 0);
    m_pid = 0;
    {
        std::lock_guard lock(m_launchMutex);
        m_stopping = true;
    }
    m_launchChanged.notify_all();
    if (m_launcher.joinable())
        m_launcher.join();
}

void DevToolsPipe::kill()
{
    if (m_pid > 0)
        ::kill(-m_pid, SIGKILL);
}

bool DevToolsPipe::alive() const
{
    std::lock_guard lock(m_mutex);
    return !m_dead;
}

int DevToolsPipe::send(const QString &method, const QJsonObject &params, const QString &session, bool discard,
                       QDeadlineTimer deadline)
{
    QJsonObject message{{QStringLiteral("method"), method}, {QStringLiteral("params"), params}};
    int id;
    {
        std::lock_guard lock(m_mutex);
        if (m_dead)
            return 0;
        id = ++m_nextId;
    }
    message.insert(QStringLiteral("id"), id);
    if (!session.isEmpty())
        message.insert(QStringLiteral("sessionId"), session);
    QByteArray bytes = QJsonDocument(message).toJson(QJsonDocument::Compact);
    if (bytes.size() >= kMaxMessageBytes)
        return 0;
    bytes.append('\0');
    if (discard) {
        std::lock_guard lock(m_mutex);
        m_discard.insert(id);
    }
    // A render's write is bounded by its deadline too, but not below 250 ms: a browser
    // that reads takes the largest message in far less, and cutting one kills the browser.
    const qint64 bound = deadline.isForever()
                             ? m_writeTimeoutMs
                             : std::clamp<qint64>(deadline.remainingTime(), 250, m_writeTimeoutMs);
    return writeAll(bytes, int(bound)) ? id : 0;
}

bool DevToolsPipe::writeAll(const QByteArray &bytes, int timeoutMs)
{
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    std::unique_lock lock(m_writeMutex, until);
    if (!lock.owns_lock()) {
        // Another thread's write has held the pipe for the whole bound: that one ends
        // the browser when its own bound passes.
        return false;
    }
    qsizetype done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(m_write, bytes.constData() + done, size_t(bytes.size() - done));
        if (n > 0) {
            done += n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                                  until - std::chrono::steady_clock::now())
                                  .count();
            pollfd p{m_write, POLLOUT, 0};
            if (left > 0 && (::poll(&p, 1, int(left)) > 0 || errno == EINTR))
                continue;
            // The browser stopped reading: a message cut half way leaves the pipe unusable.
            qWarning("chromium: the browser took no message for %d ms; it is restarted", timeoutMs);
        }
        kill();
        markDead();
        return false;
    }
    return true;
}

DevToolsPipe::Wait DevToolsPipe::wait(int id, const QString &session, QJsonObject *answer, QJsonObject *event,
                                      int ms)
{
    std::unique_lock lock(m_mutex);
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    for (;;) {
        if (id) {
            auto it = m_answers.find(id);
            if (it != m_answers.end()) {
                *answer = std::move(it->second);
                m_answers.erase(it);
                return Wait::Ready;
            }
        }
        if (event) {
            auto q = m_events.find(session);
            if (q != m_events.end() && !q->second.empty()) {
                *event = std::move(q->second.front());
                q->second.pop_front();
                return Wait::Event;
            }
        }
        if (m_dead)
            return Wait::Dead;
        if (m_changed.wait_until(lock, until) == std::cv_status::timeout)
            return Wait::Timeout;
    }
}

void DevToolsPipe::discardAnswer(int id)
{
    std::lock_guard lock(m_mutex);
    if (!m_answers.erase(id))
        m_discard.insert(id);
}

void DevToolsPipe::route(const QString &child, const QString &page)
{
    std::lock_guard lock(m_mutex);
    m_routes[child] = page;
}

void DevToolsPipe::dropSession(const QString &session)
{
    std::lock_guard lock(m_mutex);
    m_events.erase(session);
    for (auto it = m_routes.begin(); it != m_routes.end();)
        it = it->second == session || it->first == session ? m_routes.erase(it) : std::next(it);
}

void DevToolsPipe::markDead()
{
    std::lock_guard lock(m_mutex);
    m_dead = true;
    m_changed.notify_all();
}

bool DevToolsFrameReader::append(const char *bytes, qsizetype size,
                                 const std::function<void(const QJsonObject &)> &deliver)
{
    if (m_failed)
        return false;
    m_buffer.append(bytes, size);
    qsizetype start = 0;
    for (qsizetype end; (end = m_buffer.indexOf('\0', start)) >= 0; start = end + 1) {
        if (end - start > m_maxMessageBytes) {
            m_buffer.clear();
            m_failed = true;
            return false;
        }
        deliver(QJsonDocument::fromJson(QByteArray::fromRawData(m_buffer.constData() + start, end - start)).object());
    }
    m_buffer.remove(0, start);
    if (m_buffer.size() > m_maxMessageBytes) {
        m_buffer.clear();
        m_failed = true;
    }
    return !m_failed;
}

void DevToolsPipe::readLoop()
{
    DevToolsFrameReader frames(kMaxIncomingBytes);
    const auto deliverOne = [this](const QJsonObject &message) { deliver(message); };
    char chunk[65536];
    for (;;) {
        const ssize_t n = ::read(m_read, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        if (!frames.append(chunk, n, deliverOne)) {
            // A message larger than any answer we ask for (the base64 PNG of the largest
            // image a plan allows): the browser is not one we can trust to talk to.
            qWarning("chromium: a message from the browser passed %lld bytes; it is restarted",
                     static_cast<long long>(kMaxIncomingBytes));
            kill();
            break;
        }
    }
    markDead();
}

void DevToolsPipe::deliver(const QJsonObject &message)
{
    std::lock_guard lock(m_mutex);
    const int id = message.value(QLatin1String("id")).toInt();
    if (id) {
        if (!m_discard.erase(id))
            m_answers.emplace(id, message);
    } else {
        QString session = message.value(QLatin1String("sessionId")).toString();
        if (const auto route = m_routes.find(session); route != m_routes.end())
            session = route->second;
        // Events of the browser target and of sessions nobody waits on are not kept.
        if (!session.isEmpty())
            m_events[session].push_back(message);
    }
    m_changed.notify_all();
}

qint64 processGroupMemoryBytes(pid_t group)
{
    if (group <= 0)
        return 0;
    qint64 total = 0;
    const long page = sysconf(_SC_PAGESIZE);
    const QStringList pids = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &p : pids) {
        bool ok = false;
        p.toInt(&ok);
        if (!ok)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(p));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        // Fields after the command name (which may hold spaces) start after the last ')'.
        const QList<QByteArray> f = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (f.size() > 21 && f.at(2).toLongLong() == group) // pgrp, then rss (field 24)
            total += f.at(21).toLongLong() * page;
    }
    return total;
}

} // namespace imprint::render
