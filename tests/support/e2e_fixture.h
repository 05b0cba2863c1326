#pragma once
// The world of an end-to-end suite, set up once instead of by hand in each suite: a
// temporary data directory (with its own PostgreSQL database under the `*_postgres`
// variants, tests/support/test_database.h), a space and its owner, an API key and a
// published page made offline through the CLI as an operator would, the real
// `imprint serve` on a free loopback port over them, the owner's session, and an HTTP
// client to talk to it (tests/http/httpclient.h). Link `imprint_e2e_fixture`.

#include "../http/httpclient.h"

#include <QJsonObject>
#include <QTemporaryDir>

/// Headers of a request, e.g. {{"Authorization", "Bearer …"}}.
using Headers = QList<QPair<QByteArray, QByteArray>>;

/// What E2eFixture::setUp() makes. Every step is optional; the defaults are the world
/// most suites want: space "alpha" (plan of `user add --create-space`), owner o@a.test
/// with password "password123", a key "t" with the default scope, the server started,
/// the owner logged in.
struct E2eOptions {
    QString space = QStringLiteral("alpha");
    /// Empty: the space comes from `user add --create-space`; else `space create --plan`.
    QString plan;
    /// Empty: no owner (and no session; the space is made only when `plan` is set).
    QString ownerEmail = QStringLiteral("o@a.test");
    QString keyName = QStringLiteral("t"); ///< empty: no API key
    QByteArray pageTemplate; ///< a template document; empty: no page
    QByteArray config; ///< DATA/config.json before the server starts; empty: none
    QStringList serverArgs; ///< more arguments of `imprint serve`
    bool start = true; ///< start the server (false: the suite starts it itself)
    bool login = true; ///< log the owner in (needs start and an owner)

    /// Space `space` (of `plan`; empty: `user add --create-space`'s) and its owner `ownerEmail`,
    /// logged in, without a key: the world of a suite that manages content or keys itself.
    static E2eOptions withOwner(const QString &space, const QString &ownerEmail, const QString &plan = {})
    {
        E2eOptions o;
        o.space = space;
        o.plan = plan;
        o.ownerEmail = ownerEmail;
        o.keyName.clear();
        return o;
    }

    /// A space of `plan` without an owner, with a key `keyName` and a published page of
    /// `pageTemplate`: the world of a suite that only renders.
    static E2eOptions ownerless(const QString &space, const QString &plan, const QString &keyName,
                                const QByteArray &pageTemplate)
    {
        E2eOptions o;
        o.space = space;
        o.plan = plan;
        o.ownerEmail.clear();
        o.keyName = keyName;
        o.pageTemplate = pageTemplate;
        return o;
    }
};

/// One end-to-end world. Check setUp()'s result with QVERIFY2(f.setUp(), f.failure()).
class E2eFixture
{
public:
    /// The password of every owner the fixture makes.
    static QString password() { return QStringLiteral("password123"); }

    /// Makes the world of `options`; false with failure() saying which step failed.
    bool setUp(const E2eOptions &options = {});

    /// What the last failing step said (the server's log when it did not start).
    const char *failure() const { return m_failure.constData(); }

    // ---- steps, for suites that need more than setUp() makes

    /// `space create SPACE [--plan PLAN]` and `user add` of an owner of it with password().
    /// An empty `plan` lets `user add --create-space` make the space.
    bool addOwner(const QString &email, const QString &space, const QString &plan = {});
    /// `space create SPACE --plan PLAN`.
    bool createSpace(const QString &space, const QString &plan);
    /// `user add` of `email` to `space` as `role` ("owner", "admin", "member") with
    /// password(); `extra` are more arguments of `user add`.
    bool addUser(const QString &email, const QString &space, const QString &role, const QStringList &extra = {});
    /// A new API key of `space` (`key create --json`, `scopes` joined by ","; none: the
    /// default); its token, or empty.
    QByteArray createKey(const QString &space, const QString &name = QStringLiteral("t"),
                         const QStringList &scopes = {});
    /// A published page of `templateJson` in `space` (`template import`, then `page create
    /// --publish`); its id ("pg_…"), or empty. templateId() is then the template's.
    QByteArray publishPage(const QString &space, const QByteArray &templateJson);
    /// Writes DATA/config.json.
    bool writeConfig(const QByteArray &json);
    /// Starts `imprint serve` over the data directory.
    bool startServer(const QStringList &extra = {});
    /// POST /auth/login of `email` with password(); the session token, or empty.
    QByteArray login(const QString &email);
    /// Waits up to `ms` until GET /health says the html engine's browser runs (the server
    /// starts it in the background and answers html renders 503 engine_starting until
    /// then); false when it did not.
    bool waitForHtmlEngine(int ms = 60000);

    // ---- what setUp() made

    QString dataDir() const { return m_dir.path(); }
    ServerProcess &server() { return m_server; }
    quint16 port() const { return m_server.port(); }
    /// The owner's session token (empty without login).
    QByteArray session() const { return m_session; }
    /// The API key's token (empty without a key).
    QByteArray key() const { return m_key; }
    /// The published page's id (empty without a template).
    QByteArray pageId() const { return m_pageId; }
    /// The id of the template last imported by publishPage() ("tpl_…").
    QByteArray templateId() const { return m_templateId; }

    // ---- the HTTP client

    /// One request to the server (httpRequest(): Connection: close).
    HttpReply request(const QByteArray &method, const QByteArray &path, const QByteArray &body = {},
                      const Headers &headers = {}) const
    {
        return httpRequest(port(), method, path, body, headers);
    }
    /// GET `path`.
    HttpReply get(const QByteArray &path, const Headers &headers = {}) const
    {
        return request("GET", path, {}, headers);
    }
    /// `Authorization: Bearer <token>`.
    static Headers bearer(const QByteArray &token) { return {{"Authorization", "Bearer " + token}}; }

private:
    bool fail(const QByteArray &what);

    QTemporaryDir m_dir;
    ServerProcess m_server;
    QByteArray m_session, m_key, m_pageId, m_templateId;
    QByteArray m_failure;
};
