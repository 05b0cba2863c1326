#pragma once
// Plain records of the account and content tables (docs/architecture.md,
// docs/templates.md). Timestamps are epoch milliseconds UTC (0 = unset), as stored.

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace imprint::store {

/// A tenant. plan is one of the Config plan names (free, pro, business).
struct Space {
    QString id;
    QString name;
    QString plan;
    qint64 createdAt = 0;
};

/// A dashboard account. email is stored lower-cased.
struct User {
    QString id;
    QString email;
    QString passwordHash;
    qint64 createdAt = 0;
};

/// Roles of a user in a space, strongest first (docs/api.md).
enum class Role { Owner, Admin, Member };

/// "owner", "admin", "member".
QString roleName(Role role);
/// Inverse of roleName(); false for anything else.
bool parseRole(const QString &text, Role *role);

/// A user's membership in a space, with the space and user joined in.
struct Membership {
    Space space;
    User user;
    Role role = Role::Member;
};

/// An API key record. The token itself is never stored; tokenHash is its SHA-256.
struct ApiKey {
    QString id;
    QString spaceId;
    QString name;
    QString prefix; ///< first characters of the token, for display
    QString createdBy; ///< user id, empty when made by the CLI
    QString createdByEmail; ///< joined for display, empty when unknown
    qint64 createdAt = 0;
    qint64 expiresAt = 0;
    qint64 lastUsedAt = 0;
    qint64 revokedAt = 0;
    /// What the key may do (docs/api.md, "API key scopes"): "render" (/render) and/or
    /// "content" (the template and page routes without a session).
    QStringList scopes{QStringLiteral("render")};
};

/// A URL-signing key of a space (docs/api.md, "Signed URLs"). Its secret is stored only
/// sealed (SecretBox) and is not part of the record.
struct SigningKey {
    QString id; ///< "sgk_…"
    QString spaceId;
    QString name;
    QString createdBy; ///< user id, empty when made by the CLI
    QString createdByEmail; ///< joined for display, empty when unknown
    qint64 createdAt = 0;
    qint64 revokedAt = 0;
};

/// An uploaded font face of a space (docs/fonts-and-images.md). The file is
/// files/<sha256[0:2]>/<sha256>.<format> in the file store, as uploaded.
struct FontRecord {
    QString id; ///< "fnt_…"
    QString spaceId;
    QString family; ///< the name templates use in fontFamily
    int weight = 400; ///< CSS 1–1000
    QString style; ///< "normal" or "italic"
    QString format; ///< "ttf", "otf", "woff", "woff2"
    QString sha256; ///< of the uploaded bytes
    qint64 bytes = 0;
    qint64 createdAt = 0;
};

/// An uploaded image of a space; the file is files/<sha256[0:2]>/<sha256>.<format>.
struct AssetRecord {
    QString id; ///< "ast_…"
    QString spaceId;
    QString contentType; ///< "image/png", ...
    QString format; ///< the stored extension: "png", "jpeg", "gif", "webp", "svg"
    QString sha256; ///< of the stored bytes (an SVG: after sanitising)
    int width = 0, height = 0; ///< px, intrinsic
    qint64 bytes = 0;
    qint64 createdAt = 0;
};

/// An active signing key with its space and its sealed secret: what verifying a signed
/// URL reads.
struct SigningKeySecret {
    SigningKey key;
    Space space;
    QByteArray sealedSecret;
};

/// A live dashboard session, with whom and where it acts.
struct SessionInfo {
    QString sessionId;
    qint64 expiresAt = 0;
    Membership membership;
};

/// What an API token authenticates as: the key and its space (with plan).
struct ApiKeyPrincipal {
    QString keyId;
    Space space;
    QStringList scopes; ///< the key's scopes (ApiKey::scopes)
};

/// A stored template: its JSON document as given (docs/templates.md), validated when saved.
struct TemplateRecord {
    QString id; ///< "tpl_…"
    QString spaceId;
    QString name; ///< the document's "name", or "Untitled"
    QJsonObject document;
    qint64 createdAt = 0; ///< epoch ms
    qint64 updatedAt = 0;
    /// The number of the version `document` is (template_versions; 1 for a new template,
    /// each update and rollback adds one).
    int version = 1;
};

/// One stored version of a template (template_versions, docs/api.md "Template
/// versions"): the full document as it was saved, numbered 1, 2, ... per template.
struct TemplateVersionRecord {
    QString templateId;
    QString spaceId;
    int version = 0;
    QString name; ///< the document's name then
    QJsonObject document;
    QString actor; ///< user id, "cli", an API key's "key:ID", or "migration"
    qint64 createdAt = 0; ///< epoch ms
};

/// A stored page: a template plus variable values (docs/templates.md).
struct PageRecord {
    QString id; ///< "pg_…"
    QString spaceId;
    QString templateId;
    QString name;
    QJsonObject variables; ///< name → value (string or number)
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
    qint64 publishedAt = 0; ///< 0 when never published (joined from published_pages)
    /// The template version this page is pinned to; nullopt follows the latest.
    std::optional<int> templateVersion;
    /// The template version its publish snapshot used (joined); 0 when never published or
    /// published before versions were recorded.
    int publishedTemplateVersion = 0;
};

/// A frozen page + template (docs/templates.md): what non-draft renders read.
struct PublishedPage {
    QString pageId;
    QString spaceId;
    PageRecord page; ///< the page as it was when published
    TemplateRecord tmpl; ///< its template as it was when published
    qint64 publishedAt = 0; ///< epoch ms
};

/// One stored render (the renders table): which file a render produced, for audit and
/// for garbage collection of DATA/files later.
struct RenderRecord {
    QString id;
    QString spaceId; ///< empty for anonymous pattern renders
    QString pageId; ///< empty for pattern renders
    QString sha256;
    QString format; ///< "png", "webp", "svg", "jpeg", "avif"
    qint64 bytes = 0;
    qint64 createdAt = 0; ///< epoch ms of the render; 0 = when the row is inserted
};

} // namespace imprint::store
