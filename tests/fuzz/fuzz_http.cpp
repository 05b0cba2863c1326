// libFuzzer harness: the HTTP request path, in process and without sockets. An input is
// the raw byte stream a client sends on one connection (pipelined requests allowed). It
// runs through what is ours in server/http:
//  - RequestFraming, as the Listener runs it: header block size (431), Content-Length
//    syntax (400) and limits (413, the upload routes' own), bodies longer than announced;
//    fed once whole and once in small chunks, which must give the same verdict;
//  - toHttpRequest() + dispatch(): path decoding, `%2F` in a segment, CORS preflight, the
//    route table of the real server (app::Services) with 404 / 405 + Allow and HEAD;
//  - the matched handler itself, on a SQLite database in a temporary directory: query
//    parameters, JSON bodies, authentication, the content routes, renders (offloaded work
//    runs on a non-listening HttpServer's pools, as in the server).
// Every answer must be a status the API documents: no 500, and every error is
// problem+json whose `status` is the response's status. The literal `@KEY@` in an input
// becomes a valid API key (scopes render + content), `@TEMPLATE@` and `@PAGE@` the ids of
// a template and a page of its space, so inputs can reach authenticated routes.
//
// What is not ours is not here: Qt's HTTP/1.1 parser (QAbstractHttpServer, private in Qt
// 6.4) turns the stream into requests in the server. The harness cuts the stream into
// requests the simplest way (request line, header lines, Content-Length body) only to get
// method, target, headers and body to dispatch; the socket-level behaviour around the
// parser is tested end to end by tests/http (tst_http_limits).
#include "server/app/service.h"
#include "server/http/dispatch.h"
#include "server/http/json.h"
#include "server/http/request_framing.h"
#include "server/http/server.h"
#include "server/patterns/patterns.h"
#include "server/render/render_context.h"
#include "server/service/account_service.h"
#include "server/service/api_key_service.h"
#include "server/service/content_validation.h"
#include "server/store/crypto.h"
#include "server/store/database.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QScopeGuard>
#include <QTemporaryDir>

#include <cstdio>
#include <cstdlib>
#include <memory>

using namespace imprint;

namespace {

// Small limits, so short inputs reach them.
constexpr qint64 kMaxHeaderBytes = 2048;
constexpr qint64 kMaxBodyBytes = 8192;
constexpr qint64 kMaxUploadBytes = 16384;

struct World {
    QTemporaryDir dir;
    std::unique_ptr<store::Database> db;
    std::unique_ptr<render::RenderContext> renderContext;
    std::unique_ptr<app::Services> services;
    std::unique_ptr<http::HttpServer> server; // never listens: its router and pools
    http::CorsPolicy cors{{QStringLiteral("https://app.example")}, 600};
    QByteArray key, templateId, pageId;
};

World *world = nullptr;
bool g_inInput = false; // LLVMFuzzerTestOneInput() is running

[[noreturn]] void fail(const char *what, const QByteArray &detail)
{
    std::fprintf(stderr, "fuzz_http: %s: %s\n", what, detail.left(2000).constData());
    std::abort();
}

void required(bool ok, const char *what)
{
    if (!ok)
        fail("setup failed", what);
}

void setUp(int *argc, char ***argv)
{
    setenv("QT_QPA_PLATFORM", "offscreen", 1);
    setenv("IMPRINT_ARGON2_LIMITS", "min", 1);
    static QGuiApplication app(*argc, *argv);
    world = new World; // lives until exit, as a server's state does
    required(world->dir.isValid() && store::initCrypto(), "temporary directory / crypto");
    store::DatabaseSettings settings;
    settings.driver = QStringLiteral("QSQLITE");
    settings.sqlitePath = world->dir.filePath(QStringLiteral("imprint.db"));
    world->db = std::make_unique<store::Database>(settings);
    required(world->db->migrate().has_value(), "migrate");
    const store::Config config = store::Config::defaults();
    service::AccountService accounts(*world->db, config);
    const auto space = accounts.createSpace(QStringLiteral("fuzz"), QStringLiteral("free"), QStringLiteral("fuzz"));
    if (!space)
        fail("setup failed: space", space.error().message.toUtf8());
    service::ApiKeyService keys(*world->db);
    const auto key
        = keys.create(space->id, QStringLiteral("fuzz"), 0, {}, {QStringLiteral("render"), QStringLiteral("content")});
    if (!key)
        fail("setup failed: key", key.error().message.toUtf8());
    world->key = key->token.toUtf8();
    service::ContentService content = service::contentService(*world->db);
    const QJsonObject document = QJsonDocument::fromJson(R"({"name": "Card", "width": 200, "height": 100,
      "rendererType": "takumi", "variables": [{"name": "bg", "type": "color", "default": "#336699"}],
      "root": {"type": "div", "props": {"style": {"display": "flex", "width": "100%", "height": "100%",
               "backgroundColor": "{{bg}}"}}}})")
                                     .object();
    const auto tmpl = content.createTemplate(space->id, document, QStringLiteral("fuzz"));
    if (!tmpl)
        fail("setup failed: template", tmpl.error().message.toUtf8());
    world->templateId = tmpl->id.toUtf8();
    const auto page = content.createPage(space->id, tmpl->id, QStringLiteral("Card"), {{"bg", "#00ff00"}},
                                         QStringLiteral("fuzz"), true);
    if (!page)
        fail("setup failed: page", page.error().message.toUtf8());
    world->pageId = page->id.toUtf8();

