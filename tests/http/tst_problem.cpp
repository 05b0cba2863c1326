// The error → HTTP mapping table: which status and problem+json body a client gets for
// each store and render error. The end-to-end suites hit some of these through real
// requests; this pins every row, including those that are hard to provoke over HTTP.

#include "server/http/problem.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace imprint;

namespace {
QJsonObject bodyOf(const http::HttpResponse &r)
{
    return QJsonDocument::fromJson(r.body).object();
}
} // namespace

class TestProblem : public QObject
{
    Q_OBJECT

private slots:
    void serviceErrors_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("status");
        using Kind = store::ServiceError::Kind;
        QTest::newRow("invalid") << int(Kind::Invalid) << 400;
        QTest::newRow("unauthorized") << int(Kind::Unauthorized) << 401;
        QTest::newRow("forbidden") << int(Kind::Forbidden) << 403;
        QTest::newRow("not found") << int(Kind::NotFound) << 404;
        QTest::newRow("conflict") << int(Kind::Conflict) << 409;
        QTest::newRow("too many attempts") << int(Kind::TooManyAttempts) << 429;
        QTest::newRow("database") << int(Kind::Database) << 500;
        QTest::newRow("database unavailable") << int(Kind::Unavailable) << 503;
    }

    void serviceErrors()
    {
        QFETCH(int, kind);
        QFETCH(int, status);
        const store::ServiceError e{store::ServiceError::Kind(kind), QStringLiteral("some_code"),
                                    QStringLiteral("name"), QStringLiteral("Some message.")};
        const http::HttpResponse r = http::problemFor(e);
        QCOMPARE(r.status, status);
        QCOMPARE(r.header("content-type"), QByteArray("application/problem+json"));
        const QJsonObject body = bodyOf(r);
        QCOMPARE(body.value("status").toInt(), status);
        QCOMPARE(body.value("code").toString(), QStringLiteral("some_code"));
        QCOMPARE(body.value("detail").toString(), QStringLiteral("Some message."));
        QCOMPARE(body.value("success").toBool(true), false);
        // Bad input names its field; a fault of ours names none.
        QCOMPARE(body.value("field").toString(), status < 500 ? QStringLiteral("name") : QString());
    }

    // The refusals of a signed URL (SigningKeyService::verify()): 403, each with its own
    // code and problem type, so a CDN log tells a tampered URL from an expired one.
    void signedUrlErrors_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<int>("status");
        QTest::newRow("signature_invalid") << QStringLiteral("signature_invalid") << 403;
        QTest::newRow("signature_expired") << QStringLiteral("signature_expired") << 403;
        QTest::newRow("signing_key_not_found") << QStringLiteral("signing_key_not_found") << 404;
    }

    void signedUrlErrors()
    {
        QFETCH(QString, code);
        QFETCH(int, status);
        const store::ServiceError e = status == 403 ? store::ServiceError::forbidden(code, QStringLiteral("No."))
                                                    : store::ServiceError::notFound(code, QStringLiteral("No."));
        const http::HttpResponse r = http::problemFor(e);
        QCOMPARE(r.status, status);
        const QJsonObject body = bodyOf(r);
        QCOMPARE(body.value("code").toString(), code);
        QCOMPARE(body.value("type").toString(), QStringLiteral("urn:imprint:problem:") + code);
        QCOMPARE(body.value("status").toInt(), status);
    }

    void retryAfterBecomesAHeader()
    {
        const auto e = store::ServiceError::tooManyAttempts(QStringLiteral("too_many_login_attempts"),
                                                            QStringLiteral("Wait."), 7);
        const http::HttpResponse r = http::problemFor(e);
        QCOMPARE(r.status, 429);
        QCOMPARE(r.header("retry-after"), QByteArray("7"));
        QVERIFY(http::problemFor(store::ServiceError::database()).header("retry-after").isEmpty());
    }

    void databaseErrorWithoutCode()
    {
        const store::ServiceError e{store::ServiceError::Kind::Database, {}, {}, QStringLiteral("x")};
        QCOMPARE(bodyOf(http::problemFor(e)).value("code").toString(), QStringLiteral("internal_error"));
    }

    void renderErrors_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<int>("status");
        for (const char *c : {"invalid_template", "invalid_variable", "unknown_variable", "value_too_long", "too_deep",
                              "too_many_nodes", "invalid_size", "invalid_engine", "invalid_emoji_type"})
            QTest::newRow(c) << QString::fromLatin1(c) << 400;
        QTest::newRow("render_budget_exceeded") << QStringLiteral("render_budget_exceeded") << 422;
        // Remote images (docs/remote-images.md): the request named the image, so 4xx, never 5xx.
        for (const char *c : {"image_unavailable", "image_refused", "image_too_large"})
            QTest::newRow(c) << QString::fromLatin1(c) << 422;
        QTest::newRow("encode_failed") << QStringLiteral("encode_failed") << 500;
        QTest::newRow("render_cancelled") << QStringLiteral("render_cancelled") << 503;
        QTest::newRow("engine_busy") << QStringLiteral("engine_busy") << 503;
        QTest::newRow("engine_unavailable") << QStringLiteral("engine_unavailable") << 501;
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
