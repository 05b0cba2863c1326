#pragma once
// DTOs of the HTTP API (docs/api.md) and their JSON mapping. Used by the typed API
// client (shared/apiclient.h) and the admin console; no Widgets, no SQL.

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QUrl>

namespace imprint::client {

struct User {
    QString id;
    QString email;
    QString name;
    static User fromJson(const QJsonObject &o);
    QString displayName() const { return name.isEmpty() ? email : name; }
};

struct Space {
    QString id;
    QString name;
    QString plan;
    static Space fromJson(const QJsonObject &o);
};

/// GET /auth/me: who is signed in, in which space, with which role.
struct Me {
    User user;
    Space space;
    QString role; // owner | admin | member
    static Me fromJson(const QJsonObject &data);
    /// Owners and admins may list, create and revoke API keys (docs/api.md).
    bool canManageKeys() const { return role == QLatin1String("owner") || role == QLatin1String("admin"); }
};

/// One key of GET /tokens/api-keys/index. Never holds the token itself.
struct ApiKey {
    QString id;
    QString name;
    QString prefix;
    QDateTime createdAt;
    QDateTime expiresAt; // invalid: never expires
    QDateTime lastUsedAt; // invalid: never used
    QString createdBy;
    QStringList scopes; ///< wire names (server/common/key_scopes.h), in the server's order
    static ApiKey fromJson(const QJsonObject &o);
};

/// One page of the key list: `{list, count, pagesCount, page, perPage}`.
struct KeyPage {
    QList<ApiKey> list;
    int count = 0; // all active keys of the space
    int pagesCount = 0; // at least 1 once loaded
    int page = 1;
    int perPage = 20;
    static KeyPage fromJson(const QJsonObject &data);
};

/// POST /tokens/api-keys: the key record plus its plaintext token, shown this once.
struct CreatedKey {
    ApiKey key;
    QString token;
    static CreatedKey fromJson(const QJsonObject &data);
};

/// One key of GET /signing-keys. Never holds the secret itself.
struct SigningKey {
    QString id;
    QString name;
    QDateTime createdAt;
    QString createdBy;
    static SigningKey fromJson(const QJsonObject &o);
};

/// One page of a list route answered as `{list, count}` (signing keys, fonts): `T::fromJson`
/// reads each item; `count` is the whole list's (all active keys, all fonts of the space).
template<typename T>
struct ListPage {
    QList<T> list;
    int count = 0;
    static ListPage fromJson(const QJsonObject &data);
};

/// GET /signing-keys: one page of the space's active signing keys, newest first.
using SigningKeyPage = ListPage<SigningKey>;

/// POST /signing-keys: the key record plus its secret, shown this once.
struct CreatedSigningKey {
    SigningKey key;
    QString secret;
    static CreatedSigningKey fromJson(const QJsonObject &data);
};

/// One uploaded font face of GET /fonts (docs/fonts-and-images.md).
struct FontFace {
    QString id;
    QString family;
    int weight = 400;
    QString style; // "normal" or "italic"
    QString format; // "ttf", "otf", "woff", "woff2"
    QString sha256; // the stored file is /api/v1/files/<sha256>.<format>
    qint64 bytes = 0;
    QDateTime createdAt;
    static FontFace fromJson(const QJsonObject &o);
};

/// GET /fonts: one page of the space's fonts, newest first.
using FontPage = ListPage<FontFace>;

struct PageSummary {
    QString id;
    QString templateId;
    QString name;
    QJsonObject variables; // name -> value
    bool published = false;
    int templateVersion = 0; // the template version the page is pinned to; 0: it follows the latest
    int publishedTemplateVersion = 0; // the version its publish snapshot renders; 0: unpublished (or unknown)
    static PageSummary fromJson(const QJsonObject &o);
};

struct TemplateVariable {
    QString name;
    QString type;
    QString defaultValue;
};

struct TemplateSummary {
    QString id;
    QString name;
    int width = 0;
    int height = 0;
    QString rendererType;
    QList<TemplateVariable> variables;
    int version = 0; // the latest version's number (docs/api.md, Template versions); 0: not said
    QStringList sizes; // every size preset a render may name: the template's own, then the built-ins
    static TemplateSummary fromJson(const QJsonObject &data);
};

/// The values the `renderType` field accepts, in the order pickers list them: the wire
/// names of the server's engines (server/render/engine.h; the console's tests check the
/// two lists agree, since the console only talks to a server over HTTP).
QStringList renderEngineNames();

/// The server's built-in size presets (docs/api.md, "Size presets"), in its order: og,
/// twitter, linkedin, square, portrait, story, pinterest.
QStringList builtinSizeNames();

/// The size preset names a template `document` offers: its own `sizes` (a list's order, an
/// object's keys), then the built-ins it does not name.
QStringList templateSizeNames(const QJsonObject &document);

/// A page render request (docs/api.md).
struct RenderRequest {
    QString pageId;
    QString templateId; // optional check
    bool draft = false;
    QString format = QStringLiteral("png");
    QString renderType; // empty: the template's engine
    int scale = 1; // device scale factor 1–3: the image has scale × the pixels (bitmap formats)
    QString size; // a size preset name (templateSizeNames()); empty: the template's size
    QJsonObject tweaks;
    QString apiToken; // empty: the console's session token

    QJsonObject toJson() const;
    /// The GET form of this request (docs/api.md: GET accepts the same fields as a
    /// query string), without any credential.
    QUrl toGetUrl(const QUrl &apiBase) const;
};

/// A page render: the JSON result (docs/api.md) plus the image bytes.
struct RenderResult {
    QString pageId;
    QString templateId;
    QString renderType;
    QString format;
    int width = 0;
    int height = 0;
    QList<QPair<QString, double>> timings; // in server order: load, layout, ... total
    bool reused = false; // an identical render's image; the phases it skipped are 0
    QUrl fileUrl;
    QString contentType;
    qint64 size = 0;
    QString sha256;
    QStringList warnings;
    QByteArray bytes; // the image itself
    qint64 roundTripMs = 0;
    double totalMs() const;
    static RenderResult fromJson(const QJsonObject &o, const QUrl &serverBase);
};

/// A JSON scalar as the text a user typed: strings as they are, numbers without a
/// trailing ".0" (up to 15 significant digits), booleans as true/false; empty for
/// null, arrays and objects.
QString jsonText(const QJsonValue &v);

/// Parses an ISO-8601 timestamp or epoch milliseconds; invalid for null/absent.
QDateTime parseTimestamp(const QJsonValue &v);

} // namespace imprint::client
