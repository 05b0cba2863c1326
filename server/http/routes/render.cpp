// POST/GET /api/v1/render: pattern renders and page renders, told apart by `pattern` vs
// `pageId`. The request is read into Params (the request DTO, render_params.h, checked on the server
// thread), then into a PatternRenderRequest or PageRenderRequest for the service; the
// answer is shaped from its result (bytes, or JSON with a file URL or a data URL, with
// Server-Timing). A GET with `sig` is a signed URL (bottom of this file). What may be
// rendered at which size, caching and storing are the services'; authentication and the
// per-key rate limit are the transport's.
#include "server/http/auth.h"
#include "server/http/json.h"
#include "server/http/routes/render.h"
#include "server/http/routes/render_fields.h"
#include "server/http/routes/render_params.h"
#include "server/render/engine.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QUrl>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace imprint::http {

namespace {

const QString kApi = QStringLiteral("/api/v1");

double msSince(const QElapsedTimer &t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

double round2(double ms)
{
    return std::round(ms * 100.0) / 100.0;
}

QByteArray serverTiming(const QList<QPair<QString, double>> &stages)
{
    // Appended, not QString::arg()ed: a cached pattern answer carries one too.
    // std::to_chars: QByteArray::number() goes through QLocale's machinery for each value.
    QByteArray out;
    out.reserve(qsizetype(stages.size()) * 24);
    for (const auto &s : stages) {
        if (!out.isEmpty())
            out.append(", ");
        char digits[32];
        const auto [end, error] = std::to_chars(digits, digits + sizeof digits, s.second, std::chars_format::fixed, 2);
        out.append(s.first.toLatin1()).append(";dur=");
        if (error == std::errc())
            out.append(digits, end - digits);
        else // a duration past 10^29 ms: not one this server measures, but never garbage
            out.append(QByteArray::number(s.second, 'f', 2));
    }
    return out;
}

QJsonObject fileJson(const store::StoredFile &f, const QString &baseUrl)
{
    return QJsonObject{
        {QStringLiteral("url"), QStringLiteral("%1%2/files/%3.%4").arg(baseUrl, kApi, f.sha256, f.extension)},
        {QStringLiteral("contentType"), QString::fromLatin1(store::FileStore::contentTypeOf(f.extension))},
        {QStringLiteral("size"), double(f.size)},
        {QStringLiteral("sha256"), f.sha256},
    };
}


/// A JSON render answer in the success envelope every other route uses,
/// {"success": true, "data": {…}}, with the same members also at the top level, where
/// clients written before the envelope read them (docs/api.md, "Responses and errors").
QJsonObject enveloped(QJsonObject fields)
{
    fields.remove(QStringLiteral("success"));
    QJsonObject body = fields;
    body.insert(QStringLiteral("success"), true);
    body.insert(QStringLiteral("data"), fields);
    return body;
}

/// 429 `rate_limited` with `Retry-After`: the render rate limiter wants `wait` s more.
HttpResponse rateLimited(int wait)
{
    return problem(429, QStringLiteral("rate_limited"), QStringLiteral("Too many renders; retry in %1 s.").arg(wait))
        .withHeader("Retry-After", QByteArray::number(wait));
}

/// The page render `p` asks for: what it renders (a stored page, maybe a draft, or an
/// inline template) and how. The caller adds the space, storing and the deadline.
service::PageRenderRequest pageRenderOf(const RenderParams &p)
{
    service::PageRenderRequest request;
    request.pageId = p.pageId;
    request.templateId = p.templateId;
    request.draft = p.draft;
    request.inlineTemplate = p.inlineTemplate;
    request.options = p.options;
    request.size = p.size;
    return request;
}

} // namespace

Outcome<service::PageRenderRequest> RenderRoutes::pageRequestOf(const QJsonObject &fields)
{
    if (present(fields, QStringLiteral("pattern")))
        return invalidParam(QStringLiteral("pattern"),
                            QStringLiteral("A job renders pages and inline templates; patterns render at once."));
    const auto params = parseRenderFields(fields, true);
    if (!params)
        return params.error();
    service::PageRenderRequest request = pageRenderOf(*params);
    request.storeFile = true;
    return request;
}

// ---------------------------------------------------------------- handlers

void RenderRoutes::handleRender(HttpRequest &&request, Responder &&responder)
{
    // Runs on the I/O thread that parsed the request. A pattern render from the query
    // touches only thread-safe use cases (the key's memory and this thread's database
    // connection, the rate limiter, the pattern cache, the usage queue, histograms) and
    // stays there; everything else (page, inline and signed renders, bodies) goes to the
    // server's thread, where those handlers have always run.
    if (request.method != "GET" || !request.hasQueryItem(QStringLiteral("pattern"))
        || request.hasQueryItem(QStringLiteral("sig")))
        return onServerThread(std::move(request), std::move(responder),
                              [this](HttpRequest &&r, Responder &&out) { answerRender(std::move(r), std::move(out)); });
    // No `sig`, as just read: not asked again.
    answerUnsigned(std::move(request), std::move(responder));
}

void RenderRoutes::answerRender(HttpRequest &&request, Responder &&responder)
{
    // A GET with `sig` is a signed URL: authorised by its signature, not by a token.
    if (request.method == "GET" && request.hasQueryItem(QStringLiteral("sig")))
        return renderSigned(std::move(request), std::move(responder));
    answerUnsigned(std::move(request), std::move(responder));
}

void RenderRoutes::answerUnsigned(HttpRequest &&request, Responder &&responder)
{
    const auto parsed = m_paramsMemo.params(request);
    if (!parsed)
        return responder.send(parsed.error());
    const std::shared_ptr<const Params> &params = *parsed;
    // RFC 7240: a page render that prefers respond-async becomes a job of one item (202);
    // a pattern render is answered at once, without Preference-Applied.
    if (!params->isPattern && m_asyncRender && prefersRespondAsync(request))
        return m_asyncRender(request, params->fields, std::move(responder));
    if (params->isPattern)
        renderPattern(request, *params, std::move(responder));
    else
        renderPage(request, *params, std::move(responder));
}

// ---------------------------------------------------------------- pattern renders

void RenderRoutes::renderPattern(const HttpRequest &request, const Params &p, Responder &&responder)
{
    QElapsedTimer total;
    total.start();
    // Token optional, but one that is present must be valid. Without one the request
    // keeps the use case's anonymous plan.
    service::PatternRenderRequest patternRequest;
    QString rateKey;
    QString spaceId;
    RenderUsageNote note{{}, {}, QStringLiteral("pattern"), service::formatName(p.options.format), false, -1, total};
    if (const QString token = apiTokenOf(request); !token.isEmpty()) {
        const auto principal = authenticateApiToken(token, m_keys);
        if (!principal)
            return responder.send(principal.error());
        if (auto refused = missingScope(*principal, QStringLiteral("render")))
            return responder.send(*refused);
        patternRequest.plan = principal->space.plan;
        spaceId = principal->space.id;
        rateKey = QStringLiteral("key:") + principal->keyId;
        note.spaceId = spaceId;
        note.keyId = principal->keyId;
    } else {
        rateKey = QStringLiteral("addr:") + request.remoteAddress.toString();
    }
    if (const int wait = m_rateLimiter.acquire(rateKey); wait > 0)
        return responder.send(m_usage.answered(note, rateLimited(wait)));
    patternRequest.pattern = p.pattern;
    patternRequest.options = p.options;
    const auto prepared = m_patterns.prepare(patternRequest);
    if (!prepared)
        return responder.send(m_usage.answered(note, problemFor(prepared.error())));
    const service::PatternJob job = *prepared;

    const bool json = !p.renderOnly && p.acceptJson;
    const std::optional<QByteArray> hit = m_patterns.cached(job, p.cache);
    // Literals without an allocation each: this runs for every cached render.
    const QByteArray cacheState
        = hit ? QByteArrayLiteral("HIT") : (p.cache ? QByteArrayLiteral("MISS") : QByteArrayLiteral("BYPASS"));
    note.cacheHit = hit.has_value();
    if (hit && !json) {
        // Served on the server thread: a cached pattern costs a hash lookup and a write.
        return responder.send(m_usage.answered(
            note,
            HttpResponse::bytes(200, job.contentType, *hit)
                .withHeader(QByteArrayLiteral("X-Cache"), cacheState)
                .withHeader(QByteArrayLiteral("Cache-Control"), QByteArrayLiteral("public, max-age=3600"))
                .withHeader(QByteArrayLiteral("Server-Timing"),
                            serverTiming({{QStringLiteral("cache"), 0.0}, {QStringLiteral("total"), msSince(total)}}))));
    }
    const QString baseUrl = baseUrlFor(request);
    const auto work = [this, p, job, hit, json, cacheState, baseUrl, spaceId]() -> HttpResponse {
        QElapsedTimer t;
        t.start();
        QByteArray bytes;
        double renderMs = 0;
        if (hit) {
            bytes = *hit;
        } else {
            const auto rendered = m_patterns.render(job);
            if (!rendered)
                return problemFor(rendered.error());
            bytes = *rendered;
            renderMs = msSince(t);
            m_renderDurations.observe({QStringLiteral("pattern")}, renderMs / 1000.0);
        }
        if (!json) {
            return HttpResponse::bytes(200, job.contentType, bytes)
                .withHeader(QByteArrayLiteral("X-Cache"), cacheState)
                .withHeader(QByteArrayLiteral("Cache-Control"), QByteArrayLiteral("public, max-age=3600"))
                .withHeader(QByteArrayLiteral("Server-Timing"), serverTiming({{QStringLiteral("render"), renderMs},
                                                           {QStringLiteral("total"), msSince(t)}}));
        }
        QElapsedTimer st;
        st.start();
        const auto stored = m_patterns.store(job, bytes, spaceId);
        if (!stored)
            return problemFor(stored.error());
        const double storeMs = msSince(st);
        const QJsonObject body = enveloped({
            {QStringLiteral("pattern"), p.patternText},
            {QStringLiteral("format"), service::formatName(p.options.format)},
            {QStringLiteral("width"), job.size.width()},
            {QStringLiteral("height"), job.size.height()},
            {QStringLiteral("timings"), QJsonObject{{QStringLiteral("load"), 0},
                                                    {QStringLiteral("layout"), 0},
                                                    {QStringLiteral("paint"), round2(renderMs)},
                                                    {QStringLiteral("encode"), 0},
                                                    {QStringLiteral("store"), round2(storeMs)},
                                                    {QStringLiteral("total"), round2(msSince(t))}}},
            {QStringLiteral("file"), fileJson(*stored, baseUrl)},
            {QStringLiteral("warnings"), QJsonArray()},
        });
        return HttpResponse::json(200, body)
            .withHeader(QByteArrayLiteral("X-Cache"), cacheState)
            .withHeader(QByteArrayLiteral("Server-Timing"), serverTiming({{QStringLiteral("render"), renderMs},
                                                       {QStringLiteral("store"), storeMs},
                                                       {QStringLiteral("total"), msSince(t)}}));
    };
    respondAsync(std::move(responder), [this, note, work] { return m_usage.answered(note, work()); });
}

// ---------------------------------------------------------------- page renders

void RenderRoutes::observeStages(const service::PageRender &rendered)
{
    const auto observe
        = [this](const char *stage, double ms) { m_stageDurations.observe({QString::fromLatin1(stage)}, ms / 1000.0); };
    observe("load", rendered.loadMs);
    if (rendered.reused || !rendered.outcome)
        return;
    const render::RenderTimings &t = rendered.outcome->result.timings;
    observe("parse", t.parse);
    observe("layout", t.layout);
    observe("paint", t.paint);
    observe("encode", t.encode);
    if (rendered.outcome->file)
        observe("store", rendered.outcome->storeMs);
}

void RenderRoutes::renderPage(const HttpRequest &request, const Params &p, Responder &&responder)
{
    // An API token is required for page renders (pages are private to a space).
    QElapsedTimer authTimer;
    authTimer.start();
    const auto principal = authenticateApiToken(request, m_keys);
    m_stageDurations.observe({QStringLiteral("auth")}, double(authTimer.nsecsElapsed()) / 1e9);
    if (!principal)
        return responder.send(principal.error());
    if (auto refused = missingScope(*principal, QStringLiteral("render")))
        return responder.send(*refused);
    RenderUsageNote note{principal->space.id, principal->keyId,
                         p.options.engine ? render::engineName(*p.options.engine) : QStringLiteral("unknown"),
                         service::formatName(p.options.format), false, -1, authTimer};
    if (const int wait = m_rateLimiter.acquire(QStringLiteral("key:") + principal->keyId); wait > 0)
        return responder.send(m_usage.answered(note, rateLimited(wait)));
    const QString baseUrl = baseUrlFor(request);
    const auto cancellation
        = render::RenderCancellation::withDeadline(m_config.renderDeadlineMs(principal->space.plan));
    respondAsync(
        std::move(responder),
        [this, p, principal = *principal, baseUrl, cancellation, note]() mutable {
            HttpResponse answer = pageWork(p, principal, baseUrl, cancellation, note);
            return m_usage.answered(note, std::move(answer));
        },
        cancellation);
}

HttpResponse RenderRoutes::pageWork(const Params &p, const store::ApiKeyPrincipal &principal, const QString &baseUrl,
                                    const render::RenderCancellation &cancellation, RenderUsageNote &note)
{
    QElapsedTimer total;
    total.start();
    service::PageRenderRequest request = pageRenderOf(p);
    request.spaceId = principal.space.id;
    request.plan = principal.space.plan;
    request.storeFile = p.output == QLatin1String("json");
    request.cancellation = cancellation;
    const auto rendered = m_pages.render(request);
    if (!rendered)
        return withSourcePosition(problemFor(rendered.error()), p.templateSource);
    const service::PageRender &done = *rendered;
    observeStages(done);
    const service::PageRenderOutcome *outcome = done.outcome.get();
    const store::PageRecord &page = done.page;
    const QString engine = render::engineName(done.engine);
    const double loadMs = done.loadMs;
    const bool reused = done.reused;
    note.engine = engine;
    note.cacheHit = reused; // an identical render's image: the page render's cache
    note.bytes = outcome->result.bytes.size();

    // Answer in the requested form: binary bytes, or JSON with a file URL or a data URL.
    const render::RenderResult &r = outcome->result;
    const double totalMs = msSince(total);
    // Timings are this request's own work: an outcome reused from an identical render
    // (memo or single-flight) cost it no layout, paint, encode or store, and reporting
    // the original render's phases gave phases that add up to more than `total`.
    const double loadTotal = loadMs + (reused ? 0 : r.timings.parse);
    const double layoutMs = reused ? 0 : r.timings.layout;
    const double paintMs = reused ? 0 : r.timings.paint;
    const double encodeMs = reused ? 0 : r.timings.encode;
    const double storeMs = reused ? 0 : outcome->storeMs;
    if (!reused) // the pipeline's own work: parse, layout, paint, encode
        m_renderDurations.observe({engine}, (r.timings.parse + layoutMs + paintMs + encodeMs) / 1000.0);
    QList<QPair<QString, double>> stages{{QStringLiteral("load"), loadTotal},
                                         {QStringLiteral("layout"), layoutMs},
                                         {QStringLiteral("paint"), paintMs},
                                         {QStringLiteral("encode"), encodeMs},
                                         {QStringLiteral("store"), storeMs},
                                         {QStringLiteral("total"), totalMs}};
    // The engine's own steps (the html engine on Chromium: engine-queue, engine-page,
    // engine-load, engine-capture), inside layout and paint; none for a reused render.
    if (!reused) {
        for (const auto &[name, ms] : r.timings.steps)
            stages.append({QStringLiteral("engine-") + name, ms});
    }
    const QByteArray timing = serverTiming(stages);
    if (p.output == QLatin1String("binary"))
        return HttpResponse::bytes(200, r.contentType.toLatin1(), r.bytes)
            .withHeader(QByteArrayLiteral("Server-Timing"), timing)
            .withHeader("Cache-Control", p.draft ? "no-store" : "private, max-age=60");
    QJsonArray warnings;
    for (const QString &w : r.warnings)
        warnings.append(w);
    QJsonObject body{
        {QStringLiteral("renderType"), engine},
        {QStringLiteral("format"), service::formatName(p.options.format)},
        {QStringLiteral("width"), r.size.width()},
        {QStringLiteral("height"), r.size.height()},
        {QStringLiteral("draft"), p.draft},
        // True when an identical render (same page, template and publish versions, tweaks
        // and output) computed the image in the last 10 s or at the same moment.
        {QStringLiteral("reused"), reused},
        {QStringLiteral("timings"), QJsonObject{{QStringLiteral("load"), round2(loadTotal)},
                                                {QStringLiteral("layout"), round2(layoutMs)},
                                                {QStringLiteral("paint"), round2(paintMs)},
                                                {QStringLiteral("encode"), round2(encodeMs)},
                                                {QStringLiteral("store"), round2(storeMs)},
                                                {QStringLiteral("total"), round2(totalMs)}}},
        {QStringLiteral("warnings"), warnings},
        {QStringLiteral("alt"), done.alt.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(done.alt)},
    };
    // An inline render has no stored page or template to name.
    if (!p.inlineTemplate) {
        body.insert(QStringLiteral("pageId"), page.id);
        body.insert(QStringLiteral("templateId"), page.templateId);
    }
    if (outcome->file) {
        body.insert(QStringLiteral("file"), fileJson(*outcome->file, baseUrl));
    } else {
        body.insert(QStringLiteral("dataUrl"),
                    QStringLiteral("data:%1;base64,%2").arg(r.contentType, QString::fromLatin1(r.bytes.toBase64())));
    }
    return HttpResponse::json(200, enveloped(body))
        .withHeader(QByteArrayLiteral("Server-Timing"), timing)
        .withHeader("Cache-Control", "no-store");
}

// ---------------------------------------------------------------- signed page renders
//
// GET /api/v1/render?…&kid=…[&exp=…]&sig=…: a page render authorised by the URL's
// signature alone (docs/api.md, "Signed URLs"), for <meta property="og:image"> and other
// places that cannot keep a secret. SigningKeyService::verify() decides; this part reads
// the request, answers the image bytes with the cache headers a CDN needs, and
// revalidates with ETag / If-None-Match (RFC 9110 §8.8.3, §13.1.2).

namespace {

// Signed URLs cover this path (SigningKeyService::canonicalString()).
const QString kRenderPath = QStringLiteral("/api/v1/render");

// RFC 9110 §13.1.2: If-None-Match is a list of entity tags or "*", compared weakly, so a
// W/ prefix a cache may have added does not matter.
QList<QByteArray> entityTags(const QByteArray &header)
{
    QList<QByteArray> tags;
    for (QByteArray tag : header.split(',')) {
        tag = tag.trimmed();
        if (tag.startsWith("W/"))
            tag = tag.mid(2);
        if (!tag.isEmpty())
            tags.append(tag);
    }
    return tags;
}

} // namespace

void RenderRoutes::renderSigned(HttpRequest &&request, Responder &&responder)
{
    // Fields come from the signed query only: a body would be unsigned input.
    request.body.clear();
    const QList<QByteArray> known = entityTags(request.header("if-none-match"));
    // The space, and so its plan, is known only once the signature is checked on the
    // worker: a signed render runs under the server-wide render.deadlineMs.
    const auto cancellation = render::RenderCancellation::withDeadline(m_config.renderDeadlineMs(QString()));
    respondAsync(
        std::move(responder),
        [this, request = std::move(request), known, cancellation] {
            RenderUsageNote note;
            note.timer.start();
            HttpResponse answer = signedWork(request, known, cancellation, note);
            return m_usage.answered(note, std::move(answer));
        },
        cancellation);
}

HttpResponse RenderRoutes::signedWork(const HttpRequest &request, const QList<QByteArray> &knownTags,
                                      const render::RenderCancellation &cancellation, RenderUsageNote &note)
{
    QElapsedTimer total;
    total.start();
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    // The signature is checked before anything else is read: a changed parameter is a
    // wrong signature (403), whatever the parameter now says.
    const auto grant = m_signing.verify(kRenderPath, request.query().queryItems(QUrl::FullyDecoded), now);
    if (!grant)
        return problemFor(grant.error()).withHeader("Cache-Control", "no-store");
    note.spaceId = grant->space.id; // counted from here on: the signature named the space
    note.keyId = grant->keyId;
    const auto parsed = m_paramsMemo.params(request);
    if (!parsed)
        return parsed.error();
    const Params &p = **parsed;
    note.format = service::formatName(p.options.format);
    if (p.isPattern)
        return fieldProblem(400, QStringLiteral("invalid_parameter"), QStringLiteral("pattern"),
                            QStringLiteral("Signed URLs render pages; patterns need no signature."));
    if (p.inlineTemplate)
        return fieldProblem(400, QStringLiteral("invalid_parameter"), QStringLiteral("template"),
                            QStringLiteral("Signed URLs render published pages, not inline templates."));
    if (const int wait = m_rateLimiter.acquire(QStringLiteral("sgk:") + grant->keyId); wait > 0)
        return rateLimited(wait);

    service::PageRenderRequest rq = pageRenderOf(p); // no inline template: refused above
    rq.spaceId = grant->space.id;
    rq.plan = grant->space.plan;
    rq.draft = false; // verify() refuses drafts; published snapshots only
    rq.ifNoneMatch = knownTags;
    rq.cancellation = cancellation;
    const auto rendered = m_pages.render(rq);
    if (!rendered)
        return problemFor(rendered.error());

    // A URL that expires is fresh until then and no longer; one that does not, for the
    // configured time. Within that time caches need not revalidate (immutable): the
    // URL's bytes change only when the page is republished, and then so does the ETag,
    // which a revalidation after max-age picks up.
    const qint64 maxAge = grant->expiresAt > 0 ? std::max<qint64>(0, grant->expiresAt - now)
                                               : qint64(m_settings.signedUrlMaxAgeSeconds);
    const QByteArray cacheControl = "public, max-age=" + QByteArray::number(maxAge) + ", immutable";
    note.engine = render::engineName(rendered->engine);
    if (rendered->notModified) {
        ++m_signedNotModified;
        return HttpResponse{304, {}, {}}.withHeader("ETag", rendered->etag).withHeader("Cache-Control", cacheControl);
    }
    ++m_signedServed;
    note.cacheHit = rendered->reused;
    observeStages(*rendered);
    const render::RenderResult &r = rendered->outcome->result;
    if (!rendered->reused)
        m_renderDurations.observe({render::engineName(rendered->engine)},
                                  (r.timings.parse + r.timings.layout + r.timings.paint + r.timings.encode) / 1000.0);
    return HttpResponse::bytes(200, r.contentType.toLatin1(), r.bytes)
        .withHeader("ETag", rendered->etag)
        .withHeader("Cache-Control", cacheControl)
        .withHeader("X-Content-Type-Options", "nosniff")
        // An SVG opened directly must not run script or load anything, as for stored files.
        .withHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:")
        .withHeader(QByteArrayLiteral("Server-Timing"), "total;dur=" + QByteArray::number(double(total.nsecsElapsed()) / 1e6, 'f', 2));
}

// ---------------------------------------------------------------- the module

RenderRoutes::RenderRoutes(store::Config config, RouteSettings settings, service::ApiKeyService &keys,
                           service::RenderRateLimiter &rateLimiter, service::PatternRenderService &patterns,
                           service::PageRenderService &pages, service::SigningKeyService &signing,
                           RenderMetrics &metrics)
    : m_config(std::move(config))
    , m_settings(std::move(settings))
    , m_keys(keys)
    , m_rateLimiter(rateLimiter)
    , m_patterns(patterns)
    , m_pages(pages)
    , m_signing(signing)
    , m_renderDurations(metrics.renderDurations)
    , m_stageDurations(metrics.stageDurations)
    , m_signedServed(metrics.signedServed)
    , m_signedNotModified(metrics.signedNotModified)
{ }

void RenderRoutes::registerRoutes(Router &router)
{
    const auto render = [this](HttpRequest &&r, Responder &&resp) { handleRender(std::move(r), std::move(resp)); };
    addRoutes(router, {
        onAnyThread("POST", QStringLiteral("/render"), render),
        onAnyThread("GET", QStringLiteral("/render"), render),
        onServerThread("GET", QStringLiteral("/patterns"), [this](const HttpRequest &) { return patterns(); }),
    });
}

HttpResponse RenderRoutes::patterns() const
{
    QJsonArray list;
    for (const render::PatternInfo &info : m_patterns.catalog().patterns()) {
        QJsonArray variants;
        for (const render::PatternVariant &v : info.variants) {
            QJsonObject colors;
            for (auto it = v.colors.begin(); it != v.colors.end(); ++it)
                colors.insert(it.key(), it.value().name());
            variants.append(QJsonObject{{QStringLiteral("key"), v.key},
                                        {QStringLiteral("name"), v.name},
                                        {QStringLiteral("pattern"), info.key + QLatin1Char('-') + v.key},
                                        {QStringLiteral("colors"), colors}});
        }
        list.append(QJsonObject{
            {QStringLiteral("key"), info.key},
            {QStringLiteral("name"), info.name},
            {QStringLiteral("tileSize"), QJsonObject{{QStringLiteral("width"), info.tileSize.width()},
                                                     {QStringLiteral("height"), info.tileSize.height()}}},
            {QStringLiteral("defaultSize"), QJsonObject{{QStringLiteral("width"), info.defaultSize.width()},
                                                        {QStringLiteral("height"), info.defaultSize.height()}}},
            {QStringLiteral("variants"), variants},
        });
    }
    return HttpResponse::success(QJsonObject{{QStringLiteral("list"), list}, {QStringLiteral("count"), list.size()}})
        .withHeader("Cache-Control", "public, max-age=300");
}

} // namespace imprint::http
