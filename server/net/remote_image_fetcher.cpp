// The remote image fetcher and its cache (see remote_image_fetcher.h).

#include "server/net/remote_image_fetcher.h"

#include "server/net/pinned_request.h"

#include "server/net/address_policy.h"
#include "server/render/resources/image_decoder.h"

#include <QCryptographicHash>
#include <QDataStream>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QHostInfo>
#include <QMutex>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QSaveFile>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <condition_variable>
#include <list>
#include <mutex>
#include <optional>

namespace imprint::net {

namespace {

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

FetchError error(FetchError::Kind kind, const QString &message)
{
    return FetchError{kind, message};
}

/// One cached answer.
struct CacheEntry {
    QByteArray bytes;
    QSize size;
    QByteArray etag; ///< ETag as sent, quotes included; empty when none
    QByteArray lastModified; ///< Last-Modified as sent; empty when none
    qint64 expiresAtMs = 0; ///< fresh until (wall clock, ms since the epoch)
    bool fresh() const { return nowMs() < expiresAtMs; }
    bool revalidatable() const { return !etag.isEmpty() || !lastModified.isEmpty(); }
    qint64 cost() const { return bytes.size() + etag.size() + lastModified.size() + 64; }
};

constexpr quint32 kDiskMagic = 0x494d5249; // "IMRI"
constexpr quint32 kDiskVersion = 1;

QByteArray serialize(const QString &url, const CacheEntry &e)
{
    QByteArray out;
    QDataStream s(&out, QIODevice::WriteOnly);
    s << kDiskMagic << kDiskVersion << url << e.size << e.etag << e.lastModified << e.expiresAtMs << e.bytes;
    return out;
}

std::optional<CacheEntry> deserialize(const QByteArray &data, const QString &url)
{
    QDataStream s(data);
    quint32 magic = 0, version = 0;
    QString storedUrl;
    CacheEntry e;
    s >> magic >> version >> storedUrl >> e.size >> e.etag >> e.lastModified >> e.expiresAtMs >> e.bytes;
    // A hash collision or a torn file must not serve another URL's bytes.
    if (s.status() != QDataStream::Ok || magic != kDiskMagic || version != kDiskVersion || storedUrl != url)
        return std::nullopt;
    return e;
}

/// Memory LRU of entries bounded by their byte cost. Thread-safe.
class MemoryCache
{
public:
    explicit MemoryCache(qint64 capacity)
        : m_capacity(capacity)
    { }
    std::optional<CacheEntry> get(const QString &key)
    {
        QMutexLocker lock(&m_mutex);
        const auto it = m_index.find(key);
        if (it == m_index.end())
            return std::nullopt;
        m_list.splice(m_list.begin(), m_list, *it);
        return m_list.front().second;
    }
    void put(const QString &key, const CacheEntry &entry)
    {
        QMutexLocker lock(&m_mutex);
        removeLocked(key);
        if (entry.cost() > m_capacity / 4)
            return; // one huge image must not evict everything else
        m_list.emplace_front(key, entry);
        m_index.insert(key, m_list.begin());
        m_size += entry.cost();
        while (m_size > m_capacity && !m_list.empty()) {
            m_size -= m_list.back().second.cost();
            m_index.remove(m_list.back().first);
            m_list.pop_back();
        }
    }
    void remove(const QString &key)
    {
        QMutexLocker lock(&m_mutex);
        removeLocked(key);
    }

private:
    void removeLocked(const QString &key)
    {
        const auto it = m_index.find(key);
        if (it == m_index.end())
            return;
        m_size -= (*it)->second.cost();
        m_list.erase(*it);
        m_index.erase(it);
    }
    using List = std::list<std::pair<QString, CacheEntry>>;
    QMutex m_mutex;
    qint64 m_capacity;
    qint64 m_size = 0;
    List m_list;
    QHash<QString, List::iterator> m_index;
};

/// Files under one directory, one per URL (named by its SHA-256), bounded in total
/// bytes: past the bound the oldest written go first. Thread-safe.
class DiskCache
{
public:
    DiskCache(QString directory, qint64 capacity)
        : m_dir(std::move(directory))
        , m_capacity(capacity)
    {
        if (m_dir.isEmpty() || m_capacity <= 0)
            return;
        QDir().mkpath(m_dir);
        QFile::setPermissions(m_dir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        for (const QFileInfo &f : QDir(m_dir).entryInfoList(QDir::Files))
            m_size += f.size();
    }
    bool enabled() const { return !m_dir.isEmpty() && m_capacity > 0; }
    std::optional<CacheEntry> get(const QString &url)
    {
        if (!enabled())
            return std::nullopt;
        QFile f(path(url));
        if (!f.open(QIODevice::ReadOnly))
            return std::nullopt;
        return deserialize(f.readAll(), url);
    }
    void put(const QString &url, const CacheEntry &entry)
    {
        if (!enabled() || entry.cost() > m_capacity / 4)
            return;
        const QByteArray data = serialize(url, entry);
        std::lock_guard lock(m_mutex);
        const QString p = path(url);
        const qint64 before = QFileInfo(p).size();
        QSaveFile f(p);
        if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.commit())
            return;
        QFile::setPermissions(p, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        m_size += data.size() - before;
        if (m_size <= m_capacity)
            return;
        // Oldest first; cheap enough as it runs only when the bound is crossed.
        const auto files = QDir(m_dir).entryInfoList(QDir::Files, QDir::Time | QDir::Reversed);
        for (const QFileInfo &old : files) {
            if (m_size <= m_capacity * 3 / 4)
                break;
            if (old.filePath() == p)
                continue;
            if (QFile::remove(old.filePath()))
                m_size -= old.size();
        }
    }
    void remove(const QString &url)
    {
        if (!enabled())
            return;
        std::lock_guard lock(m_mutex);
        const QString p = path(url);
        const qint64 size = QFileInfo(p).size();
        if (QFile::remove(p))
            m_size -= size;
    }

private:
    QString path(const QString &url) const
    {
        return m_dir + QLatin1Char('/')
               + QString::fromLatin1(QCryptographicHash::hash(url.toUtf8(), QCryptographicHash::Sha256).toHex());
    }
    QString m_dir;
    qint64 m_capacity;
    std::mutex m_mutex;
    qint64 m_size = 0;
};

/// The Cache-Control directives this cache honours (RFC 9111 §5.2.2).
struct CacheControl {
    bool noStore = false;
    bool noCache = false;
    std::optional<qint64> maxAge;
};

CacheControl cacheControl(const QByteArray &header)
{
    CacheControl cc;
    for (const QByteArray &raw : header.split(',')) {
        const QByteArray directive = raw.trimmed().toLower();
        if (directive == "no-store")
            cc.noStore = true;
        else if (directive == "no-cache" || directive.startsWith("no-cache="))
            cc.noCache = true;
        else if (directive.startsWith("max-age=")) {
            bool ok = false;
            const qint64 v = directive.mid(8).replace('"', QByteArray()).toLongLong(&ok);
            if (ok && v >= 0)
                cc.maxAge = v;
        }
    }
    return cc;
}

/// The freshness lifetime of an answer, ms (RFC 9111 §4.2.1: max-age, else Expires −
/// Date, else §4.2.2's heuristic of a tenth of the time since Last-Modified, capped at a
/// day, else the policy's default).
qint64 freshnessMs(const QNetworkReply &reply, const CacheControl &cc, int defaultMaxAgeSeconds)
{
    if (cc.noCache)
        return 0;
    if (cc.maxAge)
        return *cc.maxAge * 1000;
    const QDateTime date = QDateTime::fromString(QString::fromLatin1(reply.rawHeader("Date")), Qt::RFC2822Date);
    const QDateTime now = date.isValid() ? date : QDateTime::currentDateTimeUtc();
    if (reply.hasRawHeader("Expires")) {
        const QDateTime expires
            = QDateTime::fromString(QString::fromLatin1(reply.rawHeader("Expires")), Qt::RFC2822Date);
        return expires.isValid() ? std::max<qint64>(0, now.msecsTo(expires)) : 0; // invalid: already expired
    }
    const QDateTime lastModified = reply.header(QNetworkRequest::LastModifiedHeader).toDateTime();
    if (lastModified.isValid())
        return std::clamp<qint64>(lastModified.msecsTo(now) / 10, 0, 24LL * 3600 * 1000);
    return qint64(defaultMaxAgeSeconds) * 1000;
}

} // namespace

// ---------------------------------------------------------------- Pending

struct RemoteImageFetcher::Pending::State {
    std::mutex mutex;
    std::condition_variable done;
    std::optional<Result> result;
    QDeadlineTimer deadline;

