// Admin console against the real server, in this process, on an ephemeral
// port: the widgets are driven with QTest (clicks, typing), never the model directly.
#include "gui/fontstab.h"
#include "gui/i18n.h"
#include "gui/imageview.h"
#include "gui/keysmodel.h"
#include "gui/keystab.h"
#include "gui/mainwindow.h"
#include "gui/previewtab.h"
#include "gui/signingkeystab.h"
#include "gui/signinpage.h"
#include "server/app/commands/cli.h"
#include "server/app/service.h"
#include "server/render/engine.h"
#include "server/service/content_validation.h"
#include "shared/apiclient.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFontInfo>
#include <QInputDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>

#include <memory>
#include <optional>

using namespace imprint;

namespace {

const QString kPassword = QStringLiteral("correct horse battery staple");
const QString kOwner = QStringLiteral("owner@acme.test");
const QString kMember = QStringLiteral("member@acme.test");

// Two flat halves, so the shown image can be checked pixel by pixel at any scale.
const char *const kPreviewTemplate
    = "{\"name\": \"Halves\", \"width\": 400, \"height\": 300, \"rendererType\": \"takumi\","
      " \"variables\": [{\"name\": \"left\", \"type\": \"color\", \"default\": \"#000000\"},"
      "                {\"name\": \"right\", \"type\": \"color\", \"default\": \"#000000\"}],"
      " \"root\": {\"type\": \"div\", \"props\": {\"style\": {\"display\": \"flex\", \"width\": \"100%\","
      "   \"height\": \"100%\"}, \"children\": ["
      "   {\"type\": \"div\", \"props\": {\"style\": {\"width\": \"50%\", \"height\": \"100%\","
      "     \"backgroundColor\": \"{{left}}\"}}},"
      "   {\"type\": \"div\", \"props\": {\"style\": {\"width\": \"50%\", \"height\": \"100%\","
      "     \"backgroundColor\": \"{{right}}\"}}}]}}}";

// The same halves as an html-engine page (Chromium): the one engine that prints PDF.
const char *const kHtmlTemplate
    = "{\"name\": \"Html halves\", \"width\": 400, \"height\": 300, \"rendererType\": \"html\","
      " \"html\": \"<div style='display:flex;width:400px;height:300px'>"
      "<div style='flex:1;background:#1d4ed8'></div><div style='flex:1;background:#f59e0b'></div></div>\"}";

/// True when `a` and `b` differ by at most `tolerance` in every channel (WebP is lossy,
/// scaling blends).
bool near(const QColor &a, const QColor &b, int tolerance = 6)
{
    return qAbs(a.red() - b.red()) <= tolerance && qAbs(a.green() - b.green()) <= tolerance
           && qAbs(a.blue() - b.blue()) <= tolerance;
}

template<class T>
T *child(QObject *parent, const char *name)
{
    T *w = parent->findChild<T *>(QLatin1String(name));
    if (!w)
        qWarning("no child %s", name);
    return w;
}

} // namespace

class TestConsole : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();

    void normalizesServerUrls();
    void variableValuesAsTyped();
    void unreachableServerIsASentence();
    void signInWrongThenRight();
    void keysPageThroughServerPages();
    void pageSizeChange();
    void createShowsTokenOnce();
    void revokeAcceptedRemovesRow();
    void revokeCancelledKeepsKey();
    void revokeOfKeyRevokedElsewhereRefreshes();
    void memberSeesRoleMessage();
    void expiredSessionReturnsToSignIn();
    void signOut();
    void germanLabels();
    void frenchLabels();
    void relativeTimes();
    void previewRendersThroughRenderApi(); // after the key-count tests: it adds a key
    void previewOffersPdfAndScale(); // after previewRendersThroughRenderApi: it adds a page
    void signingKeysCreateSignAndRevoke();
    void memberSeesSigningKeysRoleMessage();
    void fontsUploadShowSampleAndDelete();
    void rateLimitedLoginIsASentence(); // last: it uses up the address's login failures

private:
    std::unique_ptr<gui::MainWindow> newWindow();
    void fillSignIn(gui::MainWindow &w, const QString &server, const QString &email, const QString &password);
    bool signInAs(gui::MainWindow &w, const QString &email);
    /// Clicks the Preview tab of `w` (signed in) and waits until its pages and the chosen
    /// page's template have loaded; the tab.
    gui::PreviewTab *openPreview(gui::MainWindow &w);
    void selectKeyRow(gui::MainWindow &w, int row);
    QString serverUrl() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_port); }
    int activeKeyCount();
    app::Services &api() { return m_service->services(); }

    QTemporaryDir m_dir;
    std::optional<app::Environment> m_env;
    std::unique_ptr<app::Service> m_service; // every route of `imprint serve`
    quint16 m_port = 0;
    QString m_spaceId;
    QString m_pageId;
};

void TestConsole::initTestCase()
{
    QVERIFY(m_dir.isValid());
    qputenv("XDG_CONFIG_HOME", m_dir.filePath(QStringLiteral("config")).toUtf8());
    QCoreApplication::setOrganizationName(QStringLiteral("imprint-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_console"));
    gui::installTranslations(QStringLiteral("en"));

    app::CommonOptions options;
    options.dataDir = m_dir.filePath(QStringLiteral("data"));
    QString error;
    m_env = app::openEnvironment(options, &error);
    QVERIFY2(m_env, qPrintable(error));
    // The same service `imprint serve` and the local desktop mode run (server/app/service.h).
    m_service = app::Service::create(*m_env, &error);
    QVERIFY2(m_service, qPrintable(error));
    m_port = m_service->server().listen(QHostAddress::LocalHost, 0, &error);
    QVERIFY2(m_port != 0, qPrintable(error));

    auto space = api().accounts().createSpace(QStringLiteral("acme"), QStringLiteral("pro"), QStringLiteral("test"));
    QVERIFY(space.has_value());
    m_spaceId = space->id;
    QVERIFY(api()
                .accounts()
                .addUser(kOwner, kPassword, QStringLiteral("acme"), store::Role::Owner, QStringLiteral("test"))
                .has_value());
    QVERIFY(api()
                .accounts()
                .addUser(kMember, kPassword, QStringLiteral("acme"), store::Role::Member, QStringLiteral("test"))
                .has_value());
    // 25 keys: key 01 is the oldest, key 25 the newest (the list is newest first).
    for (int i = 1; i <= 25; ++i) {
        const auto created = api().keys().create(m_spaceId, QStringLiteral("key %1").arg(i, 2, 10, QLatin1Char('0')),
                                                 i % 5 == 0 ? store::nowMs() + 30LL * 86400 * 1000 : 0, {});
        QVERIFY(created.has_value());
        QTest::qWait(2); // distinct creation times
    }

    // A published page for the Preview tab, stored the way the template/page routes do.
    service::ContentService content = service::contentService(*m_env->db);
    const auto tpl
        = content.createTemplate(m_spaceId, QJsonDocument::fromJson(kPreviewTemplate).object(), QStringLiteral("test"));
    QVERIFY2(tpl.has_value(), qPrintable(tpl.has_value() ? QString() : tpl.error().message)); // QVERIFY2 evaluates both
    const auto page = content.createPage(
        m_spaceId, tpl->id, QStringLiteral("Halves"),
        {{QStringLiteral("left"), QStringLiteral("#1d4ed8")}, {QStringLiteral("right"), QStringLiteral("#f59e0b")}},
        QStringLiteral("test"));
    QVERIFY2(page.has_value(), qPrintable(page.has_value() ? QString() : page.error().message));
    m_pageId = page->id;
    QVERIFY(content.publish(m_spaceId, m_pageId, QStringLiteral("test")).has_value());
}

