#pragma once
// The html engine's browser process and its DevTools pipe (docs/templates.md, "The html
// engine"): headless Chromium started with the DevTools pipe on fds 3 and 4
// (--remote-debugging-pipe: NUL-separated JSON messages,
// https://chromedevtools.github.io/devtools-protocol/), walled off from every network.
//
// The wall has two layers under the page's request policy (chromium_browser.cpp):
//  - a network namespace of its own (Linux network_namespaces(7)) with no interface up,
//    not even loopback: no packet from the browser reaches any address, this machine's
//    included. Used whenever the kernel lets this process make one (as root, or through
//    an unprivileged user namespace);
//  - always, whatever the namespace: every connection goes to a proxy at a loopback port
//    this process holds bound and never listens on, so it is refused at once
//    (--proxy-server, with `<-loopback>` so loopback addresses are not exempt), no host
//    name resolves (--host-resolver-rules), and WebRTC sends no UDP except through
//    that proxy (--webrtc-ip-handling-policy).
// The page's allowed resources never need the network: they are answered over the pipe.

#include "server/common/expected.h"
#include "server/render/resources/process_account.h"
#include <QByteArray>
#include <QDeadlineTimer>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <condition_variable>
#include <functional>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <mutex>
#include <set>
#include <thread>

#include <sys/types.h>

namespace imprint::render {

/// How the browser is kept off the network (the header's two layers).
enum class ChromiumNetworkIsolation : quint8 {
    Namespace, ///< its own network namespace with no interface, plus the refusing proxy
    ProxyOnly, ///< the refusing proxy and resolver rules alone (no namespace could be made)
};

/// Whether this process can start a child in a network namespace of its own (as root:
/// unshare(CLONE_NEWNET); otherwise inside a new user namespace). Probed once, by a
/// forked child that tries, and remembered.
bool chromiumCanIsolateNetwork();

/// A loopback TCP port bound and never listened on, held for the object's life: a
/// connection to it is refused at once, and no other process can listen on it meanwhile.
/// The browser's proxy address.
class RefusingPort
{
public:
    RefusingPort();
    ~RefusingPort();
    RefusingPort(const RefusingPort &) = delete;
    RefusingPort &operator=(const RefusingPort &) = delete;
    /// The port, 0 when no socket could be bound (then the proxy flags name port 9, discard).
    quint16 port() const { return m_port; }

private:
    int m_fd = -1;
    quint16 m_port = 0;
};

/// The command-line switches that wall the browser off (the header's second layer):
/// a proxy at 127.0.0.1:`proxyPort` for every scheme and host, loopback included; no
/// name resolution; no non-proxied UDP.
QStringList chromiumNetworkSwitches(quint16 proxyPort);

/// The DevTools pipe's framing, as bytes arrive from the browser: messages are JSON
/// objects each ended by a NUL byte. Pure (no fd), so the pipe's reader and the fuzz
/// harness (tests/fuzz/fuzz_devtools.cpp) run the same code.
class DevToolsFrameReader
{
public:
    /// `maxMessageBytes`: a message (or the unfinished rest) longer than this is an error.
    explicit DevToolsFrameReader(qsizetype maxMessageBytes) : m_maxMessageBytes(maxMessageBytes) { }

    /// Takes the next bytes; hands each complete message to `deliver` (a message that is
    /// not a JSON object arrives as an empty object, which matches no command or event).
    /// False once an unfinished message has grown past the bound: the stream cannot be
    /// trusted and nothing more is read.
    bool append(const char *bytes, qsizetype size, const std::function<void(const QJsonObject &)> &deliver);

private:
    QByteArray m_buffer;
    qsizetype m_maxMessageBytes;
    bool m_failed = false;
};

/// One running Chromium: its process group, the two pipe ends and the thread that reads
/// the browser's messages and files them by command id or session. Thread-safe.
///
/// Messages are bounded both ways: send() refuses a message over maxMessageBytes (Chromium
/// stops reading a message over 100 MB and the pipe would block for ever), a write the
/// browser does not take within the write timeout ends the browser (a message cut half
/// way leaves the pipe unusable), and an incoming message over the bound ends it too.
class DevToolsPipe
{
public:
    /// Bytes of one message to the browser (well under the 100 MB Chromium reads at most).
    static constexpr qsizetype kMaxMessageBytes = qsizetype(48) << 20;
    /// Bytes of one message from it: a 4096 × 4096 screenshot's PNG in base64 fits.
    static constexpr qsizetype kMaxIncomingBytes = qsizetype(256) << 20;

