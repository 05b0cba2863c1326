// The render engine's commands: `imprint render`, `imprint layout` and
// `imprint bench`, working on template files without a server or database.

#include "server/app/commands/cli.h"
#include "server/common/text.h"
#include "server/render/pipeline.h"
#include "server/render/resources/svg_sandbox.h"
#include "server/service/size_presets.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QTextStream>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <optional>

namespace imprint::app {

using namespace imprint::render;

namespace {

/// The command-line options shared by the three commands, as typed (the render options
/// are parsed into render::RenderOptions by makeRequest()).
struct CliOptions {
    QStringList files;
    QString output;
    QString engine;
    QString format;
    QString emoji;
    QJsonObject tweaks;
    int width = 0, height = 0;
    QString size; ///< a size preset (service::resolveSize()), instead of width and height
    int scale = 1; ///< device scale factor (RenderOptions::scale)
    int quality = 90;
    bool lossless = false;
    std::optional<PngCompression> compression; ///< nullopt = the template's
    int iterations = 30;
    QString vary; ///< bench: the text variable each timed render sets to a value no render used
    int deadlineMs = 10000; ///< render: the render's deadline (the server's default render.deadlineMs)
    QString browser; ///< the html engine: "chromium" or "qt"
    bool svgInProcess = false; ///< untrusted SVG drawn here, not by the sandboxed helper
};

/// The output formats as the CLI lists them: `separator` between names, each after `prefix`.
QString formatList(const QString &prefix, const QString &separator, bool withPdf = true)
{
    QStringList names;
    for (const OutputFormatInfo &row : kOutputFormats) {
        if (withPdf || row.format != OutputFormat::Pdf)
            names << prefix + QLatin1String(row.name);
    }
    return names.join(separator);
}

/// The output formats as a sentence lists them: ".png, .webp, … or .pdf" with `prefix` ".".
QString formatSentence(const QString &prefix = QString())
{
    QStringList names;
    for (const OutputFormatInfo &row : kOutputFormats)
        names << prefix + QLatin1String(row.name);
    return common::orList(names);
}

/// The render context of a command: the html engine on the browser --browser names.
render::RenderContextOptions contextOptions(const CliOptions &o)
{
    render::RenderContextOptions options;
    options.htmlChromium = o.browser == QLatin1String("chromium");
    if (o.svgInProcess) {
        render::SvgSandboxOptions svg = render::svgSandboxOptions();
        svg.enabled = false;
        render::setSvgSandboxOptions(svg);
    }
    return options;
}

/// Declares the options the three commands share (each accepts all of them, as always).
void addRenderOptions(CommandLine &line)
{
    const QString engines = render::engineNames().join(QStringLiteral(", "));
    line.addValueOption({QStringLiteral("o"), QStringLiteral("output")},
                        QStringLiteral("render: the output file (%1).").arg(formatSentence(QStringLiteral("."))),
                        QStringLiteral("OUT"));
    line.addValueOption({QStringLiteral("engine")},
                        QStringLiteral("Engine: %1 (default: the template's, else satori).").arg(engines),
                        QStringLiteral("E"));
    line.addValueOption({QStringLiteral("format")},
                        QStringLiteral("%1 (pdf: the html engine on Chromium; default: from the output name).")
                            .arg(formatSentence()),
                        QStringLiteral("F"));
    line.addValueOption({QStringLiteral("emoji")}, QStringLiteral("Emoji image set."), QStringLiteral("SET"));
    line.addValueOption({QStringLiteral("tweak")}, QStringLiteral("A variable's value (repeatable)."),
                        QStringLiteral("name=value"));
    line.addValueOption({QStringLiteral("width")}, QStringLiteral("Width in px (1–8192)."), QStringLiteral("W"));
    line.addValueOption({QStringLiteral("height")}, QStringLiteral("Height in px (1–8192)."), QStringLiteral("H"));
    line.addValueOption({QStringLiteral("size")},
                        QStringLiteral("A size preset instead of --width/--height: og, twitter, linkedin, square, "
                                       "portrait, story, pinterest or one of the template's own sizes."),
                        QStringLiteral("NAME"));
    line.addValueOption({QStringLiteral("scale")},
                        QStringLiteral("Device scale factor 1–3: the image is width × scale px (default 1)."),
                        QStringLiteral("S"));
    line.addValueOption({QStringLiteral("quality")}, QStringLiteral("WebP quality 1–100 (default 90)."),
                        QStringLiteral("Q"));
    line.addFlag({QStringLiteral("lossless")}, QStringLiteral("Lossless WebP."));
    line.addFlag({QStringLiteral("svg-in-process")},
                 QStringLiteral("Draw SVG images in this process, not in the sandboxed helper (to compare)."));
    line.addValueOption(
        {QStringLiteral("compression")},
        QStringLiteral("PNG: %1 (default: the template's, else default).").arg(kPngCompressionNames.orList()),
        QStringLiteral("C"));
    line.addValueOption({QStringLiteral("browser")},
                        QStringLiteral("The html engine: chromium (headless Chromium, the default when installed) "
                                       "or qt (Qt's rich-text subset)."),
                        QStringLiteral("B"));
    line.addValueOption({QStringLiteral("n")}, QStringLiteral("bench: timed renders per file (default 30)."),
                        QStringLiteral("N"));
    line.addValueOption({QStringLiteral("vary")},
                        QStringLiteral("bench: a text variable every timed render sets to a value no render used "
                                       "before, as uncached page renders do: its shaping is timed too."),
                        QStringLiteral("NAME"));
    line.addValueOption({QStringLiteral("deadline")},
                        QStringLiteral("render: give up after MS milliseconds, the html engine's browser start "
                                       "included (default 10000)."),
                        QStringLiteral("MS"));
}

/// The options of a parsed command line; repeated `--tweak name=value` accumulate.
/// The error names the option with a bad value.
common::Expected<CliOptions, QString> parseOptions(const CommandLine &line)
{
    CliOptions o;
    o.files = line.positionals();
    o.output = line.value(QStringLiteral("output"));
    o.engine = line.value(QStringLiteral("engine"));
    o.format = line.value(QStringLiteral("format"));
    o.emoji = line.value(QStringLiteral("emoji"));
    o.size = line.value(QStringLiteral("size")).trimmed();
    o.lossless = line.isSet(QStringLiteral("lossless"));
    o.svgInProcess = line.isSet(QStringLiteral("svg-in-process"));
    o.vary = line.value(QStringLiteral("vary")).trimmed();
    if (const QString c = line.value(QStringLiteral("compression")); !c.isEmpty()) {
        o.compression = parsePngCompression(c);
        if (!o.compression)
            return QStringLiteral("--compression must be %1, not '%2'").arg(kPngCompressionNames.orList(), c);
    }
    o.browser = line.value(QStringLiteral("browser")).toLower();
    if (o.browser.isEmpty())
        o.browser = render::ChromiumBrowser::isInstalled() ? QStringLiteral("chromium") : QStringLiteral("qt");
    if (o.browser != QLatin1String("chromium") && o.browser != QLatin1String("qt"))
        return QStringLiteral("--browser: chromium or qt, not '%1'").arg(o.browser);
    for (const QString &value : line.values(QStringLiteral("tweak"))) {
        const qsizetype sep = value.indexOf(u'=');
        if (sep <= 0)
            return QStringLiteral("--tweak takes name=value, not '%1'").arg(value);
        o.tweaks.insert(value.left(sep), value.mid(sep + 1));
    }
    const struct {
        const char *name;
        int max;
        int *target;
    } numbers[] = {{"width", 8192, &o.width},
                   {"height", 8192, &o.height},
                   {"scale", int(render::kMaxRenderScale), &o.scale},
                   {"quality", 100, &o.quality},
                   {"n", 100000, &o.iterations},
                   {"deadline", 3600000, &o.deadlineMs}};
    for (const auto &n : numbers) {
        const QString name = QLatin1String(n.name);
        if (!line.isSet(name))
            continue;
        const QString value = line.value(name);
        bool ok = false;
        const int v = value.toInt(&ok);
        if (!ok || v < 1 || v > n.max)
            return QStringLiteral("--%1 must be a whole number from 1 to %2, not '%3'").arg(name).arg(n.max).arg(value);
        *n.target = v;
    }
    return o;
}

/// Adds the render options to `line` and parses `args` into CliOptions: the options, or
/// the exit code the command ends with (0 after --help, 2 after a usage error).
common::Expected<CliOptions, int> parseCommand(CommandLine &line, const QStringList &args)
{
    addRenderOptions(line);
    if (const int rc = line.parse(args); rc >= 0)
        return rc;
    auto o = parseOptions(line);
    if (!o)
        return line.usageError(o.error());
    return std::move(*o);
}

/// Reads a template file as a JSON object; nullopt with *error otherwise.
std::optional<QJsonObject> readTemplate(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = QStringLiteral("%1: invalid JSON at offset %2: %3")
                     .arg(path)
                     .arg(parseError.offset)
                     .arg(parseError.errorString());
        return std::nullopt;
    }
    if (!doc.isObject()) {
        *error = QStringLiteral("%1: a template is a JSON object").arg(path);
        return std::nullopt;
    }
    return doc.object();
}

QString describe(const RenderError &e)
{
    return e.field.isEmpty() ? e.message : QStringLiteral("%1: %2").arg(e.field, e.message);
}

int fail(const QString &message, int code = 1)
{
    QTextStream(stderr) << "imprint: " << message << '\n';
    return code;
}

/// Why makeRequest() failed: a usage error (exit 2) or, for an engine or emoji set the
/// renderer does not have, the pipeline's own error (exit 1, as a render error).
struct RequestFailure {
    QString usage;
    std::optional<RenderError> render;
};

/// The request for one template file: the command line's render options parsed here, once,
/// into RenderRequest::options.
common::Expected<RenderRequest, RequestFailure> makeRequest(const QString &path, const CliOptions &o)
{
    QString error;
    const auto doc = readTemplate(path, &error);
    if (!doc)
        return RequestFailure{error, {}};
    RenderRequest r;
    r.document = *doc;
    RenderOptions &options = r.options;
    options.tweaks = o.tweaks;
    // The same precedence as the HTTP routes: a size names both sides, so not with them.
    const auto size = service::resolveRenderSize(r.document, o.size, o.width, o.height);
    if (!size)
        return RequestFailure{QStringLiteral("--size: %1").arg(size.error().message), {}};
    options.width = size->width();
    options.height = size->height();
    options.scale = o.scale;
    options.quality = o.quality;
    options.lossless = o.lossless;
    options.compression = o.compression;
    if (!o.format.isEmpty()) {
        const auto f = parseOutputFormat(o.format);
        if (!f)
            return RequestFailure{
                QStringLiteral("--format must be %1, not '%2'").arg(formatSentence(), o.format), {}};
        options.format = *f;
    }
    // Empty: the template's rendererType, else render::kDefaultEngine.
    if (!o.engine.trimmed().isEmpty()) {
        const auto engine = parseEngineOption(o.engine);
        if (!engine)
            return RequestFailure{{}, engine.error()};
        options.engine = *engine;
    }
    if (!o.emoji.trimmed().isEmpty()) {
        const auto set = parseEmojiSetOption(o.emoji);
        if (!set)
            return RequestFailure{{}, set.error()};
        options.emojiSet = *set;
    }
    return r;
}

/// A failed makeRequest() as the command's exit: the pipeline's error exits 1 (prefixed
/// by `prefix`, the file, when several are rendered), bad usage 2.
int failRequest(const RequestFailure &failure, const QString &prefix = {})
{
    if (failure.render)
        return fail(prefix + describe(*failure.render));
    return fail(failure.usage, 2);
}

double percentile(std::vector<double> values, double p)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const double rank = p * double(values.size() - 1);
    const size_t lo = size_t(std::floor(rank)), hi = size_t(std::ceil(rank));
    return values[lo] + (values[hi] - values[lo]) * (rank - double(lo));
}

} // namespace

