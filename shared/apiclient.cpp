#include "shared/apiclient.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkCookie>
#include <QNetworkCookieJar>
#include <QNetworkRequest>
#include <QUrlQuery>

#include <memory>

namespace imprint::client {

namespace {

const QString kApiPrefix = QStringLiteral("/api/v1");

// `{success: true, data: X}` → X; anything else is taken as the data itself.
QJsonValue unwrap(const QJsonDocument &doc)
{
    if (doc.isArray())
        return doc.array();
    const QJsonObject o = doc.object();
    if (o.contains(QLatin1String("data")))
        return o.value(QLatin1String("data"));
    return o;
}

// The parse of an answer whose data is one T as JSON (T::fromJson() of the object).
template<typename T>
T fromData(const QJsonValue &data)
{
    return T::fromJson(data.toObject());
}

QString sessionTokenOf(const QJsonObject &data)
{
    for (const char *k : {"token", "sessionToken", "session_token", "accessToken", "access_token"}) {
        const QJsonValue v = data.value(QLatin1String(k));
        if (v.isString() && !v.toString().isEmpty())
            return v.toString();
    }
    const QJsonValue session = data.value(QLatin1String("session"));
    if (session.isObject())
        return sessionTokenOf(session.toObject());
    if (session.isString())
        return session.toString();
    return {};
}

} // namespace

ApiClient::ApiClient(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<imprint::client::ApiError>();
}

QUrl ApiClient::normalizeServerUrl(const QString &text)
{
    QString t = text.trimmed();
    if (t.isEmpty())
        return {};
    if (!t.contains(QLatin1String("://")))
        t.prepend(QLatin1String("http://"));
    QUrl url(t, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty()
        || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
        return {};
    QString path = url.path();
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    if (path.endsWith(kApiPrefix))
        path.chop(kApiPrefix.size());
    url.setPath(path);
    url.setQuery(QString());
    url.setFragment(QString());
    return url;
}

void ApiClient::setServerUrl(const QUrl &url)
{
    if (url != m_server) {
        m_server = url;
        m_session.clear();
    }
}

QUrl ApiClient::apiBase() const
{
    QUrl u = m_server;
    u.setPath(u.path() + kApiPrefix);
    return u;
}

void ApiClient::setTimeouts(int apiMs, int renderMs)
{
    m_apiTimeout = apiMs;
    m_renderTimeout = renderMs;
}

void ApiClient::send(const QByteArray &verb, const QString &path, const QUrlQuery *query, const QJsonObject *body,
                     Auth auth, const QString &token, int timeoutMs, QObject *context, RawHandler handler,
                     bool duringLogin)
{
    QUrl url = apiBase();
    url.setPath(url.path() + path);
    if (query)
        url.setQuery(*query);
    const QByteArray payload = body ? QJsonDocument(*body).toJson(QJsonDocument::Compact) : QByteArray();
    sendUrl(verb, url, payload, auth, token, timeoutMs, context, std::move(handler), duringLogin);
}

void ApiClient::sendUrl(const QByteArray &verb, const QUrl &url, const QByteArray &payload, Auth auth,
                        const QString &token, int timeoutMs, QObject *context, RawHandler handler, bool duringLogin,
                        const QString &contentType)
{
    QNetworkRequest req(url);
    req.setRawHeader("Accept", "application/json, application/problem+json;q=0.9, */*;q=0.5");
    req.setHeader(QNetworkRequest::UserAgentHeader,
                  QStringLiteral("imprint-console/%1").arg(QCoreApplication::applicationVersion()));
    req.setTransferTimeout(timeoutMs);
    const QString bearer = auth == Auth::Session ? m_session : auth == Auth::Token ? token : QString();
    if (!bearer.isEmpty())
        req.setRawHeader("Authorization", "Bearer " + bearer.toUtf8());
    if (!payload.isEmpty() || verb == "POST" || verb == "PUT")
        req.setHeader(QNetworkRequest::ContentTypeHeader, contentType);

    QNetworkReply *reply = m_nam.sendCustomRequest(req, verb, payload);
    ++m_pending;
    Q_EMIT pendingRequestsChanged(m_pending);
    QPointer<QObject> guard(context);
    const bool hadContext = context != nullptr;
    const QString sessionUsed = auth == Auth::Session ? m_session : QString();
    connect(reply, &QNetworkReply::finished, this,
            [this, reply, guard, hadContext, handler = std::move(handler), duringLogin, sessionUsed]() {
                reply->deleteLater();
                const QByteArray bytes = reply->readAll();
                ApiError error = ApiError::fromReply(reply, bytes);
                error.duringLogin = duringLogin;
                --m_pending;
                const bool expired
                    = error.status == 401 && !sessionUsed.isEmpty() && sessionUsed == m_session && !duringLogin;
                if (expired) {
                    m_session.clear();
                    m_nam.setCookieJar(new QNetworkCookieJar(&m_nam));
                }
                if (!expired && (!hadContext || guard))
                    handler(reply, bytes, error);
                Q_EMIT pendingRequestsChanged(m_pending);
                if (expired)
                    Q_EMIT sessionExpired(error);
            });
}

template<class T>
void ApiClient::sendJson(const QByteArray &verb, const QString &path, const QUrlQuery *query, const QJsonObject *body,
                         QObject *context, Callback<T> done, std::function<T(const QJsonValue &data)> parse)
{
    send(verb, path, query, body, Auth::Session, QString(), m_apiTimeout, context,
         [done = std::move(done), parse = std::move(parse)](QNetworkReply *reply, const QByteArray &bytes,
                                                            const ApiError &error) {
             if (error.isError()) {
                 done(error);
                 return;
             }
             QJsonParseError pe;
             const QJsonDocument doc = QJsonDocument::fromJson(bytes, &pe);
             if (pe.error != QJsonParseError::NoError && !bytes.trimmed().isEmpty()) {
                 done(ApiError::protocol(reply->request().url(), pe.errorString()));
                 return;
             }
             done(parse(unwrap(doc)));
         });
}

template<class T>
void ApiClient::getPage(const QString &path, int page, int perPage, QObject *context, Callback<T> done)
{
    const QUrlQuery q = pageQuery(page, perPage);
    sendJson<T>("GET", path, &q, nullptr, context, std::move(done), fromData<T>);
}

template<class T>
void ApiClient::createSecret(const QString &path, const QJsonObject &body, QObject *context, Callback<T> done)
{
    sendJson<T>("POST", path, nullptr, &body, context, std::move(done), fromData<T>);
}

void ApiClient::login(const QString &email, const QString &password, QObject *context, Callback<Me> done)
{
    m_session.clear();
    m_nam.setCookieJar(new QNetworkCookieJar(&m_nam));
    const QJsonObject body{{QStringLiteral("email"), email}, {QStringLiteral("password"), password}};
    send(
        "POST", QStringLiteral("/auth/login"), nullptr, &body, Auth::None, QString(), m_apiTimeout, context,
        [this, context, done](QNetworkReply *reply, const QByteArray &bytes, const ApiError &error) {
            if (error.isError()) {
                done(error);
                return;
            }
            const QJsonValue data = unwrap(QJsonDocument::fromJson(bytes));
            QString token = sessionTokenOf(data.toObject());
            if (token.isEmpty())
                token = sessionTokenOf(QJsonDocument::fromJson(bytes).object());
            if (token.isEmpty()) { // fall back to the session cookie's value
                const auto cookies = QNetworkCookie::parseCookies(reply->rawHeader("Set-Cookie"));
                for (const QNetworkCookie &c : cookies)
                    if (c.isHttpOnly() || c.name().contains("session"))
                        token = QString::fromUtf8(c.value());
            }
            if (token.isEmpty()) {
                done(ApiError::protocol(reply->request().url(),
                                         QStringLiteral("no session token in the login answer")));
                return;
            }
            m_session = token;
            Me fromLogin = Me::fromJson(data.toObject());
            me(context, [done, fromLogin](const ApiResult<Me> &r) {
                if (r.has_value() || r.error().status == 404) {
                    // no /auth/me: what the login answer said is all we know
                    Me out = r.has_value() ? r.value() : fromLogin;
                    if (out.role.isEmpty())
                        out.role = fromLogin.role;
                    if (out.user.email.isEmpty())
                        out.user = fromLogin.user;
                    done(out);
                } else {
                    done(r);
                }
            });
        },
        /*duringLogin=*/true);
}

void ApiClient::logout(QObject *context, Callback<bool> done)
{
    if (m_session.isEmpty()) {
        done(true);
        return;
    }
    const QJsonObject body;
    send("POST", QStringLiteral("/auth/logout"), nullptr, &body, Auth::Session, QString(), m_apiTimeout, context,
         [done](QNetworkReply *, const QByteArray &, const ApiError &error) {
             if (error.isError())
                 done(error);
             else
                 done(true);
         });
    // Forget the session now: signing out must work even when the server is gone.
    m_session.clear();
    m_nam.setCookieJar(new QNetworkCookieJar(&m_nam));
}

void ApiClient::me(QObject *context, Callback<Me> done)
{
    sendJson<Me>("GET", QStringLiteral("/auth/me"), nullptr, nullptr, context, std::move(done), fromData<Me>);
}

void ApiClient::listKeys(int page, int perPage, QObject *context, Callback<KeyPage> done)
{
    const QUrlQuery q = pageQuery(page, perPage);
    sendJson<KeyPage>("GET", QStringLiteral("/tokens/api-keys/index"), &q, nullptr, context, std::move(done),
                      [page, perPage](const QJsonValue &data) {
                          QJsonObject o = data.toObject();
                          if (!o.contains(QLatin1String("page")))
                              o.insert(QStringLiteral("page"), page);
                          if (!o.contains(QLatin1String("perPage")))
                              o.insert(QStringLiteral("perPage"), perPage);
                          return KeyPage::fromJson(o);
                      });
}

void ApiClient::createKey(const QString &name, const QDateTime &expiresAt, const QList<common::KeyScope> &scopes,
                          QObject *context, Callback<CreatedKey> done)
{
    QJsonObject body{{QStringLiteral("name"), name}};
    if (expiresAt.isValid())
        body.insert(QStringLiteral("expiresAt"), expiresAt.toUTC().toString(Qt::ISODate));
    if (!scopes.isEmpty()) {
        QJsonArray names;
        for (common::KeyScope scope : scopes)
            names.append(common::kKeyScopeNames.name(scope));
        body.insert(QStringLiteral("scopes"), names);
    }
    createSecret<CreatedKey>(QStringLiteral("/tokens/api-keys"), body, context, std::move(done));
}

void ApiClient::revokeKey(const QString &id, QObject *context, Callback<QString> done)
{
    revokeSecret(QStringLiteral("/tokens/api-keys/"), id, context, std::move(done));
}

void ApiClient::listSigningKeys(int page, int perPage, QObject *context, Callback<SigningKeyPage> done)
{
    getPage<SigningKeyPage>(QStringLiteral("/signing-keys"), page, perPage, context, std::move(done));
}

void ApiClient::createSigningKey(const QString &name, QObject *context, Callback<CreatedSigningKey> done)
{
    createSecret<CreatedSigningKey>(QStringLiteral("/signing-keys"), {{QStringLiteral("name"), name}}, context,
                                    std::move(done));
}

void ApiClient::revokeSigningKey(const QString &id, QObject *context, Callback<QString> done)
{
    revokeSecret(QStringLiteral("/signing-keys/"), id, context, std::move(done));
}

void ApiClient::listFonts(int page, int perPage, QObject *context, Callback<FontPage> done)
{
    getPage<FontPage>(QStringLiteral("/fonts"), page, perPage, context, std::move(done));
}

void ApiClient::uploadFont(const QByteArray &bytes, const QString &contentType, const QString &family,
                           QObject *context, Callback<FontFace> done)
{
    QUrl url = apiBase();
    url.setPath(url.path() + QStringLiteral("/fonts"));
    if (!family.isEmpty())
        url.setQuery(QUrlQuery{{QStringLiteral("family"), family}});
    sendUrl(
        "POST", url, bytes, Auth::Session, QString(), m_apiTimeout, context,
        [done = std::move(done)](QNetworkReply *, const QByteArray &body, const ApiError &error) {
            if (error.isError())
                done(error);
            else
                done(FontFace::fromJson(unwrap(QJsonDocument::fromJson(body)).toObject()));
        },
        false, contentType);
}

void ApiClient::deleteFont(const QString &id, QObject *context, Callback<QString> done)
{
    deleteById(QStringLiteral("/fonts/"), id, nullptr, context, std::move(done));
}

QUrlQuery ApiClient::pageQuery(int page, int perPage)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("page"), QString::number(page));
    q.addQueryItem(QStringLiteral("perPage"), QString::number(perPage));
    return q;
}