    auto catalog = render::PatternCatalog::load(QStringLiteral(IMPRINT_SOURCE_DIR "/resources/patterns"));
    required(bool(catalog), "pattern catalog");
    world->renderContext = std::make_unique<render::RenderContext>();
    world->services = std::make_unique<app::Services>(*world->db, config, world->dir.path(), std::move(*catalog),
                                                      *world->renderContext);
    http::ServerLimits limits;
    limits.workerThreads = 2;
    world->server = std::make_unique<http::HttpServer>(limits);
    world->server->setCorsPolicy(world->cors);
    world->services->setRequestMetrics(&world->server->requestMetrics());
    world->services->registerRoutes(world->server->router());
    // libFuzzer ends a clean run with exit(0) while the world's pool threads still hold
    // database connections; tearing Qt down under them crashes in static destruction (no
    // order of ours fixes that: Qt's plugin and QtSql statics go first). So a clean end
    // leaves at once. A failure never gets here: crashes, timeouts and fail() end the
    // process through abort() or _Exit() with their own code, and exit() during an input
    // stays an error, as libFuzzer's own handler would report it.
    std::atexit([] { std::_Exit(g_inInput ? 1 : 0); });
}

/// An answer must be one the API documents: never 500, errors as RFC 9457 problem+json.
void checkAnswer(const http::HttpResponse &r, bool headOnly, const QByteArray &request)
{
    // FUZZ_HTTP_TRACE=1: each answer on stderr, to see which routes a corpus reaches.
    static const bool trace = qEnvironmentVariableIsSet("FUZZ_HTTP_TRACE");
    if (trace)
        std::fprintf(stderr, "fuzz_http: %d %s %s\n", r.status, request.left(200).constData(),
                     r.body.left(300).constData());
    if (r.status < 200 || r.status > 599 || r.status == 500 || r.status == 501 || r.status == 502)
        fail("unexpected status", QByteArray::number(r.status) + " for " + request + "\n" + r.body);
    if (r.status < 400 || headOnly)
        return;
    if (r.header("content-type") != "application/problem+json")
        fail("error without problem+json", QByteArray::number(r.status) + " for " + request);
    const QJsonObject p = QJsonDocument::fromJson(r.body).object();
    if (p.value("status").toInt() != r.status || p.value("code").toString().isEmpty()
        || p.value("title").toString().isEmpty() || p.value("success").toBool(true))
        fail("malformed problem", QByteArray::number(r.status) + " " + r.body);
}

/// The framing verdict (0 = none) of `stream` fed `chunk` bytes at a time.
int framingVerdict(const QByteArray &stream, qsizetype chunk, qint64 *headerBytes)
{
    http::RequestFraming framing(kMaxHeaderBytes, kMaxBodyBytes, kMaxUploadBytes);
    for (qsizetype at = 0; at < stream.size(); at += chunk) {
        const QByteArrayView piece = QByteArrayView(stream).sliced(at, std::min(chunk, stream.size() - at));
        const qint64 room = framing.headRoom();
        if (auto refusal = framing.feed(piece.size(), piece.first(std::min<qint64>(room, piece.size())))) {
            checkAnswer(*refusal, false, "(framing)");
            // The raw answer must say what it is.
            if (!http::rawResponse(*refusal).startsWith("HTTP/1.1 " + QByteArray::number(refusal->status) + ' '))
                fail("raw response", http::rawResponse(*refusal));
            return refusal->status;
        }
    }
    *headerBytes = framing.headerBytes();
    return 0;
}

