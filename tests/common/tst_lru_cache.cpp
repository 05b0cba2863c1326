// ByteLruCache: the pattern-render cache must never hold more bytes than its budget and
// must drop the least recently *used* entry first, not the oldest inserted.

#include "server/common/lru_cache.h"

#include <QTest>

using imprint::common::ByteLruCache;

class TestLruCache : public QObject
{
    Q_OBJECT

private slots:
    void evictsLeastRecentlyUsed()
    {
        ByteLruCache cache(30);
        cache.put("a", QByteArray(10, 'a'));
        cache.put("b", QByteArray(10, 'b'));
        cache.put("c", QByteArray(10, 'c'));
        QCOMPARE(cache.count(), 3);
        QVERIFY(cache.get("a")); // a is now the most recently used; b the least
        cache.put("d", QByteArray(10, 'd'));
        QVERIFY(!cache.get("b"));
        QCOMPARE(*cache.get("a"), QByteArray(10, 'a'));
        QVERIFY(cache.get("c"));
        QVERIFY(cache.get("d"));
        QCOMPARE(cache.sizeBytes(), 30);
    }

    void boundIsInBytesNotEntries()
    {
        ByteLruCache cache(100);
        for (int i = 0; i < 50; ++i)
            cache.put(QString::number(i), QByteArray(1, 'x'));
        QCOMPARE(cache.count(), 50);
        cache.put("big", QByteArray(80, 'y')); // pushes out the 30 oldest one-byte entries
        QCOMPARE(cache.sizeBytes(), 100);
        QCOMPARE(cache.count(), 21);
        QVERIFY(!cache.get("29"));
        QVERIFY(cache.get("30"));
    }

    void oversizedAndReplacedEntries()
    {
        ByteLruCache cache(10);
        cache.put("k", QByteArray(4, 'a'));
        cache.put("k", QByteArray(6, 'b')); // replacing counts the new size only
        QCOMPARE(cache.sizeBytes(), 6);
        QCOMPARE(cache.count(), 1);
        cache.put("huge", QByteArray(11, 'z')); // larger than the budget: not kept, evicts nothing
        QVERIFY(!cache.get("huge"));
        QVERIFY(cache.get("k"));
        cache.put("k", QByteArray(11, 'z')); // replacing with an oversized value drops it
        QVERIFY(!cache.get("k"));
        QCOMPARE(cache.sizeBytes(), 0);
    }

    void disabled()
    {
        ByteLruCache cache(0);
        cache.put("a", QByteArray(1, 'a'));
        QVERIFY(!cache.get("a"));
        QCOMPARE(cache.count(), 0);
    }
};

QTEST_GUILESS_MAIN(TestLruCache)
#include "tst_lru_cache.moc"
