#pragma once
// Typed, asynchronous client of the Imprint HTTP API (docs/api.md) on
// QNetworkAccessManager. Every call returns at once; its callback runs later on the
// calling thread with either a value or an ApiError — never both, never blocking.

#include "shared/apierror.h"
#include "shared/apitypes.h"
#include "server/common/expected.h"
#include "server/common/key_scopes.h"

#include <QNetworkAccessManager>
#include <QObject>
#include <QPointer>

#include <functional>

namespace imprint::client {

/// The answer of one call: the parsed value, or the ApiError that says why there is none
/// (the same result type every layer of the server returns, server/common/expected.h).
template<class T>
using ApiResult = common::Expected<T, ApiError>;

class ApiClient : public QObject
{
    Q_OBJECT
public:
    template<class T>
    using Callback = std::function<void(const ApiResult<T> &)>;

    explicit ApiClient(QObject *parent = nullptr);

    /// "localhost:8080", "http://host:8080/", "https://host/api/v1" → "http(s)://host:port".
    /// Invalid QUrl when the text cannot be a server address.
    static QUrl normalizeServerUrl(const QString &text);

    void setServerUrl(const QUrl &url);
    QUrl serverUrl() const { return m_server; }
    /// serverUrl() + "/api/v1".
    QUrl apiBase() const;

    void setSessionToken(const QString &token) { m_session = token; }
    QString sessionToken() const { return m_session; }
    bool hasSession() const { return !m_session.isEmpty(); }

    /// Requests sent and not yet answered (for busy indicators and tests).
    int pendingRequests() const { return m_pending; }
    void setTimeouts(int apiMs, int renderMs);

    // Every call takes a context object: when it is destroyed before the answer
    // arrives, the callback is dropped.

    /// POST /auth/login, keeps the session token, then GET /auth/me for the role.
    void login(const QString &email, const QString &password, QObject *context, Callback<Me> done);
    /// POST /auth/logout; the local session is forgotten whatever the answer.
    void logout(QObject *context, Callback<bool> done);
    void me(QObject *context, Callback<Me> done);

    void listKeys(int page, int perPage, QObject *context, Callback<KeyPage> done);
    /// POST /tokens/api-keys. expiresAt invalid: the key never expires. `scopes` empty:
    /// the server's default (render only); the server refuses an empty list it is sent.
    void createKey(const QString &name, const QDateTime &expiresAt, const QList<common::KeyScope> &scopes,
                   QObject *context, Callback<CreatedKey> done);
    /// DELETE /tokens/api-keys/{id}; the value is the server's confirmation message.
    void revokeKey(const QString &id, QObject *context, Callback<QString> done);

    /// GET /signing-keys: page `page` of `perPage` active URL-signing keys (owner/admin).
    void listSigningKeys(int page, int perPage, QObject *context, Callback<SigningKeyPage> done);
    /// POST /signing-keys: a new signing key; its secret is in the answer only.
    void createSigningKey(const QString &name, QObject *context, Callback<CreatedSigningKey> done);
    /// DELETE /signing-keys/{id}; the value is the server's confirmation message.
    void revokeSigningKey(const QString &id, QObject *context, Callback<QString> done);
    /// POST /signing-keys/{id}/sign: `url` (a render URL) signed on the server with that
    /// key, expiring after `expiresInSeconds` (0: never), so no secret is needed here.
    void signUrl(const QString &keyId, const QUrl &url, qint64 expiresInSeconds, QObject *context,
                 Callback<QString> done);

    /// GET /fonts: page `page` of `perPage` of the space's uploaded fonts.
    void listFonts(int page, int perPage, QObject *context, Callback<FontPage> done);
    /// POST /fonts with the file's bytes as the body (`contentType` font/ttf, font/otf,
    /// font/woff or font/woff2); `family` not empty replaces the file's family name.
    void uploadFont(const QByteArray &bytes, const QString &contentType, const QString &family, QObject *context,
                    Callback<FontFace> done);
    /// DELETE /fonts/{id}; the value is the server's confirmation message.
    void deleteFont(const QString &id, QObject *context, Callback<QString> done);
    /// GET /files/{name}: a stored file's bytes (an uploaded font, to draw its sample).
    void fetchFile(const QString &name, QObject *context, Callback<QByteArray> done);

