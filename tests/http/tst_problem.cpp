// The error → HTTP mapping table: which status and problem+json body a client gets for
// each store and render error. The end-to-end suites hit some of these through real
// requests; this pins every row, including those that are hard to provoke over HTTP.

#include "server/http/problem.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace imprint;

namespace {
QJsonObject bodyOf(const http::HttpResponse &r)
{
    return QJsonDocument::fromJson(r.body).object();
}

/// A row of a code/status table, named by its wire code.
void addCodeRow(const char *code, int status)
{
    QTest::newRow(code) << QString::fromLatin1(code) << status;
}
} // namespace

class TestProblem : public QObject
{
    Q_OBJECT

private slots:
    // One code of each status a service answers with: the status comes from the code's
    // row of the problem table (server/common/problem_code.h).
    void serviceErrors()
    {
        QFETCH(int, code);
        QFETCH(int, status);
        const auto problemCode = common::ProblemCode(code);
        const QString name = common::problemCodeName(problemCode);
        const store::ServiceError e{problemCode, QStringLiteral("name"), QStringLiteral("Some message.")};
        const http::HttpResponse r = http::problemFor(e);
        QCOMPARE(r.status, status);
        QCOMPARE(r.header("content-type"), QByteArray("application/problem+json"));
        const QJsonObject body = bodyOf(r);
        QCOMPARE(body.value("status").toInt(), status);
        QCOMPARE(body.value("code").toString(), name);
        QCOMPARE(body.value("title").toString(), common::problemTitle(problemCode));
        QCOMPARE(body.value("detail").toString(), QStringLiteral("Some message."));
        QCOMPARE(body.value("success").toBool(true), false);
        // Bad input names its field; a fault of ours names none.
        QCOMPARE(body.value("field").toString(), status < 500 ? QStringLiteral("name") : QString());
    }

    void serviceErrors_data()
    {
        QTest::addColumn<int>("code");
        QTest::addColumn<int>("status");
        using Code = common::ProblemCode;
        QTest::newRow("invalid") << int(Code::InvalidName) << 400;
        QTest::newRow("unauthorized") << int(Code::InvalidCredentials) << 401;
        QTest::newRow("quota exceeded") << int(Code::AssetQuotaExceeded) << 402;
        QTest::newRow("forbidden") << int(Code::SignatureInvalid) << 403;
        QTest::newRow("not found") << int(Code::PageNotFound) << 404;
        QTest::newRow("conflict") << int(Code::TemplateInUse) << 409;
        QTest::newRow("too many attempts") << int(Code::TooManyLoginAttempts) << 429;
        QTest::newRow("database") << int(Code::DatabaseError) << 500;
        QTest::newRow("database unavailable") << int(Code::DatabaseUnavailable) << 503;
    }

    // Every row: its wire name parses back to it, its problem carries the row's status,
    // name and title, and no two rows share a wire name.
    void everyRowMapsToItsStatus()
    {
        QSet<QString> names;
        for (const common::ProblemRow &row : common::problemTable()) {
            const QString name = QString::fromLatin1(row.name);
            QVERIFY2(!names.contains(name), qPrintable(name));
            names.insert(name);
            QVERIFY(common::parseProblemCode(name) == row.code);
            const QJsonObject body = bodyOf(http::problemFor(store::ServiceError{row.code, {}, QStringLiteral("x")}));
            QCOMPARE(body.value("status").toInt(), row.status);
            QCOMPARE(body.value("code").toString(), name);
            QCOMPARE(body.value("type").toString(), QStringLiteral("urn:imprint:problem:") + name);
            QVERIFY2(body.value("title").toString() != QLatin1String("Unknown"), qPrintable(name));
            QCOMPARE(body.value("title").toString(), common::problemTitle(row.code));
        }
        QVERIFY(!common::parseProblemCode(QStringLiteral("no_such_code")));
    }