void ApiClient::revokeSecret(const QString &path, const QString &id, QObject *context, Callback<QString> done)
{
    const QJsonObject body;
    deleteById(path, id, &body, context, std::move(done));
}

void ApiClient::deleteById(const QString &path, const QString &id, const QJsonObject *body, QObject *context,
                           Callback<QString> done)
{
    sendJson<QString>("DELETE", path + QString::fromUtf8(QUrl::toPercentEncoding(id)), nullptr, body, context,
                      std::move(done), [](const QJsonValue &data) {
                          return data.toObject().value(QLatin1String("message")).toString();
                      });
}

void ApiClient::fetchFile(const QString &name, QObject *context, Callback<QByteArray> done)
{
    send("GET", QStringLiteral("/files/") + name, nullptr, nullptr, Auth::None, QString(), m_apiTimeout, context,
         [done = std::move(done)](QNetworkReply *, const QByteArray &body, const ApiError &error) {
             if (error.isError())
                 done(error);
             else
                 done(body);
         });
}

void ApiClient::signUrl(const QString &keyId, const QUrl &url, qint64 expiresInSeconds, QObject *context,
                        Callback<QString> done)
{
    QJsonObject body{{QStringLiteral("url"), QString::fromUtf8(url.toEncoded())}};
    if (expiresInSeconds > 0)
        body.insert(QStringLiteral("expiresInSeconds"), expiresInSeconds);
    sendJson<QString>("POST",
                      QStringLiteral("/signing-keys/%1/sign").arg(QString::fromUtf8(QUrl::toPercentEncoding(keyId))),
                      nullptr, &body, context, std::move(done), [](const QJsonValue &data) {
                          return data.toObject().value(QLatin1String("url")).toString();
                      });
}

