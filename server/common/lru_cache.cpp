#include "server/common/lru_cache.h"

namespace imprint::common {

std::optional<QByteArray> ByteLruCache::get(const QString &key)
{
    QMutexLocker lock(&m_mutex);
    auto it = m_index.find(key);
    if (it == m_index.end())
        return std::nullopt;
    m_list.splice(m_list.begin(), m_list, it.value());
    return it.value()->second;
}

void ByteLruCache::put(const QString &key, const QByteArray &value)
{
    QMutexLocker lock(&m_mutex);
    if (auto it = m_index.find(key); it != m_index.end()) {
        m_size -= it.value()->second.size();
        m_list.erase(it.value());
        m_index.erase(it);
    }
    if (value.size() > m_capacity)
        return;
    m_list.emplace_front(key, value);
    m_index.insert(key, m_list.begin());
    m_size += value.size();
    while (m_size > m_capacity && !m_list.empty()) {
        auto &last = m_list.back();
        m_size -= last.second.size();
        m_index.remove(last.first);
        m_list.pop_back();
    }
}

qint64 ByteLruCache::sizeBytes() const
{
    QMutexLocker lock(&m_mutex);
    return m_size;
}

int ByteLruCache::count() const
{
    QMutexLocker lock(&m_mutex);
    return int(m_list.size());
}

} // namespace imprint::common
