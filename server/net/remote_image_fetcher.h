#pragma once
// Remote images (docs/remote-images.md): `http(s)://` image sources fetched by the
// server under a policy a public deployment can trust, behind a bounded cache. One
// instance serves the whole process; any thread may call it. The network work runs on a
// thread of its own (QNetworkAccessManager is thread-affine), so a caller only waits.
//
// The policy, per fetch: only http and https; the host resolved once and every address
// it resolves to checked (address_policy.h) unless the host is allowlisted; the
// connection made to the checked address (the URL's host goes in the Host header and, for
// https, the certificate check and SNI), so a second lookup cannot swap it (DNS
// rebinding); redirects followed by hand, at most RemoteImagePolicy::maxRedirects, each
// checked again; a body limit, a total time limit and a pixel limit read from the image
// header before any pixel is decoded; the format sniffed from the bytes.
//
// The cache: fresh answers (Cache-Control max-age, else Expires, else a heuristic) are
// served from memory, then from disk, without touching the network; stale ones with a
// validator (ETag, Last-Modified) are revalidated with a conditional request; no-store
// answers are never kept, no-cache ones always revalidated. Concurrent fetches of one
// URL share one network request.

#include "server/common/expected.h"

#include <QByteArray>
#include <QDeadlineTimer>
#include <QSize>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <atomic>
#include <memory>

namespace imprint::net {

/// What a fetch may do (config keys in docs/remote-images.md).
struct RemoteImagePolicy {
    /// render.imageHostAllowlist: hosts (names or IP literals, compared case-insensitively)
    /// that may resolve to loopback, private or other non-public addresses.
    QStringList hostAllowlist;
    qint64 maxBytes = 10 * 1024 * 1024; ///< render.remoteImages.maxBytes: body limit, bytes
    int timeoutMs = 5000; ///< render.remoteImages.timeoutMs: whole fetch, redirects included
    qint64 maxPixels = 40'000'000; ///< render.remoteImages.maxPixels: width × height, px
    int maxRedirects = 3;
    /// Freshness of an answer that states none (no max-age, Expires or Last-Modified), s.
    int defaultMaxAgeSeconds = 300;
};

/// Where and how much the cache keeps.
struct RemoteImageCacheOptions {
    QString directory; ///< disk cache (DATA/cache/remote-images); empty: memory only
    qint64 memoryBytes = 64 * 1024 * 1024; ///< render.remoteImages.memoryCacheBytes
    qint64 diskBytes = 256 * 1024 * 1024; ///< render.remoteImages.diskCacheBytes
};

/// Why an image was not fetched. The kinds are the problem+json codes of docs/api.md.
struct FetchError {
    enum class Kind : quint8 {
        Unavailable, ///< image_unavailable: no answer, a non-2xx answer, a timeout, not an image
        Refused, ///< image_refused: the policy forbids the URL (scheme, address, redirect target)
        TooLarge, ///< image_too_large: over the byte or pixel limit
    };
    Kind kind = Kind::Unavailable;
    QString message; ///< one sentence on what went wrong, without the URL
};

/// A fetched image, still encoded (PNG, JPEG, GIF, WebP or SVG by its bytes).
struct FetchedImage {
    QByteArray bytes;
    QSize size; ///< px, from the header; invalid for SVG
    bool fromCache = false; ///< served without a full download (fresh, or revalidated 304)
};

/// Counters since start (GET /api/v1/metrics could report them).
struct RemoteImageStats {
    quint64 requests = 0; ///< fetch() / start() calls
    quint64 memoryHits = 0; ///< served fresh from memory
    quint64 diskHits = 0; ///< served fresh from disk
    quint64 downloads = 0; ///< HTTP requests sent (redirect hops and revalidations included)
    quint64 notModified = 0; ///< revalidations answered 304
    quint64 failures = 0; ///< fetches that failed or were refused
};

/// The remote image fetcher and its cache. Thread-safe; not copyable.
class RemoteImageFetcher
{
public:
    using Result = common::Expected<FetchedImage, FetchError>;
    struct Shared;

    /// A fetch in progress.
    class Pending
    {
    public:
        /// Blocks until the fetch ends or its deadline passes (then Unavailable, timed out).
        Result wait() const;

        struct State; ///< shared with the fetch thread (remote_image_fetcher.cpp)

    private:
        friend class RemoteImageFetcher;
        std::shared_ptr<State> m_state;
    };

    RemoteImageFetcher(RemoteImagePolicy policy, RemoteImageCacheOptions cache = {});
    /// Stops the fetch thread; fetches still running fail as unavailable.
    ~RemoteImageFetcher();
    RemoteImageFetcher(const RemoteImageFetcher &) = delete;
    RemoteImageFetcher &operator=(const RemoteImageFetcher &) = delete;

    /// Starts fetching `url` (or joins a fetch of it in flight, or answers from the
    /// cache) to end by `deadline` at the latest (and within policy().timeoutMs).
    Pending start(const QUrl &url, QDeadlineTimer deadline = QDeadlineTimer(QDeadlineTimer::Forever));
    /// start(url, deadline).wait().
    Result fetch(const QUrl &url, QDeadlineTimer deadline = QDeadlineTimer(QDeadlineTimer::Forever))
    {
        return start(url, deadline).wait();
    }

    const RemoteImagePolicy &policy() const;
    RemoteImageStats stats() const;

private:
    std::unique_ptr<Shared> d;
};

/// The problem+json code of `kind`: "image_unavailable", "image_refused", "image_too_large".
QString fetchErrorCodeName(FetchError::Kind kind);

/// True for a URL the fetcher is asked about: one with a scheme other than `data:`
/// (and the `asset:` of uploaded assets). Such URLs are fetched — or refused, for
/// schemes other than http and https — instead of being skipped with a warning.
bool isRemoteImageUrl(const QString &url);

} // namespace imprint::net