/// `imprint render TEMPLATE.json -o OUT.{png,webp,jpeg,avif,svg,pdf} [--engine E] [--format F]
/// [--quality Q] [--lossless] [--tweak name=value]... [--width W --height H] [--scale S]`.
/// Exit 0 on success, 1 on a render error, 2 on bad usage.
int runRenderCommand(const QStringList &args)
{
    CommandLine line(
        QStringLiteral("render"),
        QStringLiteral(
            "imprint render TEMPLATE.json -o OUT.{%1} [--engine %2] [--format %3] [--quality 1-100] [--lossless] "
            "[--compression %4] [--tweak name=value]... [--width W --height H | --size NAME] [--scale 1-3]")
            .arg(formatList(QString(), QStringLiteral(",")), kEngineNames.names().join(QLatin1Char('|')),
                 formatList(QString(), QStringLiteral("|")), kPngCompressionNames.names().join(QLatin1Char('|'))));
    const auto o = parseCommand(line, args);
    if (!o)
        return o.error();
    if (o->files.size() != 1 || o->output.isEmpty())
        return line.usageError(o->files.size() != 1 ? QStringLiteral("one template file, please")
                                                    : QStringLiteral("-o OUT is required"));
    CliOptions opts = *o;
    if (opts.format.isEmpty()) {
        const QString suffix = QFileInfo(opts.output).suffix();
        if (!parseOutputFormat(suffix))
            return fail(QStringLiteral("cannot tell the format from '%1': name it %2, or pass --format")
                            .arg(opts.output, formatSentence(QStringLiteral("."))),
                        2);
        opts.format = suffix;
    }
    auto request = makeRequest(opts.files.first(), opts);
    if (!request)
        return failRequest(request.error());
    RenderContext context(contextOptions(opts));
    // The browser starts once, beside the template's parse and layout, and the render
    // waits for it no longer than its deadline.
    const bool html = request->options.engine
                          ? *request->options.engine == Engine::Html
                          : request->document.value(QLatin1String("rendererType")).toString() == QLatin1String("html");
    if (html && context.htmlBrowser())
        context.htmlBrowser()->start();
    request->cancellation = RenderCancellation::withDeadline(opts.deadlineMs);
    const auto result = render::render(*request, context);
    if (!result)
        return fail(describe(result.error()));
    for (const QString &w : result->warnings)
        QTextStream(stderr) << "imprint: warning: " << w << '\n';
    QSaveFile out(opts.output);
    if (!out.open(QIODevice::WriteOnly) || out.write(result->bytes) != result->bytes.size() || !out.commit())
        return fail(QStringLiteral("cannot write %1: %2").arg(opts.output, out.errorString()));
    QTextStream(stdout) << opts.output << ": " << result->size.width() << "x" << result->size.height() << ", "
                        << result->bytes.size() << " bytes, " << QString::number(result->timings.total(), 'f', 1)
                        << " ms\n";
    return 0;
}