void TestConsole::cleanupTestCase()
{
    m_service.reset();
    m_env.reset();
}

void TestConsole::cleanup()
{
    gui::installTranslations(QStringLiteral("en"));
}

std::unique_ptr<gui::MainWindow> TestConsole::newWindow()
{
    auto w = std::make_unique<gui::MainWindow>();
    w->resize(1000, 640);
    w->show();
    if (!QTest::qWaitForWindowExposed(w.get()))
        qWarning("window not exposed");
    return w;
}

void TestConsole::fillSignIn(gui::MainWindow &w, const QString &server, const QString &email, const QString &password)
{
    auto *serverEdit = child<QLineEdit>(&w, "serverEdit");
    auto *emailEdit = child<QLineEdit>(&w, "emailEdit");
    auto *passwordEdit = child<QLineEdit>(&w, "passwordEdit");
    serverEdit->clear();
    QTest::keyClicks(serverEdit, server);
    emailEdit->clear();
    QTest::keyClicks(emailEdit, email);
    passwordEdit->clear();
    QTest::keyClicks(passwordEdit, password);
    QTest::mouseClick(child<QPushButton>(&w, "signInButton"), Qt::LeftButton);
}

gui::PreviewTab *TestConsole::openPreview(gui::MainWindow &w)
{
    auto *preview = w.previewTab();
    QSignalSpy pagesLoaded(preview, &gui::PreviewTab::pagesLoaded);
    QSignalSpy templateLoaded(preview, &gui::PreviewTab::templateLoaded);
    QTabBar *tabBar = w.tabs()->tabBar();
    QTest::mouseClick(tabBar, Qt::LeftButton, {}, tabBar->tabRect(w.tabs()->indexOf(preview)).center());
    if (w.tabs()->currentWidget() != preview)
        return nullptr;
    // GET /pages and GET /templates/{id} answered.
    if (!QTest::qWaitFor([&] { return pagesLoaded.count() > 0 && templateLoaded.count() > 0; }, 10000))
        return nullptr;
    return preview;
}

bool TestConsole::signInAs(gui::MainWindow &w, const QString &email)
{
    fillSignIn(w, serverUrl(), email, kPassword);
    if (!QTest::qWaitFor([&] { return w.isSignedIn(); }, 15000))
        return false;
    return QTest::qWaitFor([&] { return !w.keysTab()->isLoading(); }, 15000);
}

