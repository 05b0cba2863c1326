#pragma once
// A tiny image origin for the remote image tests: a QHttpServer on a loopback address of
// the test's choice (127.0.0.2 is loopback too, so a server can allowlist it while
// 127.0.0.1 stays refused), on a thread of its own so a test may block on its client
// calls. Answers are canned per path; every request is counted per path.

#include "images.h"
#include "server_thread.h"

#include <QBuffer>
#include <QHostAddress>
#include <QHttpServer>
#include <QHttpServerResponse>
#include <QImage>
#include <QMutex>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>

#include <functional>
#include <memory>

class TestOrigin
{
public:
    /// What a path answers.
    struct Answer {
        int status = 200;
        QByteArray body;
        QList<QPair<QByteArray, QByteArray>> headers;
        int delayMs = 0; ///< the handler sleeps this long first (blocks the origin thread)
    };
    /// Decides the answer from the request's If-None-Match (empty when none).
    using Handler = std::function<Answer(const QByteArray &ifNoneMatch)>;

    /// Listens on `address` (an ephemeral port) for HTTP, and on a second port where
    /// connections are accepted and never answered.
    explicit TestOrigin(const QHostAddress &address)
    {
        m_server.run([this, address](QObject *owner) {
            m_http = new QHttpServer(owner);
            m_http->route(QStringLiteral("/<arg>"), [this](const QString &name, const QHttpServerRequest &request) {
                return answer(QLatin1Char('/') + name, request.value("If-None-Match"), request.value("Host"));
            });
            m_httpPort = m_http->listen(address, 0);
            m_silent = new QTcpServer(owner);
            QObject::connect(m_silent, &QTcpServer::newConnection, owner, [this, owner] {
                while (QTcpSocket *s = m_silent->nextPendingConnection())
                    s->setParent(owner); // held open, never read or answered
            });
            m_silent->listen(address, 0);
            m_silentPort = m_silent->serverPort();
        });
    }

    quint16 port() const { return m_httpPort; }
    quint16 silentPort() const { return m_silentPort; }

    void set(const QString &path, Handler handler)
    {
        QMutexLocker lock(&m_mutex);
        m_handlers.insert(path, std::move(handler));
    }
    void set(const QString &path, const Answer &a)
    {
        set(path, [a](const QByteArray &) { return a; });
    }
    /// Requests to `path` so far.
    int hits(const QString &path) const
    {
        QMutexLocker lock(&m_mutex);
        return m_hits.value(path);
    }

    /// The Host header of the last request to `path`.
    QByteArray lastHost(const QString &path) const
    {
        QMutexLocker lock(&m_mutex);
        return m_hosts.value(path);
    }

    /// A `w`×`h` PNG of one colour.
    static QByteArray png(int w, int h, QColor colour) { return imprint::test::solidPng(QSize(w, h), colour); }

    /// A `w`×`h` PNG of `colour` served as image/png that clients may keep for an hour,
    /// after `delayMs`.
    static Answer cacheablePng(int w, int h, QColor colour, int delayMs = 0)
    {
        return Answer{
            200, png(w, h, colour), {{"Content-Type", "image/png"}, {"Cache-Control", "max-age=3600"}}, delayMs};
    }

    /// An image its clients revalidate: 304 to a request whose If-None-Match is `etag`,
    /// otherwise 200 with `body` (and `contentType` when given); both with the ETag and
    /// `cacheControl`.
    static Handler revalidated(const QByteArray &etag, const QByteArray &cacheControl, const QByteArray &body,
                               const QByteArray &contentType = {})
    {
        return [=](const QByteArray &ifNoneMatch) {
            QList<QPair<QByteArray, QByteArray>> headers{{"ETag", etag}, {"Cache-Control", cacheControl}};
            if (ifNoneMatch == etag)
                return Answer{304, {}, headers};
            if (!contentType.isEmpty())
                headers.prepend({"Content-Type", contentType});
            return Answer{200, body, headers};
        };
    }

private:
    QHttpServerResponse answer(const QString &path, const QByteArray &ifNoneMatch, const QByteArray &host)
    {
        Handler handler;
        {
            QMutexLocker lock(&m_mutex);
            ++m_hits[path];
            m_hosts.insert(path, host);
            handler = m_handlers.value(path);
        }
        if (!handler)
            return QHttpServerResponse(QHttpServerResponder::StatusCode::NotFound);
        const Answer a = handler(ifNoneMatch);
        if (a.delayMs > 0)
            QThread::msleep(a.delayMs);
        QHttpServerResponse r(a.body, QHttpServerResponder::StatusCode(a.status));
        for (const auto &h : a.headers)
            r.setHeader(h.first, h.second);
        return r;
    }

    QHttpServer *m_http = nullptr;
    QTcpServer *m_silent = nullptr;
    quint16 m_httpPort = 0, m_silentPort = 0;
    mutable QMutex m_mutex;
    QHash<QString, Handler> m_handlers;
    QHash<QString, int> m_hits;
    QHash<QString, QByteArray> m_hosts;
    ServerThread m_server; // last: stopped first, before the state its handlers read
};
