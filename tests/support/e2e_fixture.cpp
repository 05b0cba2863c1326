// The end-to-end world (e2e_fixture.h): every step through the CLI or the HTTP API, as an
// operator or a client would.
#include "e2e_fixture.h"

#include <QElapsedTimer>
#include <QTest>

bool E2eFixture::fail(const QByteArray &what)
{
    m_failure = what;
    return false;
}

bool E2eFixture::setUp(const E2eOptions &options)
{
    if (!m_dir.isValid())
        return fail("no temporary directory");
    if (options.ownerEmail.isEmpty() && !options.plan.isEmpty() && !createSpace(options.space, options.plan))
        return false;
    if (!options.ownerEmail.isEmpty() && !addOwner(options.ownerEmail, options.space, options.plan))
        return false;
    if (!options.pageTemplate.isEmpty() && (m_pageId = publishPage(options.space, options.pageTemplate)).isEmpty())
        return fail("publishing the page of " + options.space.toUtf8() + " failed");
    if (!options.keyName.isEmpty() && (m_key = createKey(options.space, options.keyName)).isEmpty())
        return fail("creating the key of " + options.space.toUtf8() + " failed");
    if (!options.config.isEmpty() && !writeConfig(options.config))
        return false;
    if (!options.start)
        return true;
    if (!startServer(options.serverArgs))
        return false;
    if (options.login && !options.ownerEmail.isEmpty() && (m_session = login(options.ownerEmail)).isEmpty())
        return fail("logging " + options.ownerEmail.toUtf8() + " in failed");
    return true;
}

bool E2eFixture::addOwner(const QString &email, const QString &space, const QString &plan)
{
    if (plan.isEmpty())
        return addUser(email, space, QStringLiteral("owner"), {QStringLiteral("--create-space")});
    return createSpace(space, plan) && addUser(email, space, QStringLiteral("owner"));
}

bool E2eFixture::createSpace(const QString &space, const QString &plan)
{
    if (runCli({"space", "create", space, "--plan", plan, "--data", dataDir()}) != 0)
        return fail("space create " + space.toUtf8() + " failed");
    return true;
}

bool E2eFixture::addUser(const QString &email, const QString &space, const QString &role, const QStringList &extra)
{
    const QStringList args = QStringList{"user", "add", "--email", email, "--space", space} + extra
                             + QStringList{"--role", role, "--data", dataDir()};
    const QByteArray twice = (password() + '\n' + password() + '\n').toUtf8();
    if (runCli(args, twice) != 0)
        return fail("user add " + email.toUtf8() + " failed");
    return true;
}

QByteArray E2eFixture::createKey(const QString &space, const QString &name, const QStringList &scopes)
{
    QStringList args{"key", "create", "--space", space, "--name", name, "--json", "--data", dataDir()};
    if (!scopes.isEmpty())
        args << "--scopes" << scopes.join(',');
    QByteArray out;
    if (runCli(args, {}, &out) != 0)
        return {};
    return QJsonDocument::fromJson(out).object().value("token").toString().toLatin1();
}

QByteArray E2eFixture::publishPage(const QString &space, const QByteArray &templateJson)
{
    // httpclient.h's publishedPage(), keeping the template's id.
    QFile file(dataDir() + QStringLiteral("/template-%1.json").arg(qHash(templateJson), 0, 16));
    if (!file.open(QIODevice::WriteOnly) || file.write(templateJson) != templateJson.size())
        return {};
    file.close();
    QByteArray out;
    if (runCli({"template", "import", file.fileName(), "--space", space, "--json", "--data", dataDir()}, {}, &out) != 0)
        return {};
    m_templateId = QJsonDocument::fromJson(out).object().value("id").toString().toLatin1();
    if (runCli({"page", "create", "--space", space, "--template", QString::fromLatin1(m_templateId), "--publish",
                "--json", "--data", dataDir()},
               {}, &out)
        != 0)
        return {};
    return QJsonDocument::fromJson(out).object().value("id").toString().toLatin1();
}

bool E2eFixture::writeConfig(const QByteArray &json)
{
    QFile cfg(dataDir() + "/config.json");
    if (!cfg.open(QIODevice::WriteOnly) || cfg.write(json) != json.size())
        return fail("writing config.json failed");
    return true;
}

bool E2eFixture::startServer(const QStringList &extra)
{
    if (!m_server.start(dataDir(), extra))
        return fail("the server did not start:\n" + m_server.log());
    return true;
}

bool E2eFixture::waitForHtmlEngine(int ms)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) {
        const QJsonObject engine = get("/api/v1/health").json().value("data").toObject().value("htmlEngine").toObject();
        if (engine.value("status").toString() == QLatin1String("ok"))
            return true;
        QTest::qWait(100);
    }
    return false;
}

QByteArray E2eFixture::login(const QString &email)
{
    const QJsonObject body{{"email", email}, {"password", password()}};
    return request("POST", "/api/v1/auth/login", QJsonDocument(body).toJson(QJsonDocument::Compact))
        .data()
        .value("token")
        .toString()
        .toLatin1();
}