void TestConsole::selectKeyRow(gui::MainWindow &w, int row)
{
    auto *table = child<QTableView>(&w, "keysTable");
    const QRect rect = table->visualRect(table->model()->index(row, 0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, rect.center());
}

int TestConsole::activeKeyCount()
{
    auto page = api().keys().listPage(m_spaceId, 1, 1);
    return page.has_value() ? page->count : -1;
}

// A page's variable values appear in the tweaks table as the user would type them.
void TestConsole::variableValuesAsTyped()
{
    QCOMPARE(client::jsonText(QJsonValue(QStringLiteral("#1d4ed8"))), QStringLiteral("#1d4ed8"));
    QCOMPARE(client::jsonText(QJsonValue(42.0)), QStringLiteral("42"));
    QCOMPARE(client::jsonText(QJsonValue(0.125)), QStringLiteral("0.125"));
    QCOMPARE(client::jsonText(QJsonValue(true)), QStringLiteral("true"));
    QCOMPARE(client::jsonText(QJsonValue(QJsonArray{1, 2})), QString());
}

void TestConsole::normalizesServerUrls()
{
    using client::ApiClient;
    QCOMPARE(ApiClient::normalizeServerUrl(QStringLiteral("localhost:8080")).toString(),
             QStringLiteral("http://localhost:8080"));
    QCOMPARE(ApiClient::normalizeServerUrl(QStringLiteral(" https://img.example.com/api/v1/ ")).toString(),
             QStringLiteral("https://img.example.com"));
    QVERIFY(!ApiClient::normalizeServerUrl(QStringLiteral("ftp://x")).isValid());
    QVERIFY(!ApiClient::normalizeServerUrl(QString()).isValid());
}

void TestConsole::unreachableServerIsASentence()
{
    // A port nobody listens on: bind one, note it, close it.
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
    const quint16 dead = probe.serverPort();
    probe.close();
    auto w = newWindow();
    fillSignIn(*w, QStringLiteral("http://127.0.0.1:%1").arg(dead), kOwner, kPassword);
    auto *message = child<QLabel>(w.get(), "signInMessage");
    QTRY_VERIFY_WITH_TIMEOUT(message->text().contains(QLatin1String("could not be reached")), 15000);
    QVERIFY(!w->isSignedIn());
    QVERIFY(!message->text().contains(QLatin1Char('{')));
}

void TestConsole::signInWrongThenRight()
{
    auto w = newWindow();
    fillSignIn(*w, serverUrl(), kOwner, QStringLiteral("wrong password"));
    auto *message = child<QLabel>(w.get(), "signInMessage");
    QTRY_COMPARE_WITH_TIMEOUT(message->text(), QStringLiteral("The email address or password is not correct."), 15000);
    QVERIFY(!w->isSignedIn());

    QVERIFY(signInAs(*w, kOwner));
    QCOMPARE(w->account().role, QStringLiteral("owner"));
    QVERIFY(child<QLabel>(w.get(), "accountLabel")->text().contains(kOwner));
    // The server URL is remembered for the next start.
    QCOMPARE(QSettings().value(QStringLiteral("console/serverUrl")).toString(), serverUrl());
    auto w2 = newWindow();
    QCOMPARE(child<QLineEdit>(w2.get(), "serverEdit")->text(), serverUrl());
}

void TestConsole::keysPageThroughServerPages()
{
    auto w = newWindow();
    QVERIFY(signInAs(*w, kOwner));
    auto *table = child<QTableView>(w.get(), "keysTable");
    auto *pageLabel = child<QLabel>(w.get(), "pageLabel");
    QCOMPARE(table->model()->rowCount(), 20);
    QCOMPARE(pageLabel->text(), QStringLiteral("Page 1 of 2"));
    QCOMPARE(child<QLabel>(w.get(), "countLabel")->text(), QStringLiteral("25 active keys"));
    QCOMPARE(table->model()->index(0, gui::KeysModel::Name).data().toString(), QStringLiteral("key 25"));
    QVERIFY(table->model()->index(0, gui::KeysModel::Prefix).data().toString().startsWith(QLatin1String("imp_")));
    QCOMPARE(table->model()->index(1, gui::KeysModel::LastUsed).data().toString(), QStringLiteral("never used"));
    QCOMPARE(table->model()->index(1, gui::KeysModel::Expires).data().toString(), QStringLiteral("never"));
    QVERIFY(!child<QPushButton>(w.get(), "prevPageButton")->isEnabled());

    QTest::mouseClick(child<QPushButton>(w.get(), "nextPageButton"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(pageLabel->text(), QStringLiteral("Page 2 of 2"), 10000);
    QCOMPARE(table->model()->rowCount(), 5);
    QCOMPARE(table->model()->index(4, gui::KeysModel::Name).data().toString(), QStringLiteral("key 01"));
    QVERIFY(!child<QPushButton>(w.get(), "nextPageButton")->isEnabled());
    QVERIFY(!child<QPushButton>(w.get(), "lastPageButton")->isEnabled());

    QTest::mouseClick(child<QPushButton>(w.get(), "firstPageButton"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(pageLabel->text(), QStringLiteral("Page 1 of 2"), 10000);
    QCOMPARE(table->model()->rowCount(), 20);
    QTest::mouseClick(child<QPushButton>(w.get(), "lastPageButton"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(pageLabel->text(), QStringLiteral("Page 2 of 2"), 10000);
    QTest::mouseClick(child<QPushButton>(w.get(), "prevPageButton"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(pageLabel->text(), QStringLiteral("Page 1 of 2"), 10000);
}

void TestConsole::pageSizeChange()
{
    auto w = newWindow();
    QVERIFY(signInAs(*w, kOwner));
    auto *table = child<QTableView>(w.get(), "keysTable");
    auto *pageLabel = child<QLabel>(w.get(), "pageLabel");
    auto *combo = child<QComboBox>(w.get(), "perPageCombo");
    QCOMPARE(combo->currentText(), QStringLiteral("20"));
    combo->setFocus();
    QTest::keyClick(combo, Qt::Key_Up); // 20 → 10
    QCOMPARE(combo->currentText(), QStringLiteral("10"));
    QTRY_COMPARE_WITH_TIMEOUT(pageLabel->text(), QStringLiteral("Page 1 of 3"), 10000);
    QCOMPARE(table->model()->rowCount(), 10);
    QTest::mouseClick(child<QPushButton>(w.get(), "lastPageButton"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(pageLabel->text(), QStringLiteral("Page 3 of 3"), 10000);
    QCOMPARE(table->model()->rowCount(), 5);
    QTest::keyClick(combo, Qt::Key_Down); // 10 → 20, still showing the same keys
    QTRY_COMPARE_WITH_TIMEOUT(pageLabel->text(), QStringLiteral("Page 2 of 2"), 10000);
    QCOMPARE(table->model()->rowCount(), 5);
    QTRY_VERIFY(combo->isEnabled());
    QTest::keyClick(combo, Qt::Key_Down); // 20 → 50
    QCOMPARE(combo->currentText(), QStringLiteral("50"));
    QTRY_COMPARE_WITH_TIMEOUT(pageLabel->text(), QStringLiteral("Page 1 of 1"), 10000);
    QCOMPARE(table->model()->rowCount(), 25);
}

void TestConsole::createShowsTokenOnce()
{
    auto w = newWindow();
    QVERIFY(signInAs(*w, kOwner));
    const int before = activeKeyCount();
    QTest::mouseClick(child<QPushButton>(w.get(), "newKeyButton"), Qt::LeftButton);
    QDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = w->findChild<QDialog *>(QStringLiteral("createKeyDialog"))) && dialog->isVisible());
    auto *create = child<QPushButton>(dialog, "createKeyButton");
    QVERIFY(!create->isEnabled()); // a name is required
    QTest::keyClicks(child<QLineEdit>(dialog, "keyNameEdit"), QStringLiteral("Website"));
    QVERIFY(create->isEnabled());
    QTest::mouseClick(create, Qt::LeftButton);

    QDialog *tokenDialog = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((tokenDialog = w->findChild<QDialog *>(QStringLiteral("tokenDialog"))) != nullptr, 10000);
    QVERIFY(tokenDialog->isVisible());
    const QString token = child<QLineEdit>(tokenDialog, "tokenEdit")->text();
    QVERIFY2(token.startsWith(QLatin1String("imp_")) && token.size() == 44, qPrintable(token));
    QVERIFY(child<QLabel>(tokenDialog, "tokenWarning")->text().contains(QLatin1String("will not be shown again")));
    QTest::mouseClick(child<QPushButton>(tokenDialog, "copyTokenButton"), Qt::LeftButton);
    QCOMPARE(QApplication::clipboard()->text(), token);
    // The new key authenticates (against the same store the render routes use).
    QVERIFY(api().keys().authenticate(token).has_value());

    QPointer<QDialog> guard(tokenDialog);
    QTest::mouseClick(child<QPushButton>(tokenDialog, "tokenDoneButton"), Qt::LeftButton);
    QTRY_VERIFY(guard.isNull()); // gone, with the token: it is never shown again
    for (QLineEdit *edit : w->findChildren<QLineEdit *>())
        QVERIFY(edit->objectName() == QLatin1String("apiKeyEdit") || edit->text() != token);

    QCOMPARE(activeKeyCount(), before + 1);
    QTRY_COMPARE_WITH_TIMEOUT(child<QLabel>(w.get(), "countLabel")->text(),
                              QStringLiteral("%1 active keys").arg(before + 1), 10000);
    auto *table = child<QTableView>(w.get(), "keysTable");
    QTRY_COMPARE(table->model()->index(0, gui::KeysModel::Name).data().toString(), QStringLiteral("Website"));
    QCOMPARE(child<QLabel>(w.get(), "keysMessage")->text(), QStringLiteral("The key “Website” was created."));
}

void TestConsole::revokeAcceptedRemovesRow()
{
    auto w = newWindow();
    QVERIFY(signInAs(*w, kOwner));
    auto *table = child<QTableView>(w.get(), "keysTable");
    const int before = activeKeyCount();
    selectKeyRow(*w, 2);
    const QString name = table->model()->index(2, gui::KeysModel::Name).data().toString();
    const QString id = table->model()->index(2, 0).data(gui::KeysModel::KeyIdRole).toString();
    QVERIFY(!id.isEmpty());
    auto *revoke = child<QPushButton>(w.get(), "revokeButton");
    QVERIFY(revoke->isEnabled());
    QTest::mouseClick(revoke, Qt::LeftButton);
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = w->findChild<QMessageBox *>(QStringLiteral("revokeConfirm"))) && box->isVisible());
    QVERIFY2(box->text().contains(name), qPrintable(box->text())); // the confirmation names the key
    QTest::mouseClick(child<QPushButton>(box, "confirmRevokeButton"), Qt::LeftButton);

    QTRY_COMPARE_WITH_TIMEOUT(child<QLabel>(w.get(), "keysMessage")->text(),
                              QStringLiteral("The key “%1” was revoked.").arg(name), 10000);
    QTRY_VERIFY(!w->keysTab()->isLoading());
    auto *model = static_cast<gui::KeysModel *>(table->model());
    QCOMPARE(model->rowOfKey(id), -1);
    QCOMPARE(model->rowCount(), 20); // refilled from the next page
    QCOMPARE(child<QLabel>(w.get(), "countLabel")->text(), QStringLiteral("%1 active keys").arg(before - 1));
    QCOMPARE(activeKeyCount(), before - 1);

    // The server now answers 404 for that id.
    client::ApiClient direct;
    direct.setServerUrl(QUrl(serverUrl()));
    bool done = false;
    direct.login(kOwner, kPassword, this, [&](const client::ApiResult<client::Me> &r) {
        QVERIFY(r.has_value());
        direct.revokeKey(id, this, [&](const client::ApiResult<QString> &again) {
            QCOMPARE(again.error().status, 404);
            done = true;
        });
    });
    QTRY_VERIFY_WITH_TIMEOUT(done, 15000);
}

void TestConsole::revokeCancelledKeepsKey()
{
    auto w = newWindow();
    QVERIFY(signInAs(*w, kOwner));
    auto *table = child<QTableView>(w.get(), "keysTable");
    const int before = activeKeyCount();
    selectKeyRow(*w, 0);
    const QString id = table->model()->index(0, 0).data(gui::KeysModel::KeyIdRole).toString();
    QTest::mouseClick(child<QPushButton>(w.get(), "revokeButton"), Qt::LeftButton);
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = w->findChild<QMessageBox *>(QStringLiteral("revokeConfirm"))) && box->isVisible());
    QTest::mouseClick(child<QPushButton>(box, "cancelRevokeButton"), Qt::LeftButton);
    QTest::qWait(300);
    QCOMPARE(static_cast<gui::KeysModel *>(table->model())->rowOfKey(id), 0);
    QCOMPARE(activeKeyCount(), before);
    QVERIFY(child<QLabel>(w.get(), "keysMessage")->text().isEmpty());
}

void TestConsole::revokeOfKeyRevokedElsewhereRefreshes()
{
    auto w = newWindow();
    QVERIFY(signInAs(*w, kOwner));
    auto *table = child<QTableView>(w.get(), "keysTable");
    selectKeyRow(*w, 1);
    const QString name = table->model()->index(1, gui::KeysModel::Name).data().toString();
    const QString id = table->model()->index(1, 0).data(gui::KeysModel::KeyIdRole).toString();
    QVERIFY(api().keys().revoke(m_spaceId, id, QStringLiteral("test")).has_value()); // elsewhere
    QTest::mouseClick(child<QPushButton>(w.get(), "revokeButton"), Qt::LeftButton);
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = w->findChild<QMessageBox *>(QStringLiteral("revokeConfirm"))) && box->isVisible());
    QTest::mouseClick(child<QPushButton>(box, "confirmRevokeButton"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(child<QLabel>(w.get(), "keysMessage")->text(),
                              QStringLiteral("The key “%1” had already been revoked elsewhere. "
                                             "The list has been refreshed.")
                                  .arg(name),
                              10000);
    QTRY_COMPARE(static_cast<gui::KeysModel *>(table->model())->rowOfKey(id), -1);
    QCOMPARE(child<QLabel>(w.get(), "countLabel")->text(), QStringLiteral("%1 active keys").arg(activeKeyCount()));
}

void TestConsole::memberSeesRoleMessage()
{
    auto w = newWindow();
    fillSignIn(*w, serverUrl(), kMember, kPassword);
    QTRY_VERIFY_WITH_TIMEOUT(w->isSignedIn(), 15000);
    auto *role = child<QLabel>(w.get(), "roleMessage");
    QTRY_VERIFY(role->isVisible());
    QVERIFY(role->text().contains(QLatin1String("You need the owner or admin role")));
    QVERIFY(!child<QTableView>(w.get(), "keysTable")->isVisible());
}

void TestConsole::expiredSessionReturnsToSignIn()
{
    auto w = newWindow();
    QVERIFY(signInAs(*w, kOwner));
    QVERIFY(api().accounts().logout(w->client()->sessionToken()).has_value()); // ends server-side
    QTest::mouseClick(child<QPushButton>(w.get(), "refreshButton"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!w->isSignedIn(), 10000);
    QVERIFY(child<QWidget>(w.get(), "signInPage")->isVisible());
    QCOMPARE(child<QLabel>(w.get(), "signInMessage")->text(),
             QStringLiteral("Your session has expired. Please sign in again."));
    QCOMPARE(child<QLineEdit>(w.get(), "emailEdit")->text(), kOwner);
}

void TestConsole::signOut()
{
    auto w = newWindow();
    QVERIFY(signInAs(*w, kOwner));
    const QString token = w->client()->sessionToken();
    QTest::mouseClick(child<QPushButton>(w.get(), "signOutButton"), Qt::LeftButton);
    QVERIFY(!w->isSignedIn());
    QVERIFY(child<QWidget>(w.get(), "signInPage")->isVisible());
    QCOMPARE(child<QTableView>(w.get(), "keysTable")->model()->rowCount(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(!api().accounts().session(token).has_value(), 10000); // ended on the server
}

void TestConsole::germanLabels()
{
    QCOMPARE(gui::installTranslations(QStringLiteral("de")), QStringLiteral("de"));
    auto w = newWindow();
    QCOMPARE(w->windowTitle(), QStringLiteral("Imprint-Konsole"));
    QCOMPARE(child<QPushButton>(w.get(), "signInButton")->text(), QStringLiteral("Anmelden"));
    fillSignIn(*w, serverUrl(), kOwner, QStringLiteral("falsch"));
    QTRY_COMPARE_WITH_TIMEOUT(child<QLabel>(w.get(), "signInMessage")->text(),
                              QStringLiteral("E-Mail-Adresse oder Passwort ist nicht korrekt."), 15000);
    QVERIFY(signInAs(*w, kOwner));
    QCOMPARE(w->tabs()->tabText(0), QStringLiteral("&Schlüssel"));
    QCOMPARE(w->tabs()->tabText(1), QStringLiteral("Si&gnaturschlüssel")); // Alt+S stays with "Schlüssel"
    QCOMPARE(w->tabs()->tabText(2), QStringLiteral("&Vorschau"));
    QCOMPARE(child<QPushButton>(w.get(), "newSigningKeyButton")->text(), QStringLiteral("&Neuer Signaturschlüssel …"));
    QCOMPARE(child<QPushButton>(w.get(), "signOutButton")->text(), QStringLiteral("&Abmelden"));
    QVERIFY(child<QLabel>(w.get(), "pageLabel")->text().startsWith(QLatin1String("Seite 1 von ")));
    auto *table = child<QTableView>(w.get(), "keysTable");
    QCOMPARE(table->model()->headerData(gui::KeysModel::Prefix, Qt::Horizontal).toString(), QStringLiteral("Präfix"));
    QCOMPARE(table->model()->headerData(gui::KeysModel::LastUsed, Qt::Horizontal).toString(),
             QStringLiteral("Zuletzt benutzt"));
    // Qt's own strings (qtbase_de.qm) in the create dialog's Cancel button.
    QTest::mouseClick(child<QPushButton>(w.get(), "newKeyButton"), Qt::LeftButton);
    QDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = w->findChild<QDialog *>(QStringLiteral("createKeyDialog"))) != nullptr);
    QCOMPARE(dialog->windowTitle(), QStringLiteral("Neuer API-Schlüssel"));
    auto *cancel = dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Cancel);
    QVERIFY2(cancel->text().contains(QLatin1String("Abbrechen")), qPrintable(cancel->text()));
    dialog->reject();
}

void TestConsole::frenchLabels()
{
    QCOMPARE(gui::installTranslations(QStringLiteral("fr")), QStringLiteral("fr"));
    auto w = newWindow();
    QCOMPARE(w->windowTitle(), QStringLiteral("Console Imprint"));
    QCOMPARE(child<QPushButton>(w.get(), "signInButton")->text(), QStringLiteral("Se connecter"));
    QVERIFY(signInAs(*w, kOwner));
    QCOMPARE(w->tabs()->tabText(0), QStringLiteral("&Clés"));
    QCOMPARE(w->tabs()->tabText(1), QStringLiteral("Clés de &signature"));
    QCOMPARE(w->tabs()->tabText(2), QStringLiteral("&Aperçu"));
    QCOMPARE(child<QPushButton>(w.get(), "copySignedUrlButton")->text(), QStringLiteral("Copier l’URL signée"));
    QVERIFY(child<QLabel>(w.get(), "pageLabel")->text().startsWith(QLatin1String("Page 1 sur ")));
    QVERIFY2(child<QLabel>(w.get(), "countLabel")->text().endsWith(QStringLiteral("clés actives")),
             qPrintable(child<QLabel>(w.get(), "countLabel")->text()));
    QCOMPARE(child<QPushButton>(w.get(), "newKeyButton")->text(), QStringLiteral("&Nouvelle clé…"));
    QTest::mouseClick(child<QPushButton>(w.get(), "newKeyButton"), Qt::LeftButton);
    QDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = w->findChild<QDialog *>(QStringLiteral("createKeyDialog"))) != nullptr);
    auto *cancel = dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Cancel);
    QVERIFY2(cancel->text().contains(QLatin1String("Annuler")), qPrintable(cancel->text()));
    dialog->reject();
}

void TestConsole::relativeTimes()
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QCOMPARE(gui::KeysModel::relativeTime(now.addSecs(-10), now), QStringLiteral("just now"));
    QCOMPARE(gui::KeysModel::relativeTime(now.addSecs(-5 * 60), now), QStringLiteral("5 minutes ago"));
    QCOMPARE(gui::KeysModel::relativeTime(now.addSecs(3 * 3600 + 30), now), QStringLiteral("in 3 hours"));
    QCOMPARE(gui::KeysModel::relativeTime(now.addSecs(-1 * 3600 - 30), now), QStringLiteral("1 hour ago"));
}

void TestConsole::previewRendersThroughRenderApi()
{
    auto w = newWindow();
    QVERIFY(signInAs(*w, kOwner));
    auto *preview = openPreview(*w);
    QVERIFY(preview);

    // The page and its variables are offered.
    auto *pageCombo = child<QComboBox>(preview, "pageCombo");
    QCOMPARE(pageCombo->currentData().toString(), m_pageId);
    QCOMPARE(pageCombo->currentText(), QStringLiteral("Halves")); // the id only in the tooltip
    QCOMPARE(pageCombo->itemData(pageCombo->currentIndex(), Qt::ToolTipRole).toString(), m_pageId);
    auto *tweaks = child<QTableWidget>(preview, "tweaksTable");
    QCOMPARE(tweaks->rowCount(), 2);
    QCOMPARE(tweaks->item(0, 0)->text(), QStringLiteral("left"));
    QCOMPARE(tweaks->item(0, 1)->text(), QStringLiteral("#1d4ed8"));

    auto *renderButton = child<QPushButton>(preview, "renderButton");
    auto *message = child<QLabel>(preview, "previewMessage");
    auto *view = child<gui::ImageView>(preview, "previewImage");
    QSignalSpy rendered(preview, &gui::PreviewTab::rendered);
    const auto renderAndWait = [&]() -> bool {
        rendered.clear();
        QTest::mouseClick(renderButton, Qt::LeftButton);
        return QTest::qWaitFor([&] { return rendered.count() > 0; }, 20000);
    };

    // Without an API key the real render route answers 401, said in words.
    QVERIFY(renderAndWait());
    QCOMPARE(rendered.first().first().toBool(), false);
    QVERIFY2(message->text().startsWith(QLatin1String("The server needs an API key for renders.")),
             qPrintable(message->text()));
    QVERIFY(view->image().isNull());

    const auto key = api().keys().create(m_spaceId, QStringLiteral("preview"), 0, {});
    QVERIFY(key.has_value());
    QTest::keyClicks(child<QLineEdit>(preview, "apiKeyEdit"), key->token);

    // The image on screen: the view scales it to fit, so sample the middle of each half.
    const auto shownHalves = [&]() -> std::pair<QColor, QColor> {
        const QImage shown = view->grab().toImage();
        const QSize size = view->image().size().scaled(view->size() - QSize(16, 16), Qt::KeepAspectRatio);
        const QPoint centre = view->rect().center();
        return {shown.pixelColor(centre.x() - size.width() / 4, centre.y()),
                shown.pixelColor(centre.x() + size.width() / 4, centre.y())};
    };
    const auto checkRender = [&](const QString &format, const QColor &left, const QColor &right) {
        QVERIFY(renderAndWait());
        QVERIFY2(rendered.first().first().toBool(), qPrintable(message->text()));
        const QImage image = preview->image();
        QCOMPARE(image.size(), QSize(400, 300));
        QVERIFY2(near(image.pixelColor(100, 150), left), qPrintable(image.pixelColor(100, 150).name()));
        QVERIFY2(near(image.pixelColor(300, 150), right), qPrintable(image.pixelColor(300, 150).name()));
        const auto [shownLeft, shownRight] = shownHalves();
        QVERIFY2(near(shownLeft, left), qPrintable(shownLeft.name()));
        QVERIFY2(near(shownRight, right), qPrintable(shownRight.name()));
        const QString info = child<QLabel>(preview, "renderInfo")->text();
        QVERIFY2(info.startsWith(QStringLiteral("400 × 300 px · %1 · ").arg(format)), qPrintable(info));
        QVERIFY2(child<QLabel>(preview, "timingsLabel")->text().startsWith(QLatin1String("Server time ")),
                 qPrintable(child<QLabel>(preview, "timingsLabel")->text()));
        QVERIFY(child<QPushButton>(preview, "copyUrlButton")->isEnabled()); // a stored file
    };

    // The published page, as PNG: the page's own colours.
    checkRender(QStringLiteral("PNG"), QColor("#1d4ed8"), QColor("#f59e0b"));
    QVERIFY(child<QLabel>(preview, "renderInfo")->text().endsWith(QLatin1String("takumi")));
    // The phases of a fresh render are listed; the same render again within seconds is
    // the server's reused image, said in words instead of a row of zeros.
    QVERIFY2(child<QLabel>(preview, "timingsLabel")->text().contains(QLatin1String("paint")),
             qPrintable(child<QLabel>(preview, "timingsLabel")->text()));
    checkRender(QStringLiteral("PNG"), QColor("#1d4ed8"), QColor("#f59e0b"));
    QVERIFY2(child<QLabel>(preview, "timingsLabel")->text().contains(QLatin1String("reused an identical render")),
             qPrintable(child<QLabel>(preview, "timingsLabel")->text()));

    // A tweak typed into the table goes with the next render.
    const QRect cell = tweaks->visualItemRect(tweaks->item(1, 1));
    QTest::mouseClick(tweaks->viewport(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(tweaks->currentItem(), tweaks->item(1, 1));
    QTest::keyClick(tweaks, Qt::Key_F2);
    QLineEdit *editor = nullptr;
    QTRY_VERIFY((editor = tweaks->viewport()->findChild<QLineEdit *>()) != nullptr);
    editor->selectAll();
    QTest::keyClicks(editor, QStringLiteral("#16a34a"));
    QTest::keyClick(editor, Qt::Key_Return);
    QTRY_COMPARE(tweaks->item(1, 1)->text(), QStringLiteral("#16a34a")); // the delegate commits queued
    checkRender(QStringLiteral("PNG"), QColor("#1d4ed8"), QColor("#16a34a"));

    // WebP (decoded by the console through libwebp) and SVG from the satori engine.
    auto *format = child<QComboBox>(preview, "formatCombo");
    format->setCurrentIndex(format->findData(QStringLiteral("webp")));
    checkRender(QStringLiteral("WEBP"), QColor("#1d4ed8"), QColor("#16a34a"));
    // JPEG, decoded through Qt's jpeg plugin: the real server's bytes, shown at 400 × 300.
    QVERIFY(format->findData(QStringLiteral("jpeg")) >= 0);
    format->setCurrentIndex(format->findData(QStringLiteral("jpeg")));
    checkRender(QStringLiteral("JPEG"), QColor("#1d4ed8"), QColor("#16a34a"));
    QCOMPARE(format->findData(QStringLiteral("avif")), -1); // not displayable (see PreviewTab)
    auto *engine = child<QComboBox>(preview, "engineCombo");
    QStringList offered; // after "Template default": exactly the engines the server parses
    for (int i = 1; i < engine->count(); ++i)
        offered << engine->itemData(i).toString();
    QCOMPARE(offered, render::engineNames());
    engine->setCurrentIndex(engine->findData(QStringLiteral("satori")));
    format->setCurrentIndex(format->findData(QStringLiteral("svg")));
    checkRender(QStringLiteral("SVG"), QColor("#1d4ed8"), QColor("#16a34a"));
    QVERIFY(child<QLabel>(preview, "renderInfo")->text().endsWith(QLatin1String("satori")));
}

// The format and scale choices follow what the server accepts for the engine (docs/api.md):
// PDF only with the html engine, scale only with bitmap formats. The request the console
// sends is read back from "Copy render URL" (the same RenderRequest in its GET form) and
// from what the real server answered: a 2× image, a PDF shown as its first page.
void TestConsole::previewOffersPdfAndScale()
{
    service::ContentService content = service::contentService(*m_env->db);
    const auto tpl
        = content.createTemplate(m_spaceId, QJsonDocument::fromJson(kHtmlTemplate).object(), QStringLiteral("test"));
    QVERIFY2(tpl.has_value(), qPrintable(tpl.has_value() ? QString() : tpl.error().message));
    const auto htmlPage
        = content.createPage(m_spaceId, tpl->id, QStringLiteral("Html halves"), {}, QStringLiteral("test"), true);
    QVERIFY2(htmlPage.has_value(), qPrintable(htmlPage.has_value() ? QString() : htmlPage.error().message));

    auto w = newWindow();
    QVERIFY(signInAs(*w, kOwner));
    auto *preview = openPreview(*w);
    QVERIFY(preview);
    QSignalSpy templateLoaded(preview, &gui::PreviewTab::templateLoaded);
    auto *pageCombo = child<QComboBox>(preview, "pageCombo");
    auto *engine = child<QComboBox>(preview, "engineCombo");
    auto *format = child<QComboBox>(preview, "formatCombo");
    auto *scale = child<QComboBox>(preview, "scaleCombo");
    auto *message = child<QLabel>(preview, "previewMessage");
    auto *info = child<QLabel>(preview, "renderInfo");
    auto *view = child<gui::ImageView>(preview, "previewImage");
    QVERIFY(scale);
    QCOMPARE(pageCombo->currentData().toString(), m_pageId); // the takumi page, oldest first
    const auto key = api().keys().create(m_spaceId, QStringLiteral("preview pdf"), 0, {});
    QVERIFY(key.has_value());
    QTest::keyClicks(child<QLineEdit>(preview, "apiKeyEdit"), key->token);

    const auto pdfOffered = [&] {
        const auto *model = qobject_cast<const QStandardItemModel *>(format->model());
        return model && model->item(format->findData(QStringLiteral("pdf")))->isEnabled();
    };
    // What the console would send, in the GET form "Copy render URL" copies.
    const auto sentQuery = [&] {
        QTest::mouseClick(child<QPushButton>(preview, "copyRequestUrlButton"), Qt::LeftButton);
        return QUrlQuery(QUrl(QApplication::clipboard()->text()));
    };
    QSignalSpy rendered(preview, &gui::PreviewTab::rendered);
    const auto renderAndWait = [&]() -> bool {
        rendered.clear();
        QTest::mouseClick(child<QPushButton>(preview, "renderButton"), Qt::LeftButton);
        return QTest::qWaitFor([&] { return rendered.count() > 0; }, 30000) && rendered.first().first().toBool();
    };
    const auto selectFromKeyboard = [&](QComboBox *combo, const QString &data) {
        // Through the keyboard, as a user would: a disabled item is skipped.
        combo->setFocus();
        QTest::keyClick(combo, Qt::Key_Home);
        for (int i = 0; i < combo->count() && combo->currentData().toString() != data; ++i)
            QTest::keyClick(combo, Qt::Key_Down);
        return combo->currentData().toString() == data;
    };

    // A takumi template: no PDF, but every scale with PNG.
    QCOMPARE(engine->currentData().toString(), QString()); // "Template default"
    QVERIFY(!pdfOffered());
    QVERIFY(!selectFromKeyboard(format, QStringLiteral("pdf")));
    QVERIFY(selectFromKeyboard(format, QStringLiteral("png")));
    QVERIFY(scale->isEnabled());
    QCOMPARE(scale->count(), 3);
    QVERIFY(selectFromKeyboard(scale, QStringLiteral("2")));
    QVERIFY2(renderAndWait(), qPrintable(message->text()));
    QUrlQuery sent = sentQuery();
    QCOMPARE(sent.queryItemValue(QStringLiteral("scale")), QStringLiteral("2"));
    QCOMPARE(sent.queryItemValue(QStringLiteral("format")), QStringLiteral("png"));
    QImage image = preview->image();
    QCOMPARE(image.size(), QSize(800, 600)); // 2× the pixels of the 400 × 300 template
    QCOMPARE(image.devicePixelRatio(), 2.0); // shown at the template's size
    QVERIFY2(near(image.pixelColor(200, 300), QColor("#1d4ed8")), qPrintable(image.pixelColor(200, 300).name()));
    QVERIFY2(near(image.pixelColor(600, 300), QColor("#f59e0b")), qPrintable(image.pixelColor(600, 300).name()));
    QVERIFY2(info->text().startsWith(QStringLiteral("800 × 600 px (2×) · PNG · ")), qPrintable(info->text()));
    QVERIFY2(info->text().endsWith(QLatin1String("takumi")), qPrintable(info->text()));
    // SVG is vector output: no scale, and what is sent says 1.
    QVERIFY(selectFromKeyboard(format, QStringLiteral("svg")));
    QVERIFY(!scale->isEnabled());
    QCOMPARE(scale->currentData().toInt(), 1);
    QVERIFY(!sentQuery().hasQueryItem(QStringLiteral("scale")));
    QVERIFY(selectFromKeyboard(format, QStringLiteral("png")));
    QVERIFY(scale->isEnabled());

    // Choosing the html engine offers PDF; PDF takes no scale.
    QVERIFY(selectFromKeyboard(engine, QStringLiteral("html")));
    QVERIFY(pdfOffered());
    QVERIFY(selectFromKeyboard(format, QStringLiteral("pdf")));
    QVERIFY(!scale->isEnabled());
    // And back: another engine takes PDF away and the choice falls back to PNG.
    QVERIFY(selectFromKeyboard(engine, QStringLiteral("satori")));
    QVERIFY(!pdfOffered());
    QCOMPARE(format->currentData().toString(), QStringLiteral("png"));
    QVERIFY(scale->isEnabled());

    // The html page with "Template default": PDF offered once its template is known.
    templateLoaded.clear();
    QVERIFY(selectFromKeyboard(engine, QString()));
    pageCombo->setCurrentIndex(pageCombo->findData(htmlPage->id));
    QTRY_VERIFY_WITH_TIMEOUT(templateLoaded.count() > 0, 10000);
    QVERIFY(pdfOffered());
    QVERIFY(selectFromKeyboard(format, QStringLiteral("pdf")));
    QVERIFY2(renderAndWait(), qPrintable(message->text()));
    QVERIFY2(message->text().startsWith(QLatin1String("A PDF: shown here is its first page")),
             qPrintable(message->text()));
    QCOMPARE(preview->lastResult().contentType, QStringLiteral("application/pdf"));
    QVERIFY(preview->lastResult().bytes.startsWith("%PDF-"));
    // Its first page on screen: 400 × 300 CSS px (300 × 225 pt), the halves in place.
    image = preview->image();
    QCOMPARE(image.size(), QSize(400, 300));
    QVERIFY2(near(image.pixelColor(100, 150), QColor("#1d4ed8")), qPrintable(image.pixelColor(100, 150).name()));
    QVERIFY2(near(image.pixelColor(300, 150), QColor("#f59e0b")), qPrintable(image.pixelColor(300, 150).name()));
    QVERIFY2(info->text().startsWith(QStringLiteral("400 × 300 px · PDF · ")), qPrintable(info->text()));
    QVERIFY2(preview->lastResult().warnings.isEmpty(), qPrintable(preview->lastResult().warnings.join(u'\n')));
    QVERIFY2(info->text().endsWith(QLatin1String("html")), qPrintable(info->text()));
    const QImage shown = view->grab().toImage();
    const QPoint centre = view->rect().center();
    QVERIFY2(near(shown.pixelColor(centre.x() - 100, centre.y()), QColor("#1d4ed8")),
             qPrintable(shown.pixelColor(centre.x() - 100, centre.y()).name()));
    QVERIFY2(near(shown.pixelColor(centre.x() + 100, centre.y()), QColor("#f59e0b")),
             qPrintable(shown.pixelColor(centre.x() + 100, centre.y()).name()));
    if (const QByteArray out = qgetenv("IMPRINT_CONSOLE_GRAB"); !out.isEmpty())
        w->grab().save(QString::fromLocal8Bit(out));
    sent = sentQuery();
    QCOMPARE(sent.queryItemValue(QStringLiteral("format")), QStringLiteral("pdf"));
    QVERIFY(!sent.hasQueryItem(QStringLiteral("scale")));
}

void TestConsole::rateLimitedLoginIsASentence()
{
    auto w = newWindow();
    auto *message = child<QLabel>(w.get(), "signInMessage");
    bool limited = false;
    for (int i = 0; i < 15 && !limited; ++i) {
        fillSignIn(*w, serverUrl(), QStringLiteral("nobody@acme.test"), QStringLiteral("wrong password"));
        QTRY_VERIFY_WITH_TIMEOUT(child<QPushButton>(w.get(), "signInButton")->isEnabled(), 15000);
        limited = message->text().startsWith(QLatin1String("Too many attempts."));
    }
    QVERIFY2(limited, qPrintable(message->text()));
    QVERIFY(message->text().contains(QLatin1String("second")));
}

// The Signing keys tab against the real routes: create (the secret shown once, copied),
// "Copy signed URL" in Preview signed by the server with that key, then revoke.
void TestConsole::signingKeysCreateSignAndRevoke()
{
    auto w = newWindow();
    QVERIFY(signInAs(*w, kOwner));
    auto *tab = w->signingKeysTab();
    QTRY_VERIFY_WITH_TIMEOUT(!tab->isLoading(), 10000);
    w->tabs()->setCurrentWidget(tab);
    auto *table = child<QTableWidget>(tab, "signingKeysTable");
    const int before = table->rowCount();

    QTest::mouseClick(child<QPushButton>(tab, "newSigningKeyButton"), Qt::LeftButton);
    QInputDialog *ask = nullptr;
    QTRY_VERIFY((ask = w->findChild<QInputDialog *>(QStringLiteral("createSigningKeyDialog"))) && ask->isVisible());
    auto *nameEdit = ask->findChild<QLineEdit *>();
    QVERIFY(nameEdit);
    QTest::keyClicks(nameEdit, QStringLiteral("Blog"));
    QTest::keyClick(nameEdit, Qt::Key_Return);

    QDialog *secretDialog = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((secretDialog = w->findChild<QDialog *>(QStringLiteral("tokenDialog"))) != nullptr, 10000);
    QVERIFY(secretDialog->windowTitle() == QStringLiteral("Signing key created"));
    const QString secret = child<QLineEdit>(secretDialog, "tokenEdit")->text();
    QVERIFY2(secret.startsWith(QLatin1String("sks_")), qPrintable(secret.left(4)));
    QVERIFY(child<QLabel>(secretDialog, "tokenWarning")->text().contains(QLatin1String("will not be shown again")));
    QTest::mouseClick(child<QPushButton>(secretDialog, "copyTokenButton"), Qt::LeftButton);
    QCOMPARE(QApplication::clipboard()->text(), secret);
    QPointer<QDialog> guard(secretDialog);
    QTest::mouseClick(child<QPushButton>(secretDialog, "tokenDoneButton"), Qt::LeftButton);
    QTRY_VERIFY(guard.isNull()); // gone, with the secret

    QTRY_COMPARE_WITH_TIMEOUT(table->rowCount(), before + 1, 10000);
    QCOMPARE(table->item(0, 0)->text(), QStringLiteral("Blog")); // newest first
    const QString keyId = table->item(0, 1)->text();
    QVERIFY2(keyId.startsWith(QLatin1String("sgk_")), qPrintable(keyId));
    QVERIFY(!table->item(0, 2)->text().isEmpty());
    QCOMPARE(api().signingKeys().secretOf(m_spaceId, keyId).value(), secret);

    // Preview: the new key is offered, and the server signs the current page's URL.
    auto *preview = w->previewTab();
    QSignalSpy templateLoaded(preview, &gui::PreviewTab::templateLoaded);
    w->tabs()->setCurrentWidget(preview);
    QTRY_VERIFY_WITH_TIMEOUT(templateLoaded.count() > 0, 10000);
    auto *keyCombo = child<QComboBox>(preview, "signingKeyCombo");
    QTRY_VERIFY(keyCombo->findData(keyId) >= 0);
    keyCombo->setCurrentIndex(keyCombo->findData(keyId));
    QSignalSpy copied(preview, &gui::PreviewTab::signedUrlCopied);
    QTest::mouseClick(child<QPushButton>(preview, "copySignedUrlButton"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(copied.count() > 0, 10000);
    const QString signedUrl = copied.first().first().toString();
    QVERIFY2(!signedUrl.isEmpty(), qPrintable(child<QLabel>(preview, "previewMessage")->text()));
    QCOMPARE(QApplication::clipboard()->text(), signedUrl);
    QVERIFY(!signedUrl.contains(secret));
    const QUrl url(signedUrl);
    QCOMPARE(QUrlQuery(url).queryItemValue(QStringLiteral("kid")), keyId);
    QCOMPARE(QUrlQuery(url).queryItemValue(QStringLiteral("pageId")), m_pageId);
    // The signature is one the render route accepts.
    const auto grant = api().signingKeys().verify(url.path(), QUrlQuery(url).queryItems(QUrl::FullyDecoded),
                                                  QDateTime::currentSecsSinceEpoch());
    QVERIFY2(grant.has_value(), qPrintable(grant.has_value() ? QString() : grant.error().message));

    // Revoke, after a confirmation that names the key.
    w->tabs()->setCurrentWidget(tab);
    const QRect rect = table->visualItemRect(table->item(0, 0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, rect.center());
    auto *revoke = child<QPushButton>(tab, "revokeSigningKeyButton");
    QTRY_VERIFY(revoke->isEnabled());
    QTest::mouseClick(revoke, Qt::LeftButton);
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = w->findChild<QMessageBox *>(QStringLiteral("revokeSigningKeyConfirm"))) && box->isVisible());
    QVERIFY2(box->text().contains(QStringLiteral("Blog")), qPrintable(box->text()));
    QTest::mouseClick(child<QPushButton>(box, "confirmRevokeSigningKeyButton"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(table->rowCount(), before, 10000);
    QCOMPARE(child<QLabel>(tab, "signingKeysMessage")->text(), QStringLiteral("The signing key “Blog” was revoked."));
    QVERIFY(!api().signingKeys().secretOf(m_spaceId, keyId).has_value());
    QTRY_VERIFY(keyCombo->findData(keyId) < 0); // Preview no longer offers it
}

void TestConsole::memberSeesSigningKeysRoleMessage()
{
    auto w = newWindow();
    fillSignIn(*w, serverUrl(), kMember, kPassword);
    QTRY_VERIFY_WITH_TIMEOUT(w->isSignedIn(), 15000);
    w->tabs()->setCurrentWidget(w->signingKeysTab());
    auto *role = child<QLabel>(w.get(), "signingKeysRoleMessage");
    QTRY_VERIFY(role->isVisible());
    QVERIFY(role->text().contains(QLatin1String("owner or admin role to manage signing keys")));
}

QTEST_MAIN(TestConsole)
#include "tst_console.moc"

// The Fonts tab: a font chosen in the file dialog is uploaded, listed with its sample line
// drawn in the face itself, and deleted after a confirmation (docs/fonts-and-images.md).
void TestConsole::fontsUploadShowSampleAndDelete()
{
    auto w = newWindow();
    QVERIFY(signInAs(*w, kOwner));
    auto *tab = w->fontsTab();
    QTRY_VERIFY_WITH_TIMEOUT(!tab->isLoading(), 10000);
    w->tabs()->setCurrentWidget(tab);
    auto *table = child<QTableWidget>(tab, "fontsTable");
    QCOMPARE(table->rowCount(), 0);

    QSignalSpy sampleReady(tab, &gui::FontsTab::sampleReady);
    QTest::mouseClick(child<QPushButton>(tab, "uploadFontButton"), Qt::LeftButton);
    QFileDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = w->findChild<QFileDialog *>(QStringLiteral("uploadFontDialog"))) && dialog->isVisible());
    dialog->selectFile(QStringLiteral(IMPRINT_SOURCE_DIR "/tests/http/fonts/Comfortaa-Regular.ttf"));
    QVERIFY(QMetaObject::invokeMethod(dialog, "accept")); // the dialog's own OK

    QTRY_COMPARE_WITH_TIMEOUT(table->rowCount(), 1, 10000);
    QCOMPARE(table->item(0, 0)->text(), QStringLiteral("Comfortaa"));
    QCOMPARE(table->item(0, 3)->text(), QStringLiteral("TTF"));
    const QString fontId = table->item(0, 4)->text();
    QVERIFY2(fontId.startsWith(QLatin1String("fnt_")), qPrintable(fontId));
    QCOMPARE(child<QLabel>(tab, "fontsMessage")->text(), QStringLiteral("The font “Comfortaa” was uploaded."));
    // The sample line is drawn in the uploaded face, fetched from the server.
    QTRY_VERIFY_WITH_TIMEOUT(sampleReady.count() > 0, 10000);
    const QString family = tab->sampleFamily(fontId);
    QCOMPARE(family, QStringLiteral("Comfortaa"));
    QCOMPARE(table->item(0, 1)->text(), gui::FontsTab::sampleText());
    QCOMPARE(QFontInfo(table->item(0, 1)->font()).family(), family);

    const QRect rect = table->visualItemRect(table->item(0, 0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, rect.center());
    auto *remove = child<QPushButton>(tab, "deleteFontButton");
    QTRY_VERIFY(remove->isEnabled());
    QTest::mouseClick(remove, Qt::LeftButton);
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = w->findChild<QMessageBox *>(QStringLiteral("deleteFontConfirm"))) && box->isVisible());
    QVERIFY2(box->text().contains(QStringLiteral("Comfortaa")), qPrintable(box->text()));
    QTest::mouseClick(child<QPushButton>(box, "confirmDeleteFontButton"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(table->rowCount(), 0, 10000);
    QCOMPARE(child<QLabel>(tab, "fontsMessage")->text(), QStringLiteral("The font “Comfortaa” was deleted."));
}
