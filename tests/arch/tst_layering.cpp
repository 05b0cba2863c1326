// The layering of docs/architecture.md, held against every #include in the tree: a
// folder may include its own headers and those of the folders listed for it (less the
// few headers forbidden() keeps for the use cases), nothing else. A new dependency that points up the pipeline (layout including paint, the CLI
// including the HTTP layer) fails here with the file and line that adds it.

#include <QDirIterator>
#include <QFile>
#include <QHash>
#include <QRegularExpression>
#include <QTest>

namespace {

/// Folder (relative to the repository) → folders it may include from. Longest prefix
/// wins, so `server/render/layout` is matched before `server/render`.
const QHash<QString, QStringList> &allowed()
{
    static const QHash<QString, QStringList> table = [] {
        // The pipeline's error type and its engine names, used by every stage.
        const QString base = QStringLiteral("server/render/error.h");
        // A render's deadline and cancel, polled by the stages that can stop early.
        const QString cancel = QStringLiteral("server/render/cancellation.h");
        const QString engine = QStringLiteral("server/render/engine.h");
        // Every layer reports failures through the one generic result type.
        const QString expected = QStringLiteral("server/common/expected.h");
        QHash<QString, QStringList> t;
        t["server/common"] = {};
        t["server/render/css"] = {base, expected};
        t["server/render/style"] = {base, expected, "server/render/css"};
        t["server/render/encode"] = {base, expected};
        // The SVG sandbox ends its helper when the render is cancelled.
        t["server/render/resources"] = {base, expected, cancel};
        t["server/render/document"]
            = {base, expected, engine, "server/render/style", "server/render/css", "server/render/resources"};
        t["server/render/text"]
            = {base, expected, "server/render/document", "server/render/style", "server/render/css", "server/render/resources"};
        t["server/render/layout"]
            = {base, expected, "server/render/text", "server/render/document", "server/render/style", "server/render/css"};
        t["server/render/paint"] = {base,
                                    expected,
                                    cancel,
                                    "server/render/layout",
                                    "server/render/text",
                                    "server/render/document",
                                    "server/render/style",
                                    "server/render/css",
                                    "server/render/resources"};
        t["server/render/backends"] = {base,
                                       expected,
                                       cancel,
                                       "server/render/paint",
                                       "server/render/layout",
                                       "server/render/text",
                                       "server/render/document",
                                       "server/render/style",
                                       "server/render/css",
                                       "server/render/resources",
                                       "server/render/encode"};
        t["server/render"] = {"server/render", expected};
        t["server/patterns"] = {"server/render/encode"};
        t["server/store"] = {"server/common"};
        // Remote image fetching: the address policy and the fetcher, on the image decoder's
        // format sniffing and nothing above it.
        t["server/net"] = {"server/common", "server/render/resources", base};
        t["server/service"] = {"server/common", "server/store", "server/render", "server/patterns", "server/net"};
        t["server/http"]
            = {"server/common", "server/service", "server/store", "server/render", "server/patterns", "server/net"};
        // The composition root (serve, the console and local desktop mode) wires the HTTP
        // server; the CLI commands reach the store and the engine through the service
        // layer, never through the HTTP layer.
        t["server/app"] = {"server", "gui", "shared"};
        t["server/app/commands"]
            = {"server/common", "server/service", "server/store", "server/render", "server/patterns"};
        t["server/main.cpp"] = {"server"};
        // The sandboxed SVG rasteriser (its main and its librsvg drawing): the drawing code
        // and nothing else.
        t["server/svg_raster"] = {"server/render/resources", "server/common/expected.h", "server/common/fd_io.h"};
        t["gui"] = {"shared"};
        // The console's API client shares the server's generic result type and nothing
        // else: it reaches the server over HTTP, never through its code.
        t["shared"] = {"server/common/expected.h"};
        // The generic result type and enum name tables, and the render options' enums with
        // their one name table each (render_enums.h), which every stage of the pipeline,
        // the pattern renderer, and the console (which must list the same names as the
        // server) share, and the header-only text helpers for messages (a warning's "did you
        // mean"), and the API key scopes' table (key_scopes.h), which the console's create-key
        // dialog offers. Nothing else of server/common reaches below the service layer.
        const QStringList shared = {QStringLiteral("server/common/expected.h"),
                                    QStringLiteral("server/common/enum_names.h"),
                                    QStringLiteral("server/common/key_scopes.h"),
                                    QStringLiteral("server/common/text.h"),
                                    QStringLiteral("server/common/render_enums.h")};
        for (auto it = t.begin(); it != t.end(); ++it) {
            if (it.key().startsWith(QLatin1String("server/render")) || it.key() == QLatin1String("server/patterns")
                || it.key() == QLatin1String("gui") || it.key() == QLatin1String("shared"))
                it.value() += shared;
        }
        return t;
    }();
    return table;
}

/// Files a folder may not include although its table entry allows their folder: the SQL
/// (repositories and their helpers) is for the use cases, so a route or a CLI command that
/// needs data calls a service. Prefix of the including file → headers.
const QHash<QString, QStringList> &forbidden()
{
    static const QHash<QString, QStringList> table = [] {
        const QStringList sql = {QStringLiteral("server/store/repositories.h"), QStringLiteral("server/store/sql.h")};
        QHash<QString, QStringList> t;
        t["server/http"] = sql;
        t["server/app"] = sql;
        return t;
    }();
    return table;
}

QString layerOf(const QString &path)
{
    QString best;
    for (auto it = allowed().begin(); it != allowed().end(); ++it) {
        const QString &layer = it.key();
        if ((path == layer || path.startsWith(layer + '/')) && layer.size() > best.size())
            best = layer;
    }
    return best;
}

/// Whether a file at `file` may include `target` (same layer, or a layer listed for it, and
/// not forbidden()).
bool mayInclude(const QString &file, const QString &target)
{
    for (auto it = forbidden().begin(); it != forbidden().end(); ++it)
        if (file.startsWith(it.key() + '/') && it.value().contains(target))
            return false;
    const QString layer = layerOf(file);
    if (layerOf(target) == layer)
        return true;
    for (const QString &a : allowed().value(layer))
        if (target == a || target.startsWith(a + '/'))
            return true;
    return false;
}

} // namespace

