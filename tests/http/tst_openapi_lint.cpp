// The OpenAPI document the real `imprint serve` serves at /api/v1/openapi.json, linted by
// Redocly CLI with its recommended rules (tests/http/redocly.yaml) and by Spectral with
// "spectral:oas" (tests/http/spectral.yaml): no errors and no warnings from either. The
// linters are installed by scripts/fetch-tools (scripts/test runs it); when one is missing
// this test fails, saying how to install it, instead of passing unchecked.
#include "httpclient.h"

#include <QDir>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

class TestOpenApiLint : public QObject
{
    Q_OBJECT

    /// GET /api/v1/openapi.json from a fresh `imprint serve` (status 0 when it did not start).
    static HttpReply servedDocument()
    {
        QTemporaryDir dir;
        ServerProcess server;
        if (!dir.isValid() || !server.start(dir.path())) {
            qWarning().noquote() << server.log();
            return {};
        }
        return httpRequest(server.port(), "GET", "/api/v1/openapi.json");
    }

private slots:
    /// One source (issue 30): the served document is the bytes of
    /// resources/openapi/openapi.json, whose version is the project's, so the repository's
    /// copy is what a generator reads from a server.
    void servedDocumentIsTheRepositoryFile()
    {
        QFile file(qEnvironmentVariable("IMPRINT_SOURCE_DIR") + QStringLiteral("/resources/openapi/openapi.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray repository = file.readAll();
        QJsonParseError error;
        const QJsonObject document = QJsonDocument::fromJson(repository, &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QCOMPARE(document.value(QStringLiteral("info")).toObject().value(QStringLiteral("version")).toString(),
                 QStringLiteral(IMPRINT_VERSION));

        const HttpReply r = servedDocument();
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Content-Type"), QByteArray("application/json"));
        QVERIFY2(r.body == repository, "the served document differs from resources/openapi/openapi.json: rebuild");
    }

    void servedDocumentPassesRecommendedRules()
    {
        const QString toolsDir = qEnvironmentVariableIsSet("IMPRINT_TOOLS_DIR")
                                     ? qEnvironmentVariable("IMPRINT_TOOLS_DIR")
                                     : QDir::homePath() + QStringLiteral("/.cache/imprint/tools");
        const QString redocly
            = toolsDir + QStringLiteral("/redocly-" IMPRINT_REDOCLY_VERSION "/node_modules/.bin/redocly");
        QVERIFY2(QFileInfo(redocly).isExecutable(),
                 qPrintable(redocly + QStringLiteral(" not found: run scripts/fetch-tools")));

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const HttpReply r = servedDocument();
        QCOMPARE(r.status, 200);
        QFile doc(dir.filePath(QStringLiteral("openapi.json")));
        QVERIFY(doc.open(QIODevice::WriteOnly));
        doc.write(r.body);
        doc.close();

        QProcess lint;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("REDOCLY_TELEMETRY"), QStringLiteral("off")); // no network calls from a test
        env.insert(QStringLiteral("REDOCLY_SUPPRESS_UPDATE_NOTICE"), QStringLiteral("true"));
        lint.setProcessEnvironment(env);
        lint.start(redocly,
                   {QStringLiteral("lint"), doc.fileName(), QStringLiteral("--format=json"), QStringLiteral("--config"),
                    qEnvironmentVariable("IMPRINT_SOURCE_DIR") + QStringLiteral("/tests/http/redocly.yaml")});
        QVERIFY(lint.waitForStarted(10000));
        QVERIFY(lint.waitForFinished(120000));
        const QByteArray out = lint.readAllStandardOutput();
        const QJsonObject report = QJsonDocument::fromJson(out).object();
        const QJsonObject totals = report.value(QStringLiteral("totals")).toObject();
        QVERIFY2(!totals.isEmpty(), (out + lint.readAllStandardError()).constData());
        // Every problem is printed, so a failure says which rule and where.
        for (const QJsonValue &p : report.value(QStringLiteral("problems")).toArray())
            qWarning().noquote() << p.toObject().value(QStringLiteral("ruleId")).toString()
                                 << p.toObject().value(QStringLiteral("message")).toString()
                                 << QJsonDocument(p.toObject().value(QStringLiteral("location")).toArray())
                                        .toJson(QJsonDocument::Compact);
        QCOMPARE(totals.value(QStringLiteral("errors")).toInt(-1), 0);
        QCOMPARE(totals.value(QStringLiteral("warnings")).toInt(-1), 0);
        QCOMPARE(lint.exitCode(), 0);

        // Spectral: its JSON report is the list of problems, of every severity.
        const QString spectral
            = toolsDir + QStringLiteral("/spectral-" IMPRINT_SPECTRAL_VERSION "/node_modules/.bin/spectral");
        QVERIFY2(QFileInfo(spectral).isExecutable(),
                 qPrintable(spectral + QStringLiteral(" not found: run scripts/fetch-tools")));
        // The report goes to a file: Spectral also prints a summary line on stdout.
        const QString reportPath = dir.filePath(QStringLiteral("spectral.json"));
        QProcess spectralLint;
        spectralLint.start(spectral,
                           {QStringLiteral("lint"), doc.fileName(), QStringLiteral("--format=json"),
                            QStringLiteral("--output"), reportPath, QStringLiteral("--fail-severity=hint"),
                            QStringLiteral("--ruleset"),
                            qEnvironmentVariable("IMPRINT_SOURCE_DIR") + QStringLiteral("/tests/http/spectral.yaml")});
        QVERIFY(spectralLint.waitForStarted(10000));
        QVERIFY(spectralLint.waitForFinished(120000));
        QFile spectralReport(reportPath);
        QVERIFY2(spectralReport.open(QIODevice::ReadOnly),
                 (spectralLint.readAllStandardOutput() + spectralLint.readAllStandardError()).constData());
        const QByteArray spectralOut = spectralReport.readAll();
        const QJsonDocument problems = QJsonDocument::fromJson(spectralOut);
        QVERIFY2(problems.isArray(), (spectralOut + spectralLint.readAllStandardError()).constData());
        for (const QJsonValue &p : problems.array())
            qWarning().noquote()
                << p.toObject().value(QStringLiteral("code")).toString()
                << p.toObject().value(QStringLiteral("message")).toString()
                << QJsonDocument(p.toObject().value(QStringLiteral("path")).toArray()).toJson(QJsonDocument::Compact);
        QCOMPARE(problems.array().size(), 0);
        QCOMPARE(spectralLint.exitCode(), 0);
    }
};

QTEST_GUILESS_MAIN(TestOpenApiLint)
#include "tst_openapi_lint.moc"