    // The refusals of a signed URL (SigningKeyService::verify()): 403, each with its own
    // code and problem type, so a CDN log tells a tampered URL from an expired one.
    void signedUrlErrors_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<int>("status");
        addCodeRow("signature_invalid", 403);
        addCodeRow("signature_expired", 403);
        addCodeRow("signing_key_not_found", 404);
    }

    void signedUrlErrors()
    {
        QFETCH(QString, code);
        QFETCH(int, status);
        const auto parsed = common::parseProblemCode(code);
        QVERIFY(parsed);
        const store::ServiceError e = status == 403 ? store::ServiceError::forbidden(*parsed, QStringLiteral("No."))
                                                    : store::ServiceError::notFound(*parsed, QStringLiteral("No."));
        const http::HttpResponse r = http::problemFor(e);
        QCOMPARE(r.status, status);
        const QJsonObject body = bodyOf(r);
        QCOMPARE(body.value("code").toString(), code);
        QCOMPARE(body.value("type").toString(), QStringLiteral("urn:imprint:problem:") + code);
        QCOMPARE(body.value("status").toInt(), status);
    }

    void retryAfterBecomesAHeader()
    {
        const auto e = store::ServiceError::tooManyAttempts(common::ProblemCode::TooManyLoginAttempts,
                                                            QStringLiteral("Wait."), 7);
        const http::HttpResponse r = http::problemFor(e);
        QCOMPARE(r.status, 429);
        QCOMPARE(r.header("retry-after"), QByteArray("7"));
        QVERIFY(http::problemFor(store::ServiceError::database()).header("retry-after").isEmpty());
    }

    void internalErrorCode()
    {
        const store::ServiceError e{common::ProblemCode::InternalError, {}, QStringLiteral("x")};
        QCOMPARE(bodyOf(http::problemFor(e)).value("code").toString(), QStringLiteral("internal_error"));
    }

    // docs/api.md's "Errors" table (status | codes) lists every problem code a client can
    // get; the OpenAPI document's Problem schema leaves `code` a free string and points there.
    // Both ways: every documented code is in the problem table or the render table with the
    // documented status, and every row of either table is documented.
    void documentedCodesMatchTheTables()
    {
        QFile doc(QStringLiteral(IMPRINT_SOURCE_DIR "/docs/api.md"));
        QVERIFY(doc.open(QIODevice::ReadOnly));
        QHash<QString, int> documented;
        static const QRegularExpression row(QStringLiteral("^\\| (\\d{3}) \\| (.*)\\|\\s*$"));
        static const QRegularExpression code(QStringLiteral("`([a-z][a-z_]*)`"));
        // Every table row of the document that starts with a status: the Errors table and
        // the per-feature ones (signed URLs), which must agree with it.
        for (const QString &line : QString::fromUtf8(doc.readAll()).split(QLatin1Char('\n'))) {
            const auto m = row.match(line);
            if (!m.hasMatch())
                continue;
            for (auto it = code.globalMatch(m.captured(2)); it.hasNext();) {
                const QString name = it.next().captured(1);
                if (name.contains(QLatin1Char('_')) || name == QLatin1String("forbidden"))
                    documented.insert(name, m.captured(1).toInt());
            }
        }
        QVERIFY(documented.size() > 50);
        QHash<QString, int> known;
        for (const common::ProblemRow &r : common::problemTable())
            known.insert(QString::fromLatin1(r.name), r.status);
        for (const auto &[value, text] : render::kRenderErrorCodeNames.entries) {
            const QString name = QString::fromLatin1(text);
            const int status = http::statusFor(value);
            // A code both tables hold (invalid_template, invalid_variable) means the same status.
            if (known.contains(name))
                QCOMPARE(known.value(name), status);
            known.insert(name, status);
        }
        for (auto it = documented.begin(); it != documented.end(); ++it) {
            QVERIFY2(known.contains(it.key()), qPrintable(it.key() + " is documented but in no table"));
            QVERIFY2(known.value(it.key()) == it.value(), qPrintable(it.key() + " has another status in docs/api.md"));
        }
        for (auto it = known.begin(); it != known.end(); ++it)
            QVERIFY2(documented.contains(it.key()),
                     qPrintable(it.key() + " is missing from docs/api.md's Errors table"));
    }

    void renderErrors_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<int>("status");
        for (const char *c : {"invalid_template", "invalid_variable", "unknown_variable", "value_too_long", "too_deep",
                              "too_many_nodes", "invalid_size", "invalid_engine", "invalid_emoji_type"})
            addCodeRow(c, 400);
        addCodeRow("render_budget_exceeded", 422);
        // Remote images (docs/remote-images.md): the request named the image, so 4xx, never 5xx.
        for (const char *c : {"image_unavailable", "image_refused", "image_too_large"})
            addCodeRow(c, 422);
        addCodeRow("encode_failed", 500);
        addCodeRow("render_cancelled", 503);
        addCodeRow("engine_busy", 503);
        addCodeRow("engine_starting", 503);
        addCodeRow("engine_unavailable", 501);
    }

    void renderErrors()
    {
        QFETCH(QString, code);
        QFETCH(int, status);
        // Every wire name round-trips through the enum table unchanged.
        const auto parsed = render::parseRenderErrorCode(code);
        QVERIFY(parsed);
        QCOMPARE(render::renderErrorCodeName(*parsed), code);

        const render::RenderError e{QStringLiteral("width"), QStringLiteral("too wide"), *parsed};
        const http::HttpResponse r = http::problemFor(e);
        QCOMPARE(r.status, status);
        const QJsonObject body = bodyOf(r);
        QCOMPARE(body.value("code").toString(), code);
        if (status < 500) {
            QCOMPARE(body.value("field").toString(), QStringLiteral("width"));
            QCOMPARE(body.value("detail").toString(), QStringLiteral("width: too wide"));
        } else if (status == 503) {
            QVERIFY(!body.contains("field")); // the server stopped it, not the input
            QCOMPARE(r.header("retry-after"), QByteArray("1"));
        } else if (status == 501) {
            QVERIFY(!body.contains("field")); // the server lacks the program, the input is fine
            QVERIFY(body.value("detail").toString().contains("too wide")); // says what to install
        } else {
            QVERIFY(!body.contains("field")); // an encoder failure is ours, not the input's
            QVERIFY(!body.value("detail").toString().contains("too wide"));
        }
    }

    void engineFieldIsTheRequestsRenderType()
    {
        const render::RenderError e{QStringLiteral("engine"), QStringLiteral("unknown engine 'x'"),
                                    render::RenderErrorCode::InvalidEngine};
        const QJsonObject body = bodyOf(http::problemFor(e));
        QCOMPARE(body.value("field").toString(), QStringLiteral("renderType"));
        QCOMPARE(body.value("detail").toString(), QStringLiteral("renderType: unknown engine 'x'"));
    }
};

QTEST_GUILESS_MAIN(TestProblem)
#include "tst_problem.moc"
