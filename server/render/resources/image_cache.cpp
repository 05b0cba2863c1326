#include "server/render/resources/image_cache.h"

#include "server/render/resources/image_decoder.h"

namespace imprint::render {

ImageCache::ImageCache(qint64 capacityBytes)
    : m_cache(capacityBytes, true)
{ }

QImage ImageCache::load(const QString &url, QString *error)
{
    if (auto hit = m_cache.find(url))
        return *hit;
    QImage image = decodeDataUrlImage(url, error);
    if (image.isNull())
        return image;
    // An SVG's source travels with its pixels (svgSource()): it counts too.
    const qint64 cost = image.sizeInBytes() + url.size() * qint64(sizeof(QChar)) + svgSource(image).size();
    if (cost <= m_cache.capacity() / 4)
        m_cache.insert(url, image, cost);
    return image;
}

} // namespace imprint::render