    void finish(const Result &r)
    {
        std::lock_guard lock(mutex);
        if (!result)
            result = r;
        done.notify_all();
    }
};

RemoteImageFetcher::Result RemoteImageFetcher::Pending::wait() const
{
    std::unique_lock lock(m_state->mutex);
    // The fetch thread answers at the deadline; the grace covers a busy event loop.
    const auto limit = std::chrono::steady_clock::now()
                       + std::chrono::milliseconds(std::max<qint64>(0, m_state->deadline.remainingTime()) + 500);
    if (m_state->deadline.isForever())
        m_state->done.wait(lock, [&] { return m_state->result.has_value(); });
    else if (!m_state->done.wait_until(lock, limit, [&] { return m_state->result.has_value(); }))
        return FetchError{FetchError::Kind::Unavailable, QStringLiteral("no answer in time")};
    return *m_state->result;
}

// ---------------------------------------------------------------- Shared

/// One URL being fetched on the fetch thread, with everyone waiting for it.
struct Flight {
    QString key; ///< the URL as asked for: the cache key
    QUrl current; ///< the URL of the hop in progress
    int redirects = 0;
    QDeadlineTimer deadline;
    qint64 timeoutMs = 0;
    std::optional<CacheEntry> stale; ///< a cached answer to revalidate
    QList<std::shared_ptr<RemoteImageFetcher::Pending::State>> waiters;
    QPointer<QNetworkReply> reply;
    int lookupId = -1;
    QList<QHostAddress> addresses; ///< the current host's, every one checked
    qsizetype addressIndex = 0; ///< the one being tried
    QByteArray body;
    QTimer *timer = nullptr; ///< on the fetch thread, deleted (later) when the flight ends
    bool finished = false;
};

struct RemoteImageFetcher::Shared {
    RemoteImagePolicy policy;
    MemoryCache memory;
    DiskCache disk;
    QThread thread;
    QObject *context = nullptr; ///< lives on `thread`: the receiver of every queued call
    QNetworkAccessManager *manager = nullptr; ///< created and used on `thread` only
    QHash<QString, std::shared_ptr<Flight>> flights; ///< fetch thread only

