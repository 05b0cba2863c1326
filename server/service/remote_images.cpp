// Remote images of a render (see remote_images.h).

#include "server/service/remote_images.h"

#include "server/render/resources/image_decoder.h"
#include "server/render/resources/svg_sandbox.h"
#include "server/service/json.h"
#include "server/service/upload_service.h"

#include <QHash>
#include <QSet>

#include <memory>

namespace imprint::service {

namespace {

render::RenderErrorCode codeFor(net::FetchError::Kind kind)
{
    switch (kind) {
    case net::FetchError::Kind::Unavailable: return render::RenderErrorCode::ImageUnavailable;
    case net::FetchError::Kind::Refused: return render::RenderErrorCode::ImageRefused;
    case net::FetchError::Kind::TooLarge: return render::RenderErrorCode::ImageTooLarge;
    }
    return render::RenderErrorCode::ImageUnavailable;
}

/// Whether `v` holds a string that could be a URL with a scheme worth fetching or
/// refusing: a cheap walk that spares most renders the document pre-pass. A miss is
/// safe: the pipeline's own loader then loads data: URLs only and skips the rest.
bool mayNameUrl(const QJsonValue &v)
{
    return anyString(v, [](const QString &s) {
        return s.contains(QLatin1String("://")) || s.contains(QLatin1String("file:"), Qt::CaseInsensitive);
    });
}

render::RenderError imageError(const render::ImageSource &source, render::RenderErrorCode code, const QString &why)
{
    return render::RenderError{source.field, QStringLiteral("%1: %2").arg(source.url.left(300), why), code};
}

} // namespace

bool templateMayNameUrl(const render::Template &tmpl)
{
    return mayNameUrl(tmpl.source);
}

common::Expected<render::ImageLoader, render::RenderError> prefetchRemoteImages(const render::RenderRequest &request,
                                                                                render::RenderContext &context,
                                                                                net::RemoteImageFetcher &fetcher,
                                                                                std::optional<bool> parsedMayNameUrl)
{
    render::ImageLoader fallback = request.imageLoader;
    if (!fallback)
        fallback = [&context](const QString &url) { return context.images().load(url); };
    const bool sourceMayNameUrl = !request.parsed         ? mayNameUrl(request.document)
                                  : parsedMayNameUrl ? *parsedMayNameUrl
                                                     : templateMayNameUrl(*request.parsed);
    if (!sourceMayNameUrl && !mayNameUrl(request.pageValues) && !mayNameUrl(request.options.tweaks))
        return fallback;
    const auto sources = render::imageSources(request);
    if (!sources)
        return sources.error();
    QList<render::ImageSource> remote;
    QSet<QString> seen;
    for (const render::ImageSource &s : *sources)
        if (net::isRemoteImageUrl(s.url) && !AssetService::isAssetUrl(s.url) && !seen.contains(s.url)) {
            seen.insert(s.url);
            remote.append(s);
        }
    if (remote.isEmpty())
        return fallback;

    // All started before any is waited for: the fetch thread runs them side by side.
    const QDeadlineTimer deadline = request.cancellation.deadline();
    // A remote SVG is drawn by the sandboxed helper, which ends with the render too.
    const render::SvgRenderScope svgScope(request.cancellation);
    QList<net::RemoteImageFetcher::Pending> pending;
    pending.reserve(remote.size());
    for (const render::ImageSource &s : remote)
        pending.append(fetcher.start(QUrl(s.url), deadline));

    auto images = std::make_shared<QHash<QString, QImage>>();
    std::optional<render::RenderError> firstError;
    render::ImageDecodeLimits limits;
    limits.maxPixels = fetcher.policy().maxPixels;
    limits.maxSide = 16384;
    // The render's decoded-image budget (render_budget.h) holds here too, before any pixel
    // exists: each image's header gives its size, and one that would take the render past
    // the budget is refused undecoded.
    const qint64 maxBytes = render::requestImageByteLimit(request);
    qint64 usedBytes = 0;
    for (qsizetype i = 0; i < remote.size(); ++i) {
        const auto result = pending[i].wait();
        if (!result) {
            // The others end on the fetch thread by the same deadline; nobody waits for them.
            firstError = imageError(remote[i], codeFor(result.error().kind), result.error().message);
            break;
        }
        if (const auto size = render::imageHeaderSize(result->bytes); size && maxBytes > 0) {
            const qint64 bytes = qint64(size->width()) * size->height() * 4;
            if (usedBytes + bytes > maxBytes) {
                firstError = imageError(
                    remote[i], render::RenderErrorCode::RenderBudgetExceeded,
                    QStringLiteral("the image is %1×%2 px (%3 MiB decoded); the render's images may take at most "
                                   "%4 MiB")
                        .arg(size->width())
                        .arg(size->height())
                        .arg(double(bytes) / (1 << 20), 0, 'f', 1)
                        .arg(double(maxBytes) / (1 << 20), 0, 'f', 1));
                break;
            }
        }
        render::ImageResult image = render::decodeImage(result->bytes, limits);
        if (!image) {
            firstError = imageError(remote[i], render::RenderErrorCode::ImageUnavailable, image.error());
            break;
        }
        usedBytes += image->sizeInBytes();
        images->insert(remote[i].url, std::move(*image));
    }
    if (firstError)
        return *firstError;
    return render::ImageLoader([images, fallback](const QString &url) {
        if (const auto it = images->constFind(url); it != images->constEnd())
            return render::ImageResult(*it);
        return fallback(url);
    });
}

} // namespace imprint::service
