// The decoded-image cache behind loadDataUrlImage() (image_decoder.h).

#include "server/render/resources/image_decoder.h"

#include <QCache>
#include <QMutex>
#include <QMutexLocker>

namespace imprint::render {

namespace {

/// Decoded data: URL images, shared by all render threads: the same template renders
/// again and again, and decoding (inflate) costs far more than the rest of the tree.
/// Bounded in bytes (image pixels + the URL text kept as key).
class DecodedImageCache
{
public:
    static DecodedImageCache &instance()
    {
        static DecodedImageCache cache;
        return cache;
    }
    std::optional<QImage> find(const QString &url)
    {
        QMutexLocker lock(&m_mutex);
        if (const QImage *hit = m_cache.object(url))
            return *hit;
        return std::nullopt;
    }
    void insert(const QString &url, const QImage &image)
    {
        const qsizetype cost = image.sizeInBytes() + url.size() * qsizetype(sizeof(QChar));
        if (cost > kMaxCost / 4)
            return;
        QMutexLocker lock(&m_mutex);
        m_cache.insert(url, new QImage(image), cost);
    }

private:
    static constexpr qsizetype kMaxCost = 32 * 1024 * 1024;
    QMutex m_mutex;
    QCache<QString, QImage> m_cache{kMaxCost};
};

} // namespace

QImage loadDataUrlImage(const QString &url, QString *error)
{
    if (auto hit = DecodedImageCache::instance().find(url))
        return *hit;
    QImage image = decodeDataUrlImage(url, error);
    if (!image.isNull())
        DecodedImageCache::instance().insert(url, image);
    return image;
}

} // namespace imprint::render
