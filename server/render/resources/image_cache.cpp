#include "server/render/resources/image_cache.h"

#include "server/render/resources/image_decoder.h"

namespace imprint::render {

ImageCache::ImageCache(qint64 capacityBytes)
    : m_cache(capacityBytes, true)
{ }

ImageResult ImageCache::load(const QString &url)
{
    if (auto hit = m_cache.find(url))
        return *hit;
    ImageResult decoded = decodeDataUrlImage(url);
    if (!decoded)
        return decoded;
    const QImage &image = *decoded;
    // An SVG's source travels with its pixels (svgSource()): it counts too.
    const qint64 cost = image.sizeInBytes() + url.size() * qint64(sizeof(QChar)) + svgSource(image).size();
    if (cost <= m_cache.capacity() / 4)
        m_cache.insert(url, image, cost);
    return decoded;
}

} // namespace imprint::render
