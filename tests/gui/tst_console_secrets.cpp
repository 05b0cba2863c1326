// The console's secret and upload tabs against the real server (fixture: tst_console.h):
// API keys paged, created, revoked; signing keys created, used to sign, revoked; fonts
// uploaded and deleted.
#include "tst_console.h"

#include <QCheckBox>
#include <QHeaderView>

namespace {

/// Selects the first row of `table` in `tab`, clicks the button `buttonName` once the
/// selection enables it, and waits for the confirmation box `boxName` of `w` to show;
/// *box is it. Check QTest::currentTestFailed() after it.
void askToConfirmFirstRow(gui::MainWindow &w, QWidget *tab, QTableWidget *table, const char *buttonName,
                          const char *boxName, QMessageBox **box)
{
    const QRect rect = table->visualItemRect(table->item(0, 0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, rect.center());
    auto *button = child<QPushButton>(tab, buttonName);
    QTRY_VERIFY(button->isEnabled());
    QTest::mouseClick(button, Qt::LeftButton);
    QTRY_VERIFY((*box = w.findChild<QMessageBox *>(QString::fromLatin1(boxName))) && (*box)->isVisible());
}

} // namespace

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
    // Only the renderers' key fields keep it (password echo), for the Preview and Studio tabs.
    for (QLineEdit *edit : w->findChildren<QLineEdit *>())
        QVERIFY(edit->objectName() == QLatin1String("apiKeyEdit") || edit->objectName() == QLatin1String("studioApiKey")
                || edit->text() != token);
    QCOMPARE(child<QLineEdit>(w.get(), "studioApiKey")->text(), token);
    QCOMPARE(child<QLineEdit>(w.get(), "studioApiKey")->echoMode(), QLineEdit::Password);

    QCOMPARE(activeKeyCount(), before + 1);
    QTRY_COMPARE_WITH_TIMEOUT(child<QLabel>(w.get(), "countLabel")->text(),
                              QStringLiteral("%1 active keys").arg(before + 1), 10000);
    auto *table = child<QTableView>(w.get(), "keysTable");
    QTRY_COMPARE(table->model()->index(0, gui::KeysModel::Name).data().toString(), QStringLiteral("Website"));
    QCOMPARE(child<QLabel>(w.get(), "keysMessage")->text(), QStringLiteral("The key “Website” was created."));
}

// The dialog offers every scope of the server's table, render ticked; a key needs one,
// and the key is created with exactly the ones ticked, which the list then shows.
void TestConsole::createWithChosenScopes()
{
    auto w = newWindow();
    QVERIFY(signInAs(*w, kOwner));
    QTest::mouseClick(child<QPushButton>(w.get(), "newKeyButton"), Qt::LeftButton);
    QDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = w->findChild<QDialog *>(QStringLiteral("createKeyDialog"))) && dialog->isVisible());
    QStringList offered;
    for (QCheckBox *check : dialog->findChildren<QCheckBox *>()) {
        if (check->objectName().startsWith(QLatin1String("scopeCheck_")))
            offered << check->objectName().mid(11);
    }
    QCOMPARE(offered, (QStringList{"render", "content", "webhooks"}));
    auto *render = child<QCheckBox>(dialog, "scopeCheck_render");
    QVERIFY(render->isChecked());
    QVERIFY(!child<QCheckBox>(dialog, "scopeCheck_content")->isChecked());
    auto *create = child<QPushButton>(dialog, "createKeyButton");
    QTest::keyClicks(child<QLineEdit>(dialog, "keyNameEdit"), QStringLiteral("Publisher"));
    QVERIFY(create->isEnabled());
    render->setChecked(false);
    QVERIFY(!create->isEnabled()); // no scope: the server would refuse it
    child<QCheckBox>(dialog, "scopeCheck_content")->setChecked(true);
    child<QCheckBox>(dialog, "scopeCheck_webhooks")->setChecked(true);
    QVERIFY(create->isEnabled());
    QTest::mouseClick(create, Qt::LeftButton);

    QDialog *tokenDialog = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((tokenDialog = w->findChild<QDialog *>(QStringLiteral("tokenDialog"))) != nullptr, 10000);
    const QString token = child<QLineEdit>(tokenDialog, "tokenEdit")->text();
    const auto principal = api().keys().authenticate(token);
    QVERIFY(principal.has_value());
    QCOMPARE(principal->scopes, (QStringList{"content", "webhooks"}));
    tokenDialog->close();
    auto *table = child<QTableView>(w.get(), "keysTable");
    QTRY_COMPARE(table->model()->index(0, gui::KeysModel::Name).data().toString(), QStringLiteral("Publisher"));
    QCOMPARE(table->model()->index(0, gui::KeysModel::Scopes).data().toString(), QStringLiteral("content, webhooks"));
    QVERIFY(table->model()->index(0, gui::KeysModel::Scopes).data(Qt::ToolTipRole).toString().contains(
        QLatin1String("webhooks: ")));
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
    QMessageBox *box = nullptr;
    askToConfirmFirstRow(*w, tab, table, "revokeSigningKeyButton", "revokeSigningKeyConfirm", &box);
    if (QTest::currentTestFailed())
        return;
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

// The Fonts tab: a font chosen in the file dialog is uploaded, listed with its sample line
// drawn in the face itself, and deleted after a confirmation (docs/fonts-and-images.md).
void TestConsole::fontsUploadShowSampleAndDelete()
{
    auto w = newWindow();
    QVERIFY(signInAs(*w, kOwner));
    auto *tab = w->fontsTab();
    QTRY_VERIFY_WITH_TIMEOUT(!tab->isLoading(), 10000);
    QVERIFY(!w->showTab(QStringLiteral("font")));
    QVERIFY(w->showTab(QStringLiteral("fonts"))); // what `--tab fonts` calls
    QCOMPARE(w->tabs()->currentWidget(), tab);
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
    // No column but the sample is narrower than its widest cell or its title: the id was cut.
    QHeaderView *header = table->horizontalHeader();
    for (int c = 0; c < table->columnCount(); ++c) {
        if (c == 1)
            continue;
        const QAbstractItemView *view = table; // sizeHintForColumn() is public here
        const int needed = std::max(view->sizeHintForColumn(c), header->sectionSizeHint(c));
        QVERIFY2(header->sectionSize(c) >= needed,
                 qPrintable(QStringLiteral("column %1: %2 < %3 px").arg(c).arg(header->sectionSize(c)).arg(needed)));
    }

    QMessageBox *box = nullptr;
    askToConfirmFirstRow(*w, tab, table, "deleteFontButton", "deleteFontConfirm", &box);
    if (QTest::currentTestFailed())
        return;
    QVERIFY2(box->text().contains(QStringLiteral("Comfortaa")), qPrintable(box->text()));
    QTest::mouseClick(child<QPushButton>(box, "confirmDeleteFontButton"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(table->rowCount(), 0, 10000);
    QCOMPARE(child<QLabel>(tab, "fontsMessage")->text(), QStringLiteral("The font “Comfortaa” was deleted."));
}
