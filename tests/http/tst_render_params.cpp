// How a render request becomes RenderParams (server/http/routes/render_params.h), without a
// server: that the memo of body-less GETs answers exactly what a fresh parse would, that a
// token, an Accept header or a changed field are never answered from another request's
// entry, and that the memo stays bounded and remembers no token.
#include "server/http/dispatch.h"
#include "server/http/routes/render_params.h"

#include <QTest>

using namespace imprint::http;

namespace {

HttpRequest getRequest(const QByteArray &target, const HeaderList &headers = {}, const QByteArray &body = {})
{
    return toHttpRequest("GET", readTarget(target), headers, body, QHostAddress::LocalHost);
}

const QByteArray kToken = "imp_" + QByteArray(40, 'a');
const QByteArray kOtherToken = "imp_" + QByteArray(40, 'b');

} // namespace

class TestRenderParams : public QObject
{
    Q_OBJECT

private slots:
    void memoAnswersWhatAParseWould()
    {
        RenderParamsMemo memo;
        const QByteArray target = "/api/v1/render?pattern=waves-sunset&width=640&height=360&format=webp&quality=70";
        const auto fresh = parseRenderParams(getRequest(target));
        QVERIFY(fresh);
        const auto first = memo.params(getRequest(target));
        const auto again = memo.params(getRequest(target));
        QVERIFY(first && again);
        QCOMPARE(again->get(), first->get()); // the second answer is the entry
        for (const auto *p : {first->get(), again->get()}) {
            QCOMPARE(p->isPattern, fresh->isPattern);
            QCOMPARE(p->patternText, fresh->patternText);
            QCOMPARE(p->options.width, 640);
            QCOMPARE(p->options.height, 360);
            QCOMPARE(p->options.quality, 70);
            QCOMPARE(p->options.format, fresh->options.format);
            QCOMPARE(p->fields, fresh->fields);
        }
        QCOMPARE(memo.size(), 1);
    }

    void aChangedFieldIsParsedAgain()
    {
        RenderParamsMemo memo;
        const auto a = memo.params(getRequest("/api/v1/render?pattern=waves-sunset&width=640"));
        const auto b = memo.params(getRequest("/api/v1/render?pattern=waves-sunset&width=641"));
        const auto c = memo.params(getRequest("/api/v1/render?width=640&pattern=waves-sunset&width=642"));
        QVERIFY(a && b && c);
        QCOMPARE((*a)->options.width, 640);
        QCOMPARE((*b)->options.width, 641);
        QCOMPARE((*c)->options.width, 642); // the last of repeated fields wins, as in a parse
        QCOMPARE(memo.size(), 3);
    }

    void everyQueryGetsItsOwnParsesAnswer()
    {
        // Queries that differ only in spelling a parse may read differently: each answered
        // as a fresh parse answers it, whichever of them came first.
        const QList<QByteArray> queries{"pattern=waves-sunset&width=640", "pattern=waves-sunset&&width=640",
                                        "pattern=waves-sunset&width=640&", "&pattern=waves-sunset&width=640",
                                        "pattern=waves-sunset&width=640&=", "pattern=waves-sunset&width"};
        RenderParamsMemo memo;
        for (int round = 0; round < 2; ++round) {
            for (const QByteArray &query : queries) {
                const HttpRequest request = getRequest("/api/v1/render?" + query);
                const auto fresh = parseRenderParams(request);
                const auto remembered = memo.params(request);
                QCOMPARE(bool(remembered), bool(fresh));
                if (fresh)
                    QCOMPARE((*remembered)->options.width, fresh->options.width);
                else
                    QCOMPARE(remembered.error().body, fresh.error().body);
            }
        }
    }

    void theTokenIsLeftOutOfTheKey()
    {
        RenderParamsMemo memo;
        const auto a = memo.params(getRequest("/api/v1/render?pattern=waves-sunset&api_token=" + kToken));
        const auto b = memo.params(getRequest("/api/v1/render?api_token=" + kOtherToken + "&pattern=waves-sunset"));
        const auto c = memo.params(getRequest("/api/v1/render?pattern=waves-sunset"));
        QVERIFY(a && b && c);
        // The token is not a render field: every request asks for the same render, and the
        // caller authenticates each request's own token (tst_render_api, tokens()).
        QCOMPARE(b->get(), a->get());
        QCOMPARE(c->get(), a->get());
        QVERIFY(!(*a)->fields.contains(QStringLiteral("api_token")));
        QCOMPARE(memo.size(), 1);
    }