    std::atomic<quint64> requests{0}, memoryHits{0}, diskHits{0}, downloads{0}, notModified{0}, failures{0};

    Shared(RemoteImagePolicy p, const RemoteImageCacheOptions &c)
        : policy(std::move(p))
        , memory(c.memoryBytes)
        , disk(c.directory, c.diskBytes)
    {
        for (QString &h : policy.hostAllowlist)
            h = h.trimmed().toLower();
    }

    // All below run on the fetch thread.
    void begin(const std::shared_ptr<Flight> &f);
    void connectTo(const std::shared_ptr<Flight> &f, const QList<QHostAddress> &addresses);
    void send(const std::shared_ptr<Flight> &f);
    void onFinished(const std::shared_ptr<Flight> &f);
    void succeed(const std::shared_ptr<Flight> &f, const FetchedImage &image);
    void fail(const std::shared_ptr<Flight> &f, const FetchError &e);
    void end(const std::shared_ptr<Flight> &f, const Result &r);
    void storeAnswer(const std::shared_ptr<Flight> &f, const QNetworkReply &reply, const FetchedImage &image);
};

void RemoteImageFetcher::Shared::end(const std::shared_ptr<Flight> &f, const Result &r)
{
    if (f->finished)
        return;
    f->finished = true;
    if (f->timer) {
        f->timer->stop();
        f->timer->deleteLater(); // this may run inside its own timeout()
        f->timer = nullptr;
    }
    if (f->lookupId >= 0)
        QHostInfo::abortHostLookup(f->lookupId);
    if (f->reply) {
        f->reply->disconnect();
        f->reply->abort();
        f->reply->deleteLater();
    }
    flights.remove(f->key);
    if (!r)
        ++failures;
    for (const auto &w : f->waiters)
        w->finish(r);
}

void RemoteImageFetcher::Shared::fail(const std::shared_ptr<Flight> &f, const FetchError &e)
{
    end(f, e);
}

void RemoteImageFetcher::Shared::succeed(const std::shared_ptr<Flight> &f, const FetchedImage &image)
{
    end(f, image);
}

/// Step 1 of a hop: the scheme, then the host resolved once (QHostInfo) or taken as an
/// IP literal.
void RemoteImageFetcher::Shared::begin(const std::shared_ptr<Flight> &f)
{
    const QUrl &url = f->current;
    const QString scheme = url.scheme().toLower();
    if (scheme != QLatin1String("http") && scheme != QLatin1String("https"))
        return fail(f, error(FetchError::Kind::Refused,
                             QStringLiteral("only http and https images are fetched, not %1:").arg(scheme)));
    if (!url.isValid() || url.host().isEmpty())
        return fail(f, error(FetchError::Kind::Refused, QStringLiteral("the URL has no valid host")));
    QHostAddress literal;
    if (literal.setAddress(url.host()))
        return connectTo(f, {literal});
    std::weak_ptr<Flight> weak = f;
    f->lookupId = QHostInfo::lookupHost(url.host(), context, [this, weak](const QHostInfo &info) {
        const auto flight = weak.lock();
        if (!flight || flight->finished)
            return;
        flight->lookupId = -1;
        if (info.error() != QHostInfo::NoError || info.addresses().isEmpty())
            return fail(flight, error(FetchError::Kind::Unavailable,
                                      QStringLiteral("the host %1 does not resolve").arg(flight->current.host())));
        connectTo(flight, info.addresses());
    });
}

/// Step 2: every address checked unless the host is allowlisted, then the request sent to
/// the first one, the URL's host named in Host and, for https, in SNI and the
/// certificate check.
void RemoteImageFetcher::Shared::connectTo(const std::shared_ptr<Flight> &f, const QList<QHostAddress> &addresses)
{
    const QUrl &url = f->current;
    const QString host = url.host().toLower();
    if (!policy.hostAllowlist.contains(host)) {
        for (const QHostAddress &a : addresses) {
            const AddressClass c = classifyAddress(a);
            if (c != AddressClass::Public)
                return fail(f, error(FetchError::Kind::Refused,
                                     QStringLiteral("%1 is a %2 address, and %3 is not in render.imageHostAllowlist")
                                         .arg(a.toString(), addressClassName(c), host)));
        }
    }
    f->addresses = addresses;
    f->addressIndex = 0;
    send(f);
}

/// Step 3: the request to the checked address f->addresses[f->addressIndex].
void RemoteImageFetcher::Shared::send(const std::shared_ptr<Flight> &f)
{
    const QUrl &url = f->current;
    QNetworkRequest request = pinnedRequest(url, f->addresses.at(f->addressIndex));
    request.setRawHeader("User-Agent", "Imprint/" IMPRINT_VERSION " (image fetcher)");
    request.setRawHeader("Accept", "image/png,image/jpeg,image/gif,image/webp,image/svg+xml,*/*;q=0.5");
    // Images are compressed already; identity keeps the body limit a limit on the wire.
    request.setRawHeader("Accept-Encoding", "identity");
    if (f->stale && f->redirects == 0) {
        if (!f->stale->etag.isEmpty())
            request.setRawHeader("If-None-Match", f->stale->etag);
        if (!f->stale->lastModified.isEmpty())
            request.setRawHeader("If-Modified-Since", f->stale->lastModified);
    }
    ++downloads;
    f->body.clear();
    QNetworkReply *reply = manager->get(request);
    f->reply = reply;
    std::weak_ptr<Flight> weak = f;
    const auto successful = [reply] {
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        return status >= 200 && status < 300;
    };
    QObject::connect(reply, &QNetworkReply::metaDataChanged, context, [this, weak, reply, successful] {
        const auto flight = weak.lock();
        if (!flight || flight->finished || !successful())
            return;
        const qint64 length = reply->header(QNetworkRequest::ContentLengthHeader).toLongLong();
        if (length > policy.maxBytes)
            fail(flight,
                 error(FetchError::Kind::TooLarge,
                       QStringLiteral("the image is %1 bytes, the limit is %2").arg(length).arg(policy.maxBytes)));
    });
    QObject::connect(reply, &QIODevice::readyRead, context, [this, weak, reply, successful] {
        const auto flight = weak.lock();
        if (!flight || flight->finished)
            return;
        if (!successful()) {
            reply->readAll(); // a redirect's or an error's body is not kept
            return;
        }
        flight->body += reply->read(policy.maxBytes + 1 - flight->body.size());
        if (flight->body.size() > policy.maxBytes)
            fail(flight, error(FetchError::Kind::TooLarge,
                               QStringLiteral("the image is larger than the limit of %1 bytes").arg(policy.maxBytes)));
    });
    QObject::connect(reply, &QNetworkReply::finished, context, [this, weak] {
        if (const auto flight = weak.lock(); flight && !flight->finished)
            onFinished(flight);
    });
}

/// Step 4: a redirect starts a new hop (checked again), 304 serves the revalidated entry,
/// 2xx is sniffed and its header's size checked, anything else is unavailable.
void RemoteImageFetcher::Shared::onFinished(const std::shared_ptr<Flight> &f)
{
    QNetworkReply *reply = f->reply;
    f->reply = nullptr;
    if (!reply)
        return fail(f, error(FetchError::Kind::Unavailable, QStringLiteral("the request was lost")));
    reply->deleteLater();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    // A host with several addresses (localhost: ::1 and 127.0.0.1) may listen on only
    // some: the next checked address is tried, never a new lookup.
    if (status == 0 && reply->error() == QNetworkReply::ConnectionRefusedError
        && f->addressIndex + 1 < f->addresses.size()) {
        ++f->addressIndex;
        return send(f);
    }
    if (status == 0)
        return fail(f, error(FetchError::Kind::Unavailable,
                             QStringLiteral("the request failed: %1").arg(reply->errorString())));
    if (status == 301 || status == 302 || status == 303 || status == 307 || status == 308) {
        const QByteArray location = reply->rawHeader("Location");
        if (location.isEmpty())
            return fail(f, error(FetchError::Kind::Unavailable,
                                 QStringLiteral("the server answered %1 without a Location").arg(status)));
        if (++f->redirects > policy.maxRedirects)
            return fail(f, error(FetchError::Kind::Unavailable,
                                 QStringLiteral("more than %1 redirects").arg(policy.maxRedirects)));
        f->current = f->current.resolved(QUrl::fromEncoded(location));
        return begin(f);
    }
    if (status == 304 && f->stale && f->redirects == 0) {
        ++notModified;
        CacheEntry entry = *f->stale;
        const CacheControl cc = cacheControl(reply->rawHeader("Cache-Control"));
        entry.expiresAtMs = nowMs() + freshnessMs(*reply, cc, policy.defaultMaxAgeSeconds);
        if (cc.noStore) {
            memory.remove(f->key);
            disk.remove(f->key);
        } else {
            memory.put(f->key, entry);
            disk.put(f->key, entry);
        }
        return succeed(f, FetchedImage{entry.bytes, entry.size, true});
    }
    if (status < 200 || status >= 300)
        return fail(f, error(FetchError::Kind::Unavailable, QStringLiteral("the server answered %1").arg(status)));
    if (f->body.size() <= policy.maxBytes)
        f->body += reply->read(policy.maxBytes + 1 - f->body.size());
    if (f->body.size() > policy.maxBytes)
        return fail(f, error(FetchError::Kind::TooLarge,
                             QStringLiteral("the image is larger than the limit of %1 bytes").arg(policy.maxBytes)));
    if (reply->error() != QNetworkReply::NoError)
        return fail(f, error(FetchError::Kind::Unavailable,
                             QStringLiteral("the download failed: %1").arg(reply->errorString())));
    // The bytes say what the body is; Content-Type is not trusted.
    const render::ImageFormat format = render::sniffImageFormat(f->body);
    if (format == render::ImageFormat::Unknown)
        return fail(f, error(FetchError::Kind::Unavailable,
                             QStringLiteral("the answer is not a PNG, JPEG, GIF, WebP or SVG image")));
    FetchedImage image;
    image.bytes = f->body;
    if (format != render::ImageFormat::Svg) {
        const auto size = render::imageHeaderSize(f->body);
        if (!size)
            return fail(f, error(FetchError::Kind::Unavailable, QStringLiteral("the image header is unreadable")));
        // Before any pixel is decoded: a small file can declare an enormous image.
        if (qint64(size->width()) * size->height() > policy.maxPixels)
            return fail(f, error(FetchError::Kind::TooLarge,
                                 QStringLiteral("the image is %1×%2 px, over the limit of %3 megapixels")
                                     .arg(size->width())
                                     .arg(size->height())
                                     .arg(double(policy.maxPixels) / 1e6)));
        image.size = *size;
    }
    storeAnswer(f, *reply, image);
    succeed(f, image);
}

void RemoteImageFetcher::Shared::storeAnswer(const std::shared_ptr<Flight> &f, const QNetworkReply &reply,
                                             const FetchedImage &image)
{
    const CacheControl cc = cacheControl(reply.rawHeader("Cache-Control"));
    if (cc.noStore) {
        memory.remove(f->key);
        disk.remove(f->key);
        return;
    }
    CacheEntry entry;
    entry.bytes = image.bytes;
    entry.size = image.size;
    // Validators of a redirected answer belong to the last URL, not the cache key's.
    if (f->redirects == 0) {
        entry.etag = reply.rawHeader("ETag");
        entry.lastModified = reply.rawHeader("Last-Modified");
    }
    entry.expiresAtMs = nowMs() + freshnessMs(reply, cc, policy.defaultMaxAgeSeconds);
    if (!entry.fresh() && !entry.revalidatable())
        return; // nothing to gain from keeping it
    memory.put(f->key, entry);
    disk.put(f->key, entry);
}

// ---------------------------------------------------------------- RemoteImageFetcher

RemoteImageFetcher::RemoteImageFetcher(RemoteImagePolicy policy, RemoteImageCacheOptions cache)
    : d(std::make_unique<Shared>(std::move(policy), cache))
{
    d->context = new QObject;
    d->manager = startNetworkThread(d->thread, d->context, QStringLiteral("imprint-image-fetch"));
}

RemoteImageFetcher::~RemoteImageFetcher()
{
    Shared *s = d.get();
    QMetaObject::invokeMethod(
        d->context,
        [s] {
            const auto flights = s->flights.values();
            for (const auto &f : flights)
                s->fail(f, error(FetchError::Kind::Unavailable, QStringLiteral("the server is shutting down")));
            // Deleted (with the manager, replies and timers) as the thread finishes.
            s->context->deleteLater();
        },
        Qt::BlockingQueuedConnection);
    d->thread.quit();
    d->thread.wait();
}

RemoteImageFetcher::Pending RemoteImageFetcher::start(const QUrl &url, QDeadlineTimer deadline)
{
    ++d->requests;
    Pending pending;
    pending.m_state = std::make_shared<Pending::State>();
    const QDeadlineTimer own(d->policy.timeoutMs);
    pending.m_state->deadline = deadline.deadline() < own.deadline() ? deadline : own;
    const QString key = url.toString(QUrl::FullyEncoded | QUrl::RemoveFragment);

    // Fresh in memory, then on disk: no thread hop, no network.
    std::optional<CacheEntry> cached = d->memory.get(key);
    if (cached && cached->fresh()) {
        ++d->memoryHits;
        pending.m_state->finish(FetchedImage{cached->bytes, cached->size, true});
        return pending;
    }
    if (!cached) {
        cached = d->disk.get(key);
        if (cached && cached->fresh()) {
            ++d->diskHits;
            d->memory.put(key, *cached);
            pending.m_state->finish(FetchedImage{cached->bytes, cached->size, true});
            return pending;
        }
    }
    if (cached && !cached->revalidatable())
        cached.reset();

    Shared *s = d.get();
    auto state = pending.m_state;
    QMetaObject::invokeMethod(d->context, [s, key, url, state, cached] {
        if (const auto it = s->flights.constFind(key); it != s->flights.constEnd()) {
            (*it)->waiters.append(state); // one request for every concurrent caller
            return;
        }
        auto f = std::make_shared<Flight>();
        f->key = key;
        f->current = url;
        f->deadline = state->deadline;
        f->stale = cached;
        f->waiters.append(state);
        s->flights.insert(key, f);
        f->timer = new QTimer(s->context);
        f->timer->setSingleShot(true);
        std::weak_ptr<Flight> weak = f;
        QObject::connect(f->timer, &QTimer::timeout, s->context, [s, weak] {
            if (const auto flight = weak.lock(); flight && !flight->finished)
                s->fail(flight, error(FetchError::Kind::Unavailable,
                                      QStringLiteral("no complete answer within %1 ms").arg(s->policy.timeoutMs)));
        });
        f->timer->start(int(std::max<qint64>(0, f->deadline.remainingTime())));
        s->begin(f);
    });
    return pending;
}

const RemoteImagePolicy &RemoteImageFetcher::policy() const
{
    return d->policy;
}

RemoteImageStats RemoteImageFetcher::stats() const
{
    RemoteImageStats s;
    s.requests = d->requests;
    s.memoryHits = d->memoryHits;
    s.diskHits = d->diskHits;
    s.downloads = d->downloads;
    s.notModified = d->notModified;
    s.failures = d->failures;
    return s;
}

QString fetchErrorCodeName(FetchError::Kind kind)
{
    switch (kind) {
    case FetchError::Kind::Unavailable: return QStringLiteral("image_unavailable");
    case FetchError::Kind::Refused: return QStringLiteral("image_refused");
    case FetchError::Kind::TooLarge: return QStringLiteral("image_too_large");
    }
    return QStringLiteral("image_unavailable");
}

bool isRemoteImageUrl(const QString &url)
{
    const qsizetype colon = url.indexOf(QLatin1Char(':'));
    if (colon < 2)
        return false; // no scheme (a relative reference), or a drive letter
    const QString scheme = url.left(colon).toLower();
    for (QChar c : scheme)
        if (!(c.isLetterOrNumber() || c == QLatin1Char('+') || c == QLatin1Char('-') || c == QLatin1Char('.')))
            return false;
    return scheme != QLatin1String("data") && scheme != QLatin1String("asset");
}

} // namespace imprint::net
