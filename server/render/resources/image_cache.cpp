#include "server/render/resources/image_cache.h"

#include "server/render/resources/image_decoder.h"

#include <QMutexLocker>

namespace imprint::render {

ImageCache::ImageCache(qint64 capacityBytes)
    : m_capacity(std::max<qint64>(capacityBytes, 0))
    , m_cache(m_capacity)
{ }

QImage ImageCache::load(const QString &url, QString *error)
{
    {
        QMutexLocker lock(&m_mutex);
        if (const QImage *hit = m_cache.object(url)) {
            ++m_hits;
            return *hit;
        }
    }
    ++m_misses;
    QImage image = decodeDataUrlImage(url, error);
    if (image.isNull())
        return image;
    const qint64 cost = image.sizeInBytes() + url.size() * qint64(sizeof(QChar));
    if (cost <= m_capacity / 4) {
        QMutexLocker lock(&m_mutex);
        m_cache.insert(url, new QImage(image), cost);
    }
    return image;
}

CacheStats ImageCache::stats() const
{
    QMutexLocker lock(&m_mutex);
    CacheStats s;
    s.hits = m_hits;
    s.misses = m_misses;
    s.entries = m_cache.count();
    s.bytes = m_cache.totalCost();
    s.capacity = m_capacity;
    return s;
}

void ImageCache::clear()
{
    QMutexLocker lock(&m_mutex);
    m_cache.clear();
}

} // namespace imprint::render