/// Runs one request through dispatch() and its handler and checks the answer.
void handle(const QByteArray &method, const QByteArray &target, const http::HeaderList &headers, const QByteArray &body)
{
    QUrl url = QUrl::fromEncoded(target);
    if (!url.isValid())
        return; // Qt's parser refuses it before any code of ours
    url.setScheme(QStringLiteral("http"));
    url.setHost(QStringLiteral("localhost"));
    http::HttpRequest req = http::toHttpRequest(method, url, headers, body, QHostAddress::LocalHost);
    // The input helpers every JSON route uses, whatever route this is.
    (void)http::jsonObjectBody(req, true);
    (void)http::queryInt(req, QStringLiteral("perPage"), 20, 1, 100);

    const QByteArray what = method + ' ' + target;
    const http::Dispatch d = http::dispatch(req, url.path(QUrl::FullyEncoded), world->server->router(), world->cors);
    if (d.answer) {
        checkAnswer(*d.answer, d.headOnly, what);
        return;
    }
    if (!d.handler)
        fail("no answer and no handler", what);
    std::optional<http::HttpResponse> answer;
    {
        http::Responder responder([&answer](const http::HttpResponse &r) { answer = r; }, world->server.get());
        if (d.headOnly)
            responder.setHeadOnly();
        responder.addHeaders(d.extraHeaders);
        (*d.handler)(std::move(req), std::move(responder));
    }
    // Offloaded work answers on this thread once the worker is done.
    QElapsedTimer clock;
    clock.start();
    while (!answer) {
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 50);
        if (clock.elapsed() > 30000)
            fail("no answer within 30 s", what);
    }
    checkAnswer(*answer, d.headOnly, what);
}

QByteArray substitute(QByteArray input)
{
    input.replace("@KEY@", world->key);
    input.replace("@TEMPLATE@", world->templateId);
    input.replace("@PAGE@", world->pageId);
    return input;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    setUp(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_inInput = true;
    const auto done = qScopeGuard([] { g_inInput = false; });
    QByteArray stream = substitute(QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)));
    // Up to 4 pipelined requests, each framed and dispatched as the server would.
    for (int n = 0; n < 4 && !stream.isEmpty(); ++n) {
        qint64 headerBytes = -1;
        const int whole = framingVerdict(stream, stream.size(), &headerBytes);
        // How the bytes arrive must not change the verdict (small inputs: bytewise too).
        qint64 chunkedHeaderBytes = -1;
        const int chunked = framingVerdict(stream, stream.size() <= 4096 ? 1 : 7, &chunkedHeaderBytes);
        if (whole != chunked || headerBytes != chunkedHeaderBytes)
            fail("framing depends on chunking", QByteArray::number(whole) + " vs " + QByteArray::number(chunked));
        if (whole != 0 || headerBytes < 0)
            return 0; // refused (the connection closes) or incomplete (it waits)

        // The request line and header lines of the head, the body per Content-Length.
        const QList<QByteArray> lines = stream.left(headerBytes - 4).split('\n');
        const QList<QByteArray> requestLine = lines.first().trimmed().split(' ');
        if (requestLine.size() != 3 || !requestLine.at(2).startsWith("HTTP/1."))
            return 0;
        static const QByteArrayList methods{"GET", "PUT", "DELETE", "POST", "HEAD", "OPTIONS", "PATCH"};
        if (!methods.contains(requestLine.at(0)))
            return 0;
        http::HeaderList headers;
        qint64 length = 0;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const qsizetype colon = lines.at(i).indexOf(':');
            if (colon <= 0)
                return 0;
            const QByteArray name = lines.at(i).left(colon).trimmed();
            const QByteArray value = lines.at(i).mid(colon + 1).trimmed();
            if (name.compare("content-length", Qt::CaseInsensitive) == 0)
                length = value.toLongLong(); // framing checked it is 1*DIGIT within the limit
            headers.append({name, value});
        }
        if (stream.size() - headerBytes < length)
            return 0; // the body has not all arrived
        handle(requestLine.at(0), requestLine.at(1), headers, stream.mid(headerBytes, length));
        stream = stream.mid(headerBytes + length);
    }
    return 0;
}
