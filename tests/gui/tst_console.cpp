// Admin console against the real server, in this process, on an ephemeral
// port: the widgets are driven with QTest (clicks, typing), never the model directly.
#include "tst_console.h"

void TestConsole::initTestCase()
{
    QVERIFY(m_dir.isValid());
    qputenv("XDG_CONFIG_HOME", m_dir.filePath(QStringLiteral("config")).toUtf8());
    QCoreApplication::setOrganizationName(QStringLiteral("imprint-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_console"));
    gui::installTranslations(QStringLiteral("en"));

    app::CommonOptions options;
    options.dataDir = m_dir.filePath(QStringLiteral("data"));
    auto env = app::openEnvironment(options);
    QVERIFY2(env, qPrintable(env.error_or(QString())));
    m_env = std::move(*env);
    // The same service `imprint serve` and the local desktop mode run (server/app/service.h).
    auto service = app::Service::create(*m_env);
    QVERIFY2(service, qPrintable(service.error_or(QString())));
    m_service = std::move(service).value();
    const auto port = m_service->server().listen(QHostAddress::LocalHost, 0);
    QVERIFY2(port, qPrintable(port.error_or(QString())));
    m_port = *port;

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
    clickTab(w, preview);
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

    // The page's sizes and versions (issue 31): it follows the latest template version and
    // was published with it; a size preset renders at that size.
    const QString version = child<QLabel>(preview, "versionLabel")->text();
    QVERIFY2(version.contains(QLatin1String("follows the latest, version 1"))
                 && version.contains(QLatin1String("published with version 1")),
             qPrintable(version));
    auto *size = child<QComboBox>(preview, "sizeCombo");
    QCOMPARE(size->itemText(0), QStringLiteral("Template size (400 × 300)"));
    QCOMPARE(size->count(), 8); // the template size, then the seven presets
    size->setCurrentIndex(size->findData(QStringLiteral("square")));
    format->setCurrentIndex(format->findData(QStringLiteral("png")));
    QVERIFY(renderAndWait());
    QVERIFY2(rendered.first().first().toBool(), qPrintable(message->text()));
    QCOMPARE(preview->image().size(), QSize(1080, 1080));
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

QTEST_MAIN(TestConsole)
