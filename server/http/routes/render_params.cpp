// Reading a render request: its fields (a JSON body and the query string merged) checked
// into RenderParams, the request DTO every render route works from, and a memo of
// what body-less GETs parsed to (RenderParamsMemo), so that the same URL fetched again is
// not parsed again (issue 35: a cached pattern render spent about 15 % of its
// instructions here).
#include "server/http/routes/render_params.h"

#include "server/common/text.h"
#include "server/http/json.h"
#include "server/http/routes/render_fields.h"
#include "server/render/engine.h"
#include "server/render/resources/emoji.h"

#include <QJsonDocument>
#include <QUrl>

#include <limits>

namespace imprint::http {

namespace {

// Every field a render request may carry, in a body or a query string: both kinds of
// render (a pattern field on a page render is ignored rather than refused, so one client
// can build both kinds from one set of options), and the signed-URL parameters.
// `tweaks.NAME` and `tweaks[NAME]` query parameters are folded into `tweaks` and
// `api_token` is dropped before the check (mergedFields()).
const QStringList kRenderFields
    = QStringLiteral("pageId pattern templateId draft tweaks format quality lossless width height renderType emojiType "
                     "output binary cache mode speed kid exp sig compression scale template size")
          .split(u' ');

const QStringList kOutputs = {QStringLiteral("json"), QStringLiteral("binary"), QStringLiteral("image"),
                              QStringLiteral("raw"), QStringLiteral("dataurl")};

/// Merges the JSON body (honoured on GET too) with the query string (GET takes
/// the same fields, `tweaks` as JSON text, `tweaks.NAME=value` or `tweaks[NAME]=value`); the
/// query wins.
Outcome<QJsonObject> mergedFields(const HttpRequest &request)
{
    const auto body = jsonObjectBody(request, true);
    if (!body)
        return body.error();
    QJsonObject o = *body;
    // The query's tweaks go straight over the body's (the query wins, a later item over
    // an earlier one): one object, not a second one merged in afterwards.
    std::optional<QJsonObject> tweaks;
    const auto queryTweaks = [&]() -> QJsonObject & {
        if (!tweaks)
            tweaks = o.value(QStringLiteral("tweaks")).toObject();
        return *tweaks;
    };
    for (const auto &item : request.query().queryItems(QUrl::FullyDecoded)) {
        const QString &key = item.first;
        if (key == QLatin1String("api_token"))
            continue;
        if (key.startsWith(QLatin1String("tweaks."))) {
            queryTweaks().insert(key.mid(7), item.second);
        } else if (key.startsWith(QLatin1String("tweaks[")) && key.endsWith(QLatin1Char(']')) && key.size() > 8) {
            // OpenAPI's deepObject style (tweaks[NAME]=value), what generated clients send.
            queryTweaks().insert(key.mid(7, key.size() - 8), item.second);
        } else if (key == QLatin1String("tweaks")) {
            const QJsonDocument doc = QJsonDocument::fromJson(item.second.toUtf8());
            if (!doc.isObject())
                return invalidParam(QStringLiteral("tweaks"), QStringLiteral("'tweaks' must be a JSON object."));
            const QJsonObject t = doc.object();
            QJsonObject &merged = queryTweaks();
            for (auto it = t.begin(); it != t.end(); ++it)
                merged.insert(it.key(), it.value());
        } else {
            o.insert(key, item.second);
        }
    }
    if (tweaks)
        o.insert(QStringLiteral("tweaks"), *tweaks);
    return o;
}

/// True for `{"document": {…}}`, the wrapped form of a template document.
bool isWrapped(const QJsonObject &document)
{
    return document.size() == 1 && document.value(QStringLiteral("document")).isObject();
}

/// The template document of an inline render: an object (a JSON body), JSON text of one
/// (a query string), or `{"document": {…}}` as `POST /templates` also takes it. 400
/// naming `template` otherwise. `wrapped` (may be null) says whether it came wrapped.
Outcome<QJsonObject> inlineTemplate(const QJsonValue &v, bool *wrapped = nullptr)
{
    QJsonObject document;
    if (v.isObject()) {
        document = v.toObject();
    } else if (v.isString()) {
        // An editor's text (the console's studio): a syntax error names its line and column.
        const QByteArray text = v.toString().toUtf8();
        QJsonParseError error;
        const QJsonDocument parsed = QJsonDocument::fromJson(text, &error);
        if (error.error != QJsonParseError::NoError)
            return syntaxProblem(QStringLiteral("template"), error.errorString(), text, error.offset);
        if (!parsed.isObject())
            return invalidParam(QStringLiteral("template"), QStringLiteral("'template' must be a JSON object."));
        document = parsed.object();
    } else {
        return invalidParam(QStringLiteral("template"), QStringLiteral("'template' must be a template document."));
    }
    const bool isDocumentWrapped = isWrapped(document);
    if (wrapped)
        *wrapped = isDocumentWrapped;
    if (isDocumentWrapped)
        return document.value(QStringLiteral("document")).toObject();
    return document;
}

/// The fields of a page or inline render after the common ones: which page (or the
/// inline template), tweaks, emoji set, engine, output.
std::optional<HttpResponse> readPageFields(const QJsonObject &o, RenderParams &p)
{
    if (present(o, QStringLiteral("template"))) {
        const QJsonValue given = o.value(QStringLiteral("template"));
        bool wrapped = false;
        const auto document = inlineTemplate(given, &wrapped);
        if (!document)
            return document.error();
        p.inlineTemplate = *document;
        if (given.isString())
            p.templateSource = {given.toString().toUtf8(), QStringLiteral("template."),
                                wrapped ? QStringLiteral("document.") : QString()};
        // Fields about a stored page mean nothing here: refused rather than ignored, so a
        // client that meant a page render hears of it.
        for (const QString &name : {QStringLiteral("templateId"), QStringLiteral("draft")}) {
            if (present(o, name))
                return invalidParam(name, QStringLiteral("'%1' applies to page renders, not to an inline 'template'.")
                                              .arg(name));
        }
    } else {
        if (auto e = readString(o, QStringLiteral("pageId"), &p.pageId))
            return *e;
        if (p.pageId.isEmpty())
            return fieldProblem(400, QStringLiteral("missing_field"), QStringLiteral("pageId"),
                                QStringLiteral("'pageId' is empty."));
        if (auto e = readString(o, QStringLiteral("templateId"), &p.templateId))
            return *e;
        if (auto e = readBool(o, QStringLiteral("draft"), &p.draft))
            return *e;
    }
    const QJsonValue tweaks = o.value(QStringLiteral("tweaks"));
    if (!tweaks.isUndefined() && !tweaks.isNull()) {
        if (!tweaks.isObject())
            return invalidParam(QStringLiteral("tweaks"),
                                QStringLiteral("'tweaks' must be an object of variable values."));
        p.options.tweaks = tweaks.toObject();
        for (auto it = p.options.tweaks.constBegin(); it != p.options.tweaks.constEnd(); ++it) {
            if (!it.value().isString() && !it.value().isDouble())
                return invalidParam(QStringLiteral("tweaks.") + it.key(),
                                    QStringLiteral("Tweak '%1' must be a string or a number.").arg(it.key()));
        }
    }
    if (auto e = readString(o, QStringLiteral("size"), &p.size))
        return *e;
    QString emojiType;
    if (auto e = readString(o, QStringLiteral("emojiType"), &emojiType))
        return *e;
    if (!emojiType.isEmpty()) {
        p.options.emojiSet = render::kEmojiSetNames.parseAnyCase(emojiType);
        if (!p.options.emojiSet)
            return invalidParam(QStringLiteral("emojiType"),
                                QStringLiteral("'emojiType' must be one of %1.")
                                    .arg(render::kEmojiSetNames.names().join(QStringLiteral(", "))));
    }
    QString renderType;
    if (auto e = readString(o, QStringLiteral("renderType"), &renderType))
        return *e;
    if (!renderType.isEmpty()) {
        p.options.engine = render::kEngineNames.parse(renderType.toLower());
        if (!p.options.engine)
            return invalidParam(QStringLiteral("renderType"),
                                QStringLiteral("'renderType' must be %1.").arg(render::kEngineNames.orList()));
    }
    QString output;
    if (auto e = readString(o, QStringLiteral("output"), &output))
        return *e;
    output = output.toLower();
    if (!output.isEmpty() && !kOutputs.contains(output))
        return invalidParam(QStringLiteral("output"),
                            QStringLiteral("'output' must be json, binary, image, raw or dataurl."));
    bool binary = false;
    if (auto e = readBool(o, QStringLiteral("binary"), &binary))
        return *e;
    p.output = binary ? QStringLiteral("binary") : (output.isEmpty() ? QStringLiteral("json") : output);
    if (p.output == QLatin1String("image") || p.output == QLatin1String("raw"))
        p.output = QStringLiteral("binary");
    return std::nullopt;
}

} // namespace

Outcome<RenderParams> parseRenderFields(const QJsonObject &o, bool acceptJson)
{
    if (auto e = rejectUnknownFields(o, kRenderFields, QStringLiteral("a render request")))
        return *e;
    RenderParams p;
    p.fields = o;
    const bool hasPattern = present(o, QStringLiteral("pattern"));
    const bool hasPage = present(o, QStringLiteral("pageId"));
    const bool hasTemplate = present(o, QStringLiteral("template"));
    if (int(hasPattern) + int(hasPage) + int(hasTemplate) > 1)
        return fieldProblem(400, QStringLiteral("ambiguous_render"),
                            hasTemplate ? QStringLiteral("template") : QStringLiteral("pattern"),
                            QStringLiteral("Give one of 'pattern' (pattern render), 'pageId' (page render) or "
                                           "'template' (inline render)."));
    if (!hasPattern && !hasPage && !hasTemplate)
        return fieldProblem(400, QStringLiteral("missing_field"), QStringLiteral("pageId"),
                            QStringLiteral("Give 'pageId' (page render), 'template' (inline render) or 'pattern' "
                                           "(pattern render)."));
    p.isPattern = hasPattern;
    p.acceptJson = acceptJson;

    constexpr int kLargestSize = std::numeric_limits<int>::max();
    if (auto e = readInt(o, QStringLiteral("width"), 1, kLargestSize, &p.options.width, true))
        return *e;
    if (auto e = readInt(o, QStringLiteral("height"), 1, kLargestSize, &p.options.height, true))
        return *e;
    int scale = 1;
    if (auto e = readInt(o, QStringLiteral("scale"), int(render::kMinRenderScale), int(render::kMaxRenderScale), &scale))
        return *e;
    p.options.scale = scale;
    if (auto e = readInt(o, QStringLiteral("quality"), 1, 100, &p.options.quality))
        return *e;
    if (auto e = readBool(o, QStringLiteral("lossless"), &p.options.lossless))
        return *e;
    if (auto e = readInt(o, QStringLiteral("speed"), 0, 10, &p.options.speed))
        return *e;
    QString compression;
    if (auto e = readString(o, QStringLiteral("compression"), &compression))
        return *e;
    if (!compression.isEmpty()) {
        p.options.compression = render::parsePngCompression(compression);
        if (!p.options.compression)
            return invalidParam(
                QStringLiteral("compression"),
                QStringLiteral("'compression' must be %1.").arg(common::orList(render::kPngCompressionNames.names())));
    }
    QString format;
    if (auto e = readString(o, QStringLiteral("format"), &format))
        return *e;
    if (!format.isEmpty()) {
        const auto f = render::parseOutputFormat(format);
        // A pattern is a bitmap tile: the vector formats are the page engines' only.
        if (!f || (p.isPattern && render::outputFormatInfo(*f).vector)) {
            const auto bitmap = [](render::OutputFormat f) { return !render::outputFormatInfo(f).vector; };
            return invalidParam(QStringLiteral("format"),
                                p.isPattern ? QStringLiteral("'format' of a pattern render must be %1.")
                                                  .arg(common::orList(render::kOutputFormatNames.namesWhere(bitmap)))
                                            : QStringLiteral("'format' must be %1.")
                                                  .arg(common::orList(render::kOutputFormatNames.names())));
        }
        p.options.format = *f;
    }

    if (p.isPattern) {
        if (present(o, QStringLiteral("size")))
            return invalidParam(QStringLiteral("size"), QStringLiteral("'size' names a template's size; a pattern "
                                                                       "render takes width and height."));
        if (p.options.scale != 1)
            return invalidParam(QStringLiteral("scale"),
                                QStringLiteral("'scale' applies to page renders; a pattern render takes its pixel size "
                                               "as width and height."));
        if (auto e = readString(o, QStringLiteral("pattern"), &p.patternText))
            return *e;
        const auto path = render::parsePatternPath(p.patternText);
        if (!path)
            return fieldProblem(400, QStringLiteral("invalid_pattern"), QStringLiteral("pattern"),
                                QStringLiteral("'pattern' must be {patternKey}-{variantKey} with keys [a-z0-9]+: %1")
                                    .arg(path.error()));
        p.pattern = *path;
        QString mode;
        if (auto e = readString(o, QStringLiteral("mode"), &mode))
            return *e;
        if (!mode.isEmpty() && mode != QLatin1String("render-only"))
            return invalidParam(QStringLiteral("mode"), QStringLiteral("'mode' must be \"render-only\" when given."));
        p.renderOnly = mode == QLatin1String("render-only");
        if (auto e = readBool(o, QStringLiteral("cache"), &p.cache))
            return *e;
        return p;
    }

    // `cache` and `mode` steer pattern renders only, but malformed ones are refused on every
    // kind, as the OpenAPI document types them (issue 30: "" was accepted on page renders).
    if (bool unused = true; auto e = readBool(o, QStringLiteral("cache"), &unused))
        return *e;
    if (QString mode; auto e = readString(o, QStringLiteral("mode"), &mode))
        return *e;
    else if (!mode.isEmpty() && mode != QLatin1String("render-only"))
        return invalidParam(QStringLiteral("mode"), QStringLiteral("'mode' must be \"render-only\" when given."));
    if (auto e = readPageFields(o, p))
        return *e;
    return p;
}

Outcome<RenderParams> parseRenderParams(const HttpRequest &request)
{
    const auto merged = mergedFields(request);
    if (!merged)
        return merged.error();
    auto params = parseRenderFields(*merged, request.header("accept").contains("application/json"));
    // A template object of the JSON body: its problems name their line in the body.
    if (params && params->inlineTemplate && params->templateSource.text.isEmpty()
        && merged->value(QStringLiteral("template")).isObject()) {
        const bool wrapped = isWrapped(merged->value(QStringLiteral("template")).toObject());
        params->templateSource = {request.body, QStringLiteral("template."),
                                  wrapped ? QStringLiteral("template.document.") : QStringLiteral("template.")};
    }
    return params;
}

namespace {

/// The memo key of a body-less request: its encoded query without `api_token`, then
/// whether it accepts JSON; std::nullopt when a field name is percent-encoded (it might
/// spell api_token), the request has no encoded query (HttpRequest::encodedQuery) or a
/// longer one than RenderParamsMemo::kMaxQueryChars.
std::optional<QString> memoKey(const HttpRequest &request, bool acceptJson)
{
    const QString &query = request.encodedQuery;
    if (query.isEmpty() || query.size() > RenderParamsMemo::kMaxQueryChars)
        return std::nullopt;
    QString key;
    key.reserve(query.size() + 2);
    // Empty items kept: "a&&b" is not "a&b" to every parse.
    bool encodedName = false;
    forEachQueryItem(query, [&](QStringView item) {
        const QStringView name = queryItemName(item);
        encodedName = hasPercentEscape(name);
        if (!encodedName && name != QLatin1String("api_token"))
            key.append(item).append(u'&');
        return !encodedName;
    });
    if (encodedName)
        return std::nullopt;
    key.append(acceptJson ? u'J' : u'-');
    return key;
}

} // namespace

Outcome<std::shared_ptr<const RenderParams>> RenderParamsMemo::params(const HttpRequest &request)
{
    std::optional<QString> key;
    if (request.body.isEmpty())
        key = memoKey(request, request.header("accept").contains("application/json"));
    if (key) {
        std::lock_guard lock(m_mutex);
        if (const auto it = m_entries.constFind(*key); it != m_entries.constEnd())
            return *it;
    }
    auto parsed = parseRenderParams(request);
    if (!parsed)
        return parsed.error();
    auto shared = std::make_shared<const RenderParams>(std::move(*parsed));
    if (key) {
        std::lock_guard lock(m_mutex);
        if (m_entries.size() >= kMaxEntries)
            m_entries.clear();
        m_entries.insert(*key, shared);
    }
    return shared;
}

qsizetype RenderParamsMemo::size() const
{
    std::lock_guard lock(m_mutex);
    return m_entries.size();
}

} // namespace imprint::http
