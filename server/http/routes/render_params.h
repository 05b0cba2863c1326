#pragma once
// The render request DTO (RenderParams) and how a request becomes one: the fields of a
// JSON body and of the query string merged and checked (parseRenderParams()), with a memo
// for the body-less GETs that <meta og:image> URLs and badges repeat (RenderParamsMemo).

#include "server/http/message.h"
#include "server/http/problem.h"
#include "server/patterns/patterns.h"
#include "server/render/render_options.h"

#include <QHash>
#include <QJsonObject>
#include <QString>

#include <memory>
#include <mutex>
#include <optional>

namespace imprint::http {

/// A render request after parsing, fields already checked (docs/api.md, "Render").
struct RenderParams {
    bool isPattern = false;
    // pattern render
    render::PatternPath pattern;
    QString patternText;
    bool renderOnly = false;
    bool cache = true;
    // page render
    QString pageId;
    QString templateId;
    bool draft = false;
    // inline render (docs/api.md, "Inline renders"): a template document instead of pageId
    std::optional<QJsonObject> inlineTemplate;
    /// Where the inline template is written: its problems name the line and column.
    TemplateSource templateSource;
    QString size; // a size preset, resolved against the template (service::resolveRenderSize())
    QString output = QStringLiteral("json");
    // both (a pattern render reads the size, format and encoder settings)
    render::RenderOptions options;
    bool acceptJson = false;
    QJsonObject fields; // the request's fields as read (a job item of Prefer: respond-async)
};

/// The render request of `o`, the fields of a body or query string merged (parseRenderParams())
/// or a job item (RenderRoutes::pageRequestOf()); `acceptJson` says whether the client
/// accepts application/json. A problem (400, naming the field) for an unknown, ambiguous,
/// missing or malformed field.
Outcome<RenderParams> parseRenderFields(const QJsonObject &o, bool acceptJson);

/// The render request of `request`: its JSON body (honoured on GET too) and query string
/// merged, the query winning, `api_token` left out; then parseRenderFields().
Outcome<RenderParams> parseRenderParams(const HttpRequest &request);

/// What body-less render requests parsed to, by query string and Accept: the same URL
/// fetched again (a crawler re-reading og:image, a badge on every page view) is not
/// parsed again. Entries are shared read-only; at most kMaxEntries are held, all dropped
/// at once when full (refilling costs one parse per URL in use). Only successful parses
/// are kept, and never a query whose field names are percent-encoded, so that no key
/// holds an API token (`api_token` is cut out of the key), nor one over kMaxQueryChars
/// (what a link repeats is short; a client must not fill the memo with tweaks of tens of
/// kilobytes each, before it is even authenticated). Thread-safe.
class RenderParamsMemo
{
public:
    static constexpr qsizetype kMaxEntries = 512;
    static constexpr qsizetype kMaxQueryChars = 2048;

    /// parseRenderParams(request), from the memo when the same query and Accept were
    /// parsed before and `request` has no body.
    Outcome<std::shared_ptr<const RenderParams>> params(const HttpRequest &request);

    /// Entries held now (tests).
    qsizetype size() const;

private:
    mutable std::mutex m_mutex;
    QHash<QString, std::shared_ptr<const RenderParams>> m_entries;
};

} // namespace imprint::http