void ApiClient::listPages(QObject *context, Callback<QList<PageSummary>> done)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("perPage"), QStringLiteral("100"));
    sendJson<QList<PageSummary>>("GET", QStringLiteral("/pages"), &q, nullptr, context, std::move(done),
                                 [](const QJsonValue &data) {
                                     QJsonArray arr = data.toArray();
                                     if (data.isObject()) {
                                         const QJsonObject o = data.toObject();
                                         arr = o.value(QLatin1String("list")).toArray();
                                         if (arr.isEmpty())
                                             arr = o.value(QLatin1String("pages")).toArray();
                                     }
                                     QList<PageSummary> pages;
                                     for (const QJsonValue &v : arr)
                                         pages.append(PageSummary::fromJson(v.toObject()));
                                     return pages;
                                 });
}

void ApiClient::getTemplate(const QString &id, QObject *context, Callback<TemplateSummary> done)
{
    sendJson<TemplateSummary>("GET", QStringLiteral("/templates/") + QString::fromUtf8(QUrl::toPercentEncoding(id)),
                              nullptr, nullptr, context, std::move(done), fromData<TemplateSummary>);
}

void ApiClient::usage(const QUrlQuery &query, QObject *context, Callback<QJsonObject> done)
{
    sendJson<QJsonObject>("GET", QStringLiteral("/usage"), &query, nullptr, context, std::move(done),
                          [](const QJsonValue &data) { return data.toObject(); });
}

