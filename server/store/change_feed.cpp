#include "server/store/change_feed.h"

#include "server/store/sql.h"

#include <QSqlDriver>
#include <QThread>
#include <QTimer>

namespace imprint::store {

/// Lives on the feed's thread: owns the listen connection and the probe timer.
class ChangeFeedWorker : public QObject
{
public:
    ChangeFeedWorker(DatabaseSettings settings, ChangeFeed::Handler onChange, ChangeFeed::LiveHandler onLive,
                     std::shared_ptr<ChangeFeed::Counters> counters, int checkMs)
        : m_settings(std::move(settings))
        , m_onChange(std::move(onChange))
        , m_onLive(std::move(onLive))
        , m_counters(std::move(counters))
        , m_checkMs(checkMs)
        , m_name(QStringLiteral("imprint-listen-%1").arg(quintptr(this)))
    { }

    ~ChangeFeedWorker() override
    {
        if (QSqlDatabase::contains(m_name)) {
            {
                QSqlDatabase db = QSqlDatabase::database(m_name, false);
                db.close();
            }
            QSqlDatabase::removeDatabase(m_name);
        }
    }

    /// Runs on the feed's thread once it started.
    void start()
    {
        m_timer = new QTimer(this);
        m_timer->setInterval(m_checkMs);
        connect(m_timer, &QTimer::timeout, this, &ChangeFeedWorker::check);
        m_timer->start();
        check();
    }

private:
    // Probe a live connection (a PostgreSQL restart leaves it dead without a signal);
    // reopen a dead one.
    void check()
    {
        if (m_counters->live.load()) {
            QSqlDatabase db = QSqlDatabase::database(m_name, false);
            QSqlQuery q(db);
            if (db.isOpen() && q.exec(QStringLiteral("SELECT 1")))
                return;
            qCWarning(lcDb) << "change feed: listen connection lost; caches fall back to their TTL";
            db.close();
            setLive(false);
        }
        open();
    }

    void open()
    {
        if (!QSqlDatabase::contains(m_name)) {
            QSqlDatabase db = QSqlDatabase::addDatabase(m_settings.driver, m_name);
            m_settings.applyTo(db, 2);
        }
        QSqlDatabase db = QSqlDatabase::database(m_name, false);
        if (!db.isOpen() && !db.open())
            return; // retried on the next tick
        QSqlDriver *driver = db.driver();
        if (!driver->subscribedToNotifications().contains(ChangeFeed::channel())
            && !driver->subscribeToNotification(ChangeFeed::channel())) {
            qCWarning(lcDb) << "change feed: LISTEN failed:" << driver->lastError().text();
            db.close();
            return;
        }
        connect(driver, &QSqlDriver::notification, this, &ChangeFeedWorker::received, Qt::UniqueConnection);
        qCInfo(lcDb).noquote() << "change feed: listening on" << ChangeFeed::channel();
        ++m_counters->connects;
        setLive(true);
    }

    void received(const QString &name, QSqlDriver::NotificationSource, const QVariant &payload)
    {
        if (name != ChangeFeed::channel())
            return;
        ++m_counters->notifications;
        if (!m_onChange)
            return;
        const QString text = payload.toString();
        const int colon = text.indexOf(QLatin1Char(':'));
        if (colon > 0)
            m_onChange(text.left(colon), text.mid(colon + 1));
    }

    void setLive(bool live)
    {
        m_counters->live.store(live);
        if (m_onLive)
            m_onLive(live);
    }

    DatabaseSettings m_settings;
    ChangeFeed::Handler m_onChange;
    ChangeFeed::LiveHandler m_onLive;
    std::shared_ptr<ChangeFeed::Counters> m_counters;
    int m_checkMs;
    QString m_name;
    QTimer *m_timer = nullptr; // child of this
};

ChangeFeed::ChangeFeed(DatabaseSettings settings, Handler onChange, LiveHandler onLive, int checkMs)
    : m_counters(std::make_shared<Counters>())
    , m_thread(std::make_unique<QThread>())
{
    m_thread->setObjectName(QStringLiteral("imprint-change-feed"));
    // Owned by its thread: deleted there (with its connection) when the thread finishes.
    auto *worker = new ChangeFeedWorker(std::move(settings), std::move(onChange), std::move(onLive), m_counters,
                                        std::max(100, checkMs));
    worker->moveToThread(m_thread.get());
    QObject::connect(m_thread.get(), &QThread::started, worker, &ChangeFeedWorker::start);
    QObject::connect(m_thread.get(), &QThread::finished, worker, &QObject::deleteLater);
    m_thread->start();
}

ChangeFeed::~ChangeFeed()
{
    m_thread->quit();
    m_thread->wait();
}

QString ChangeFeed::channel()
{
    return QStringLiteral("imprint_changes");
}

bool ChangeFeed::notify(const Database &db, const QString &kind, const QString &id)
{
    if (db.isSqlite())
        return true;
    QSqlQuery q(db.connection());
    return sql::run(q, QStringLiteral("SELECT pg_notify(?, ?)"), channel(), kind + QLatin1Char(':') + id);
}

} // namespace imprint::store