class TestLayering : public QObject
{
    Q_OBJECT

private slots:
    void includesPointDown()
    {
        const QString root = QStringLiteral(IMPRINT_SOURCE_DIR);
        static const QRegularExpression include(QStringLiteral("^\\s*#\\s*include\\s+\"([^\"]+)\""));
        QStringList violations;
        int files = 0;
        for (const QString &top : {QStringLiteral("server"), QStringLiteral("gui"), QStringLiteral("shared")}) {
            QDirIterator it(root + '/' + top, {"*.h", "*.cpp"}, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString file = it.next();
                const QString rel = file.mid(root.size() + 1);
                const QString layer = layerOf(rel);
                QVERIFY2(!layer.isEmpty(), qPrintable(rel + " is in no layer of tst_layering's table"));
                ++files;
                QFile f(file);
                QVERIFY(f.open(QIODevice::ReadOnly));
                int lineNo = 0;
                while (!f.atEnd()) {
                    const QString line = QString::fromUtf8(f.readLine());
                    ++lineNo;
                    const auto m = include.match(line);
                    if (!m.hasMatch())
                        continue;
                    const QString target = m.captured(1);
                    if (!target.contains('/'))
                        continue; // generated files (moc, ui) and same-folder includes
                    const bool ok = mayInclude(rel, target);
                    if (!ok)
                        violations << QStringLiteral("%1:%2 (%3) includes %4").arg(rel).arg(lineNo).arg(layer, target);
                }
            }
        }
        QVERIFY(files > 50);
        QVERIFY2(violations.isEmpty(), qPrintable(violations.join('\n')));
    }

    // The table itself: a CLI command that reached into the HTTP layer (as the key and
    // content commands once did for keyJson and the validators) must be refused, while
    // the composition root that starts the server may.
    void cliCommandsStayOffHttp()
    {
        QVERIFY(!mayInclude(QStringLiteral("server/app/commands/admin.cpp"),
                            QStringLiteral("server/http/routes/keys.h")));
        QVERIFY(!mayInclude(QStringLiteral("server/app/commands/cli_content.cpp"),
                            QStringLiteral("server/http/routes/render.h")));
        QVERIFY(
            mayInclude(QStringLiteral("server/app/commands/cli_content.cpp"), QStringLiteral("server/service/json.h")));
        QVERIFY(mayInclude(QStringLiteral("server/app/serve.cpp"), QStringLiteral("server/http/server.h")));
        QVERIFY(!mayInclude(QStringLiteral("server/service/json.cpp"), QStringLiteral("server/http/message.h")));
    }

    // The use cases sit between the transports and the store: a service may use the
    // store's repositories, the store may not call back into a use case, and every
    // front end (routes, CLI, the composition root) reaches the use cases.
    void servicesSitAboveTheStore()
    {
        QVERIFY(mayInclude(QStringLiteral("server/service/content_service.cpp"),
                           QStringLiteral("server/store/repositories.h")));
        QVERIFY(!mayInclude(QStringLiteral("server/store/content.cpp"),
                            QStringLiteral("server/service/content_service.h")));
        QVERIFY(!mayInclude(QStringLiteral("server/store/database.cpp"),
                            QStringLiteral("server/service/account_service.h")));
        QVERIFY(mayInclude(QStringLiteral("server/http/routes/keys.cpp"),
                           QStringLiteral("server/service/api_key_service.h")));
        QVERIFY(mayInclude(QStringLiteral("server/app/commands/admin.cpp"),
                           QStringLiteral("server/service/account_service.h")));
        QVERIFY(mayInclude(QStringLiteral("server/app/serve.cpp"), QStringLiteral("server/service/content_service.h")));
        // Records and config yes, SQL no: data reaches a transport through a use case.
        QVERIFY(mayInclude(QStringLiteral("server/http/routes/content.cpp"), QStringLiteral("server/store/models.h")));
        QVERIFY(!mayInclude(QStringLiteral("server/http/routes/content.cpp"),
                            QStringLiteral("server/store/repositories.h")));
        QVERIFY(!mayInclude(QStringLiteral("server/app/commands/admin.cpp"),
                            QStringLiteral("server/store/repositories.h")));
        QVERIFY(!mayInclude(QStringLiteral("server/app/serve.cpp"), QStringLiteral("server/store/sql.h")));
        QVERIFY(mayInclude(QStringLiteral("server/service/page_render_service.cpp"),
                           QStringLiteral("server/store/repositories.h")));
    }
};

QTEST_GUILESS_MAIN(TestLayering)
#include "tst_layering.moc"