void ApiClient::render(const RenderRequest &request, QObject *context, Callback<RenderResult> done)
{
    const QJsonObject body = request.toJson();
    // A 401 here means "this credential may not render", not "the session expired":
    // the session token goes as a plain bearer so it does not end the session.
    const QString bearer = request.apiToken.isEmpty() ? m_session : request.apiToken;
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    const QUrl server = m_server;
    send("POST", QStringLiteral("/render"), nullptr, &body, Auth::Token, bearer, m_renderTimeout, context,
         [this, done, clock, server, context](QNetworkReply *reply, const QByteArray &bytes, const ApiError &error) {
             if (error.isError()) {
                 done(error);
                 return;
             }
             const QString type = reply->header(QNetworkRequest::ContentTypeHeader).toString();
             if (type.startsWith(QLatin1String("image/"))) { // a server that answered bytes
                 RenderResult r;
                 r.bytes = bytes;
                 r.size = bytes.size();
                 r.contentType = type;
                 r.roundTripMs = clock->elapsed();
                 done(r);
                 return;
             }
             const QJsonDocument doc = QJsonDocument::fromJson(bytes);
             if (!doc.isObject()) {
                 done(ApiError::protocol(reply->request().url(), QStringLiteral("not JSON")));
                 return;
             }
             QJsonObject o = doc.object();
             if (o.value(QLatin1String("data")).isObject() && !o.contains(QLatin1String("timings")))
                 o = o.value(QLatin1String("data")).toObject();
             RenderResult r = RenderResult::fromJson(o, server);
             const QString dataUrl = o.value(QLatin1String("dataUrl")).toString();
             if (!dataUrl.isEmpty()) {
                 const qsizetype comma = dataUrl.indexOf(QLatin1Char(','));
                 r.bytes = QByteArray::fromBase64(dataUrl.mid(comma + 1).toLatin1());
                 if (r.size == 0)
                     r.size = r.bytes.size();
                 r.roundTripMs = clock->elapsed();
                 done(r);
                 return;
             }
             if (!r.fileUrl.isValid()) {
                 done(ApiError::protocol(reply->request().url(), QStringLiteral("no file in the render answer")));
                 return;
             }
             // The stored file needs no credentials (its name is unguessable).
             sendUrl(
                 "GET", r.fileUrl, QByteArray(), Auth::None, QString(), m_renderTimeout, context,
                 [done, r, clock](QNetworkReply *, const QByteArray &image, const ApiError &fileError) mutable {
                     if (fileError.isError()) {
                         done(fileError);
                         return;
                     }
                     r.bytes = image;
                     if (r.size == 0)
                         r.size = image.size();
                     r.roundTripMs = clock->elapsed();
                     done(r);
                 },
                 false);
         });
}

void ApiClient::renderJson(const QJsonObject &body, const QString &apiToken, QObject *context,
                           Callback<QJsonObject> done)
{
    const QString bearer = apiToken.isEmpty() ? m_session : apiToken;
    send("POST", QStringLiteral("/render"), nullptr, &body, Auth::Token, bearer, m_renderTimeout, context,
         [done = std::move(done)](QNetworkReply *reply, const QByteArray &bytes, const ApiError &error) {
             if (error.isError()) {
                 done(error);
                 return;
             }
             const QJsonValue data = unwrap(QJsonDocument::fromJson(bytes));
             if (!data.isObject()) {
                 done(ApiError::protocol(reply->request().url(), QStringLiteral("not JSON")));
                 return;
             }
             done(data.toObject());
         });
}

void ApiClient::callJson(const QByteArray &verb, const QString &path, const QJsonObject *body, QObject *context,
                         Callback<QJsonValue> done)
{
    sendJson<QJsonValue>(verb, path, nullptr, body, context, std::move(done),
                         [](const QJsonValue &data) { return data; });
}

} // namespace imprint::client