    void acceptJsonIsPartOfTheKey()
    {
        RenderParamsMemo memo;
        const QByteArray target = "/api/v1/render?pattern=waves-sunset";
        const auto image = memo.params(getRequest(target));
        const auto json = memo.params(getRequest(target, {{"accept", "application/json"}}));
        QVERIFY(image && json);
        QVERIFY(!(*image)->acceptJson);
        QVERIFY((*json)->acceptJson);
        QCOMPARE(memo.size(), 2);
    }

    void bodiesEncodedNamesAndRefusalsAreNotRemembered()
    {
        RenderParamsMemo memo;
        // A body is merged with the query: the query alone does not say what it parses to.
        const auto withBody = memo.params(getRequest("/api/v1/render?width=300", {}, R"({"pattern":"waves-sunset"})"));
        QVERIFY(withBody);
        QCOMPARE((*withBody)->options.width, 300);
        QCOMPARE(memo.size(), 0);
        // A name spelt with percent-encoded unreserved characters is the same name (the URL
        // is normalised first): api_token stays out of the key however it is written.
        const auto plain = memo.params(getRequest("/api/v1/render?pattern=waves-sunset"));
        for (const QByteArray name : {"api%5Ftoken", "%61pi_token", "api%5ftoke%6E"}) {
            const auto encoded = memo.params(getRequest("/api/v1/render?pattern=waves-sunset&" + name + "=" + kToken));
            QVERIFY(encoded);
            QVERIFY(!(*encoded)->fields.contains(QStringLiteral("api_token")));
            QCOMPARE(encoded->get(), plain->get());
        }
        QCOMPARE(memo.size(), 1);
        // A name that stays encoded (a reserved character) is parsed each time, not kept.
        for (int i = 0; i < 2; ++i) {
            const auto reserved = memo.params(getRequest("/api/v1/render?pageId=pg_1&tweaks%5Btitle%5D=Hi"));
            QVERIFY(reserved);
            QCOMPARE((*reserved)->options.tweaks.value(QStringLiteral("title")).toString(), QStringLiteral("Hi"));
        }
        QCOMPARE(memo.size(), 1);
        // A request without a query string has nothing to key on: parsed, not kept.
        const auto noQuery = memo.params(getRequest("/api/v1/render"));
        QVERIFY(!noQuery);
        QCOMPARE(noQuery.error().status, 400);
        QCOMPARE(memo.size(), 1);
        // A long query (tweaks of kilobytes) is parsed each time, not kept: the memo's
        // memory stays small whatever a client sends.
        const QByteArray longTitle(RenderParamsMemo::kMaxQueryChars, 'x');
        for (int i = 0; i < 2; ++i) {
            const auto longOne = memo.params(getRequest("/api/v1/render?pageId=pg_1&tweaks.title=" + longTitle));
            QVERIFY(longOne);
            QCOMPARE((*longOne)->options.tweaks.value(QStringLiteral("title")).toString().size(),
                     RenderParamsMemo::kMaxQueryChars);
        }
        QCOMPARE(memo.size(), 1);
        // A refusal is answered each time, naming its field.
        for (int i = 0; i < 2; ++i) {
            const auto refused = memo.params(getRequest("/api/v1/render?pattern=waves-sunset&width=wide"));
            QVERIFY(!refused);
            QCOMPARE(refused.error().status, 400);
            QVERIFY(refused.error().body.contains("width"));
        }
        QCOMPARE(memo.size(), 1);
    }

    void entriesAreBounded()
    {
        RenderParamsMemo memo;
        for (int i = 0; i < RenderParamsMemo::kMaxEntries + 40; ++i) {
            const auto p = memo.params(getRequest("/api/v1/render?pattern=waves-sunset&width=" + QByteArray::number(100 + i)));
            QVERIFY(p);
            QCOMPARE((*p)->options.width, 100 + i);
            QVERIFY(memo.size() <= RenderParamsMemo::kMaxEntries);
        }
        QVERIFY(memo.size() > 0);
    }
};

QTEST_GUILESS_MAIN(TestRenderParams)
#include "tst_render_params.moc"