/// `imprint layout TEMPLATE.json [--tweak name=value]... [--width W --height H]`: the
/// element boxes as a JSON array (fields of the fixtures' layout.json), one per line.
int runLayoutCommand(const QStringList &args)
{
    CommandLine line(QStringLiteral("layout"),
                     QStringLiteral("imprint layout TEMPLATE.json [--tweak name=value]... [--width W --height H]"));
    const auto o = parseCommand(line, args);
    if (!o)
        return o.error();
    if (o->files.size() != 1)
        return line.usageError(QStringLiteral("one template file, please"));
    auto request = makeRequest(o->files.first(), *o);
    if (!request)
        return failRequest(request.error());
    RenderContext context(contextOptions(*o));
    const auto doc = layOut(*request, context);
    if (!doc)
        return fail(describe(doc.error()));
    const QJsonArray boxes = layoutToJson(doc->layout);
    QTextStream out(stdout);
    out << "[\n";
    for (qsizetype i = 0; i < boxes.size(); ++i)
        out << QJsonDocument(boxes.at(i).toObject()).toJson(QJsonDocument::Compact)
            << (i + 1 < boxes.size() ? ",\n" : "\n");
    out << "]\n";
    return 0;
}

/// This thread's CPU time in ms (CLOCK_THREAD_CPUTIME_ID): unlike wall time, it does not
/// count the time other processes on a shared machine held the core.
double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