    DevToolsPipe() = default;
    ~DevToolsPipe() { stop(); }
    DevToolsPipe(const DevToolsPipe &) = delete;
    DevToolsPipe &operator=(const DevToolsPipe &) = delete;

    /// Starts `args` (args[0] the executable) in a process group of its own with the pipe
    /// on fds 3 (ours → browser) and 4 (browser → ours), inside a network namespace when
    /// `isolation` is Namespace, as `user` when given (its HOME `home`; groups dropped),
    /// after entering the namespace; its temporary files (TMPDIR) in `home`/tmp when `home`
    /// is given, so that they go with the profile. The browser is killed when this process dies, however
    /// it dies (PR_SET_PDEATHSIG from a thread that lives as long as this object). Why not
    /// when the process could not be made.
    common::Expected<common::Done, QString> start(const QStringList &args, ChromiumNetworkIsolation isolation,
                                                  const std::optional<ProcessAccount> &user = std::nullopt,
                                                  const QString &home = {});

    /// Kills the browser's process group and waits for it; idempotent.
    void stop();

    /// Ends the browser's processes; the reader then sees the pipe close and every
    /// waiter is told the browser is gone. Resources are released by stop().
    void kill();

    bool alive() const;
    pid_t pid() const { return m_pid; }

    /// The writes' bound, ms: a write the browser has not taken by then ends the browser.
    void setWriteTimeoutMs(int ms) { m_writeTimeoutMs = ms; }

    /// Sends a command; returns its id, or 0 when the browser is gone, the message is over
    /// kMaxMessageBytes (the browser lives on) or its write timed out (the browser is ended).
    /// `discard`: its answer is dropped when it comes. The write waits for the pipe at most
    /// the write timeout, and no longer than `deadline` (but at least 250 ms).
    int send(const QString &method, const QJsonObject &params, const QString &session = {}, bool discard = false,
             QDeadlineTimer deadline = QDeadlineTimer(QDeadlineTimer::Forever));

    /// What a wait ended with.
    enum class Wait { Ready, Event, Dead, Timeout };

    /// Waits up to `ms` for the answer to `id` (into `*answer`) or an event of `session`
    /// or of a session routed to it (into `*event`, when not null).
    Wait wait(int id, const QString &session, QJsonObject *answer, QJsonObject *event, int ms);

    /// Drops the answer to `id` (a command sent without `discard`) now if it came, or when
    /// it comes: nobody waits for it any more.
    void discardAnswer(int id);

    /// Files the events of `child` (a frame or worker auto-attached under `page`) with the
    /// page's, so the page's render sees them; they keep their own sessionId.
    void route(const QString &child, const QString &page);

    /// Forgets the events of a session that has ended and the sessions routed to it.
    void dropSession(const QString &session);

private:
    void markDead();
    void readLoop();
    void deliver(const QJsonObject &message);
    bool writeAll(const QByteArray &bytes, int timeoutMs);

    pid_t m_pid = 0;
    int m_write = -1, m_read = -1;
    int m_writeTimeoutMs = 5000;
    std::thread m_reader;
    // Forks the browser and lives as long as it: PR_SET_PDEATHSIG fires when the thread
    // that forked the child ends, so it may not be a pool thread that comes and goes.
    std::thread m_launcher;
    std::mutex m_launchMutex;
    std::condition_variable m_launchChanged;
    bool m_launched = false, m_stopping = false;
    std::timed_mutex m_writeMutex;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_dead = false;
    int m_nextId = 0;
    std::set<int> m_discard;
    std::map<int, QJsonObject> m_answers;
    std::map<QString, std::deque<QJsonObject>> m_events;
    std::map<QString, QString> m_routes; // child session → page session
};

/// The resident memory of every process in process group `group`, bytes.
qint64 processGroupMemoryBytes(pid_t group);

} // namespace imprint::render
