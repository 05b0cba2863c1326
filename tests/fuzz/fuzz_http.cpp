// libFuzzer harness: the HTTP request path, in process and without sockets. An input is
// the raw byte stream a client sends on one connection (pipelined requests allowed). It
// runs through server/http as the Listener runs it (Listener::readRequests()):
//  - RequestParser (http-parser) reads up to the end of each request, and RequestFraming
//    checks that request's bytes before it is answered: header block size (431),
//    Content-Length syntax (400) and limits (413, the upload routes' own), bodies longer
//    than announced, smuggling; the parser's own refusals (request line, method, version,
//    target, chunk sizes, Upgrade, CONNECT). The stream is read once whole and once in
//    small pieces, which must yield the same requests and refuse alike;
//  - toHttpRequest() + dispatch(): path decoding, `%2F` in a segment, CORS preflight, the
//    route table of the real server (app::Services) with 404 / 405 + Allow and HEAD;
//  - the matched handler itself, on a SQLite database in a temporary directory: query
//    parameters, JSON bodies, authentication, the content routes, renders (offloaded work
//    runs on a non-listening HttpServer's pools, as in the server).
// Every answer must be a status the API documents: no 500, and every error is
// problem+json whose `status` is the response's status. The literal `@KEY@` in an input
// becomes a valid API key (scopes render + content), `@TEMPLATE@` and `@PAGE@` the ids of
// a template and a page of its space, so inputs can reach authenticated routes.
// The socket around it (timeouts, answers in order, closing) is tested end to end by
// tests/http (tst_http_wire, tst_http_limits).
#include "server/app/service.h"
#include "server/http/dispatch.h"
#include "server/http/json.h"
#include "server/http/request_framing.h"
#include "server/http/request_parser.h"
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

/// What a connection's bytes came to: the requests to answer, in order, and the refusal
/// that ended them (0: none).
struct Reading {
    QList<http::ParsedRequest> requests;
    int refusal = 0;
};

/// Reads `stream` `chunk` bytes at a time as Listener::readRequests() does: the parser up
/// to the end of a request, the framing checks on its bytes, at most 4 requests, none
/// after one that closes the connection.
Reading readStream(const QByteArray &stream, qsizetype chunk)
{
    http::RequestParser parser;
    http::RequestFraming framing(kMaxHeaderBytes, kMaxBodyBytes, kMaxUploadBytes);
    Reading reading;
    const auto refuse = [&reading](const http::HttpResponse &refusal) {
        checkAnswer(refusal, false, "(framing)");
        // The raw answer must say what it is.
        if (!http::rawResponse(refusal).startsWith("HTTP/1.1 " + QByteArray::number(refusal.status) + ' '))
            fail("raw response", http::rawResponse(refusal));
        reading.refusal = refusal.status;
        return reading;
    };
    for (qsizetype at = 0; at < stream.size(); at += chunk) {
        QByteArrayView rest = QByteArrayView(stream).sliced(at, std::min(chunk, stream.size() - at));
        while (!rest.isEmpty()) {
            const http::RequestParser::Step step = parser.parse(rest);
            const QByteArrayView read = step.refusal ? rest : rest.first(step.consumed);
            if (auto refusal = framing.feed(read.size(), read.first(std::min<qint64>(framing.headRoom(), read.size()))))
                return refuse(*refusal);
            if (step.refusal)
                return refuse(*step.refusal);
            if (!step.complete && step.consumed != rest.size())
                fail("parser stopped inside a request", stream);
            rest = rest.sliced(step.consumed);
            if (!step.complete)
                continue;
            reading.requests.append(parser.take());
            framing.reset();
            if (!reading.requests.last().keepAlive || reading.requests.size() == 4)
                return reading;
        }
    }
    return reading;
}

bool sameRequest(const http::ParsedRequest &a, const http::ParsedRequest &b)
{
    return a.method == b.method && a.target == b.target && a.headers == b.headers && a.body == b.body
           && a.keepAlive == b.keepAlive;
}

/// Runs one request through dispatch() and its handler and checks the answer.
void handle(const QByteArray &method, const QByteArray &target, const http::HeaderList &headers, const QByteArray &body)
{
    const http::RequestTarget read = http::readTarget(target);
    if (!read.valid)
        return; // HttpServer::serve() answers it 400 (field target) before routing
    http::HttpRequest req = http::toHttpRequest(method, read, headers, body, QHostAddress::LocalHost);
    // The input helpers every JSON route uses, whatever route this is.
    (void)http::jsonObjectBody(req, true);
    (void)http::queryInt(req, QStringLiteral("perPage"), 20, 1, 100);

    const QByteArray what = method + ' ' + target;
    const http::Dispatch d = http::dispatch(req, read.encodedPath, world->server->router(), world->cors);
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
    const QByteArray stream = substitute(QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)));
    const Reading whole = readStream(stream, stream.size());
    // How the bytes arrive must not change the requests read, nor whether the connection
    // is refused (small inputs: bytewise too). Which refusal may differ: after a parse
    // error the framing checks see the rest of that read, which a later rule of theirs
    // may break.
    const Reading pieces = readStream(stream, stream.size() <= 4096 ? 1 : 7);
    if (whole.requests.size() != pieces.requests.size() || (whole.refusal != 0) != (pieces.refusal != 0))
        fail("reading depends on chunking",
             QByteArray::number(whole.requests.size()) + " requests, refused " + QByteArray::number(whole.refusal)
                 + " vs " + QByteArray::number(pieces.requests.size()) + ", " + QByteArray::number(pieces.refusal));
    for (qsizetype i = 0; i < whole.requests.size(); ++i)
        if (!sameRequest(whole.requests.at(i), pieces.requests.at(i)))
            fail("request depends on chunking", whole.requests.at(i).target);
    for (const http::ParsedRequest &request : whole.requests)
        handle(request.method, request.target, request.headers, request.body);
    return 0;
}