/// `imprint bench [--engine E] [--format F] [-n 30] [--vary NAME] FILES...`: per file, one
/// warm-up render, then n sequential renders on this thread; prints one JSON line per file
/// with median and p95 ms of each stage (wall time), the total, the thread CPU time of a
/// whole render (`cpu`), and the output bytes. With --vary each timed render sets the text
/// variable NAME to its default followed by the render's number, as an uncached page render
/// brings text no render shaped before; a file without that variable is a usage error.
int runBenchCommand(const QStringList &args)
{
    CommandLine line(QStringLiteral("bench"),
                     QStringLiteral("imprint bench [--engine %1] [--format %2] [-n 30] [--vary NAME] FILES...")
                         .arg(kEngineNames.names().join(QLatin1Char('|')),
                              formatList(QString(), QStringLiteral("|"), false)));
    const auto o = parseCommand(line, args);
    if (!o)
        return o.error();
    if (o->files.isEmpty())
        return line.usageError(QStringLiteral("no template files"));
    QTextStream out(stdout);
    int status = 0;
    RenderContext context(
        contextOptions(*o)); // one for all files, as a server keeps one: its caches are part of what is measured
    for (const QString &path : o->files) {
        auto request = makeRequest(path, *o);
        if (!request) {
            status = failRequest(request.error(), path + QStringLiteral(": "));
            continue;
        }
        auto warm = render::render(*request, context);
        if (!warm) {
            status = fail(QStringLiteral("%1: %2").arg(path, describe(warm.error())));
            continue;
        }
        // --vary: the variable's default with a number no render used, so that its text
        // is shaped afresh (the shaping cache keeps what earlier renders shaped).
        QString varied;
        if (!o->vary.isEmpty()) {
            const QJsonArray variables = request->document.value(QStringLiteral("variables")).toArray();
            const auto it = std::find_if(variables.begin(), variables.end(), [&](const QJsonValue &v) {
                return v.toObject().value(QStringLiteral("name")).toString() == o->vary
                       && v.toObject().value(QStringLiteral("type")).toString(QStringLiteral("text"))
                              == QLatin1String("text");
            });
            if (it == variables.end()) {
                status = line.usageError(
                    QStringLiteral("--vary: %1 has no text variable '%2'").arg(QFileInfo(path).fileName(), o->vary));
                continue;
            }
            varied = it->toObject().value(QStringLiteral("default")).toString();
        }
        std::vector<double> parse, layout, paint, encode, total, cpu;
        qsizetype bytes = warm->bytes.size();
        for (int i = 0; i < o->iterations; ++i) {
            if (!o->vary.isEmpty())
                request->options.tweaks.insert(o->vary, QStringLiteral("%1 %2").arg(varied).arg(i + 1));
            const double cpuBefore = threadCpuMs();
            const auto r = render::render(*request, context);
            if (!r)
                break;
            cpu.push_back(threadCpuMs() - cpuBefore);
            parse.push_back(r->timings.parse);
            layout.push_back(r->timings.layout);
            paint.push_back(r->timings.paint);
            encode.push_back(r->timings.encode);
            total.push_back(r->timings.total());
            bytes = r->bytes.size();
        }
        auto stat = [](const std::vector<double> &v) {
            QJsonObject s;
            s.insert(QStringLiteral("median"), std::round(percentile(v, 0.5) * 1000) / 1000);
            s.insert(QStringLiteral("p95"), std::round(percentile(v, 0.95) * 1000) / 1000);
            return s;
        };
        QJsonObject line;
        line.insert(QStringLiteral("file"), QFileInfo(path).fileName());
        line.insert(QStringLiteral("engine"), request->options.engine ? engineName(*request->options.engine) : QString());
        line.insert(QStringLiteral("format"), contentTypeFor(request->options.format));
        line.insert(QStringLiteral("n"), int(total.size()));
        if (!o->vary.isEmpty())
            line.insert(QStringLiteral("vary"), o->vary);
        line.insert(QStringLiteral("parse"), stat(parse));
        line.insert(QStringLiteral("layout"), stat(layout));
        line.insert(QStringLiteral("paint"), stat(paint));
        line.insert(QStringLiteral("encode"), stat(encode));
        line.insert(QStringLiteral("total"), stat(total));
        line.insert(QStringLiteral("cpu"), stat(cpu));
        line.insert(QStringLiteral("bytes"), bytes);
        out << QJsonDocument(line).toJson(QJsonDocument::Compact) << '\n';
        out.flush();
    }
    return status;
}

} // namespace imprint::app