    void listPages(QObject *context, Callback<QList<PageSummary>> done);
    void getTemplate(const QString &id, QObject *context, Callback<TemplateSummary> done);
    /// POST /render (JSON answer), then fetches the stored file's bytes.
    void render(const RenderRequest &request, QObject *context, Callback<RenderResult> done);
    /// POST /render with `body` as it is (an inline render: `template`, `tweaks`,
    /// `output`: "dataurl", …), authenticated with `apiToken` (the session when empty);
    /// the value is the answer's `data` object (dataUrl, warnings, timings, …). A 401 does
    /// not end the session (as render()).
    void renderJson(const QJsonObject &body, const QString &apiToken, QObject *context, Callback<QJsonObject> done);
    /// A session-authenticated JSON call: `verb` on `path` below /api/v1 (e.g.
    /// "/templates/tpl_1"), `body` sent when not null; the value is the answer's `data`
    /// (the whole answer when it has none). For routes without a typed call here.
    void callJson(const QByteArray &verb, const QString &path, const QJsonObject *body, QObject *context,
                  Callback<QJsonValue> done);
    /// GET /usage with `query` (from, to, granularity, group; docs/api.md, "Usage"): the
    /// report's `data` object as the server sent it.
    void usage(const QUrlQuery &query, QObject *context, Callback<QJsonObject> done);

Q_SIGNALS:
    /// A session-authenticated call was answered 401: the session is gone. The
    /// session token is cleared; that call's callback is not invoked.
    void sessionExpired(const imprint::client::ApiError &error);
    void pendingRequestsChanged(int pending);

private:
    enum class Auth { None, Session, Token };
    using RawHandler = std::function<void(QNetworkReply *reply, const QByteArray &body, const ApiError &error)>;
    void send(const QByteArray &verb, const QString &path, const QUrlQuery *query, const QJsonObject *body, Auth auth,
              const QString &token, int timeoutMs, QObject *context, RawHandler handler, bool duringLogin = false);
    void sendUrl(const QByteArray &verb, const QUrl &url, const QByteArray &payload, Auth auth, const QString &token,
                 int timeoutMs, QObject *context, RawHandler handler, bool duringLogin,
                 const QString &contentType = QStringLiteral("application/json"));
    template<class T>
    void sendJson(const QByteArray &verb, const QString &path, const QUrlQuery *query, const QJsonObject *body,
                  QObject *context, Callback<T> done, std::function<T(const QJsonValue &data)> parse);
    /// The query of a paged list route: page and perPage.
    static QUrlQuery pageQuery(int page, int perPage);
    /// GET the paged list at `path` (page `page` of `perPage` rows), its data read as a T.
    template<class T>
    void getPage(const QString &path, int page, int perPage, QObject *context, Callback<T> done);
    /// Creates a secret (an API key, a signing key): POST `body` to `path`, the answer's data
    /// read as a T, which holds the secret shown this once.
    template<class T>
    void createSecret(const QString &path, const QJsonObject &body, QObject *context, Callback<T> done);
    /// Revokes the secret `id` (an API key, a signing key) under `path`: DELETE with an
    /// empty JSON body; the value is the server's confirmation message.
    void revokeSecret(const QString &path, const QString &id, QObject *context, Callback<QString> done);
    /// DELETE `path` + the percent-encoded `id` (with `body` when not null), as revoking a
    /// key or deleting an upload does; the value is the server's confirmation message.
    void deleteById(const QString &path, const QString &id, const QJsonObject *body, QObject *context,
                    Callback<QString> done);

    QNetworkAccessManager m_nam;
    QUrl m_server;
    QString m_session;
    int m_pending = 0;
    int m_apiTimeout = 30000;
    int m_renderTimeout = 120000;
};

} // namespace imprint::client

Q_DECLARE_METATYPE(imprint::client::ApiError)
