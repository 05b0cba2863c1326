#pragma once
// JSON forms of the stored records, written once for every front end: the HTTP routes
// send them in their success envelope and the CLI prints them with --json, so a script
// that reads one can read the other. Times are ISO 8601 UTC strings (RFC 3339), or null
// when unset.

#include "server/store/models.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>

namespace imprint::service {

/// `ms` (epoch milliseconds) as an ISO 8601 UTC string, or JSON null when `ms` ≤ 0.
QJsonValue isoOrNull(qint64 ms);

/// An API key without its secret: id, name, prefix, createdAt, expiresAt, lastUsedAt and
/// createdBy (the creator's e-mail, else their user id, else "cli").
QJsonObject keyJson(const store::ApiKey &key);

/// A URL-signing key without its secret: id, name, createdAt, createdBy (as keyJson()).
QJsonObject signingKeyJson(const store::SigningKey &key);

/// A page: id, templateId, templateVersion (the pinned version, null = the latest), name,
/// variables, createdAt, updatedAt, published (bool), publishedAt and
/// publishedTemplateVersion (the version its snapshot used; null when unpublished or
/// published before versions were kept).
QJsonObject pageJson(const store::PageRecord &page);

/// A template: id, name, width, height, rendererType (the document's, default "satori"),
/// version (the latest's number), createdAt, updatedAt and, when `withDocument`, the whole
/// document (lists leave it out).
QJsonObject templateJson(const store::TemplateRecord &tmpl, bool withDocument = true);

/// One template version: templateId, version, name, createdAt, createdBy (the actor: a
/// user id, "cli", "key:…" or "migration") and, when `withDocument`, the document then.
QJsonObject templateVersionJson(const store::TemplateVersionRecord &version, bool withDocument = true);

/// Whether any string in `v` (at any depth of its arrays and objects) passes `test`: the
/// cheap walks that tell whether a template, its variables or tweaks may name a URL or an
/// asset before anything resolves them.
template<typename Test>
bool anyString(const QJsonValue &v, const Test &test)
{
    if (v.isString())
        return test(v.toString());
    if (v.isArray()) {
        for (const QJsonValue &x : v.toArray())
            if (anyString(x, test))
                return true;
    } else if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            if (anyString(it.value(), test))
                return true;
    }
    return false;
}

} // namespace imprint::service
