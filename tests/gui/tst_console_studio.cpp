// The Studio tab against the real server (fixture: tst_console.h; issue 32): type into the
// editor and the preview follows once typing stops, a syntax error and a bad member are
// underlined at their line, a misspelt property is listed with its "did you mean", the
// variables form, the size preset and a second engine re-render, Save stores a new
// version and Publish publishes a page (checked in the server's rows).
#include "gui/studio_editor.h"
#include "gui/studiotab.h"

#include "tst_console.h"

#include <QListWidget>
#include <QTextBlock>

namespace {

// A flat card: its background is the colour the preview's pixels are checked for.
const char *const kStudioTemplate
    = "{\"name\": \"Studio card\", \"width\": 400, \"height\": 300, \"rendererType\": \"takumi\","
      " \"variables\": [{\"name\": \"title\", \"default\": \"Hi\"}],"
      " \"root\": {\"type\": \"div\", \"props\": {\"style\": {\"display\": \"flex\", \"width\": \"100%\","
      "   \"height\": \"100%\", \"alignItems\": \"center\", \"justifyContent\": \"center\","
      "   \"backgroundColor\": \"#1d4ed8\", \"color\": \"#ffffff\", \"fontSize\": 40},"
      "   \"children\": [\"{{title}}\"]}}}";

// A card written as markup (HTML with inline styles).
const char *const kMarkupTemplate
    = "{\"name\": \"Markup card\", \"width\": 300, \"height\": 200, \"rendererType\": \"takumi\","
      " \"markup\": \"<div style=\\\"display:flex;width:100%;height:100%;background-color:#1d4ed8\\\"></div>\"}";

/// Selects the first `text` in `editor` (as a user's double-click or drag would); the
/// 1-based line it is on, 0 when it is not there.
int selectText(gui::CodeEditor *editor, const QString &text)
{
    const QTextCursor found = editor->document()->find(text);
    if (found.isNull())
        return 0;
    editor->setFocus();
    editor->setTextCursor(found);
    return found.block().blockNumber() + 1;
}

} // namespace

void TestConsole::studioEditsPreviewsSavesAndPublishes()
{
    service::ContentService content = service::contentService(*m_env->db);
    const auto tpl
        = content.createTemplate(m_spaceId, QJsonDocument::fromJson(kStudioTemplate).object(), QStringLiteral("test"));
    QVERIFY(tpl.has_value());
    const auto key = api().keys().create(m_spaceId, QStringLiteral("studio"), 0, {});
    QVERIFY(key.has_value());

    auto w = newWindow();
    QVERIFY(signInAs(*w, kOwner));
    gui::StudioTab *studio = w->studioTab();
    clickTab(*w, studio);
    QCOMPARE(w->tabs()->currentWidget(), studio);

    // The space's templates are listed; choosing one loads its document.
    auto *list = child<QListWidget>(studio, "studioTemplates");
    QTRY_VERIFY_WITH_TIMEOUT(!list->findItems(QStringLiteral("Studio card"), Qt::MatchExactly).isEmpty(), 10000);
    QListWidgetItem *item = list->findItems(QStringLiteral("Studio card"), Qt::MatchExactly).first();
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(item).center());
    QTRY_COMPARE_WITH_TIMEOUT(studio->currentTemplateId(), tpl->id, 10000);
    gui::CodeEditor *editor = studio->editor();
    QTRY_VERIFY(editor->toPlainText().contains(QLatin1String("Studio card")));

    // Previews are inline renders: without a key, a sentence; with one, the card.
    auto *message = child<QLabel>(studio, "studioMessage");
    QTRY_VERIFY_WITH_TIMEOUT(message->text().contains(QLatin1String("API key")), 10000);
    QTest::keyClicks(child<QLineEdit>(studio, "studioApiKey"), key->token);
    QTest::keyClick(child<QLineEdit>(studio, "studioApiKey"), Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(!studio->previewImage().isNull(), 15000);
    QCOMPARE(studio->previewImage().size(), QSize(400, 300));
    QVERIFY(near(studio->previewImage().pixelColor(10, 10), QColor("#1d4ed8")));

    // Typing a change: one preview once typing stops (not one per key), with the new colour.
    const int before = studio->previewsShown();
    QVERIFY(selectText(editor, QStringLiteral("1d4ed8")) > 0);
    QTest::keyClicks(editor, QStringLiteral("16a34a"));
    QTRY_VERIFY_WITH_TIMEOUT(near(studio->previewImage().pixelColor(10, 10), QColor("#16a34a")), 10000);
    QCOMPARE(studio->previewsShown(), before + 1);
    QVERIFY(child<QPushButton>(studio, "studioSave")->isEnabled());

    // Only the newest request's answer is shown: two renders in a row show one answer.
    QSignalSpy updated(studio, &gui::StudioTab::previewUpdated);
    studio->renderPreview();
    studio->renderPreview();
    QTRY_COMPARE_WITH_TIMEOUT(updated.count(), 1, 10000);
    QTest::qWait(200); // the first request's answer, had it been shown, arrives by now
    QCOMPARE(updated.count(), 1);

    // A syntax error is underlined at its line (the server's line and column).
    const int heightLine = selectText(editor, QStringLiteral("\"height\": 300"));
    QVERIFY(heightLine > 0);
    QVERIFY(selectText(editor, QStringLiteral(": 300")) == heightLine);
    QTextCursor colon = editor->textCursor();
    colon.setPosition(colon.selectionStart());
    colon.setPosition(colon.position() + 1, QTextCursor::KeepAnchor);
    editor->setTextCursor(colon);
    QTest::keyClick(editor, Qt::Key_Delete); // "height" 300
    QTRY_COMPARE_WITH_TIMEOUT(editor->problemPlace().first, heightLine, 10000);
    auto *problem = child<QLabel>(studio, "studioProblem");
    QVERIFY2(problem->text().startsWith(QStringLiteral("Line %1, column ").arg(heightLine)), qPrintable(problem->text()));
    QVERIFY(problem->isVisible());
    // Undo (the editor's own) fixes it; the underline goes with the next answer.
    QTest::keyClick(editor, Qt::Key_Z, Qt::ControlModifier);
    QTRY_COMPARE_WITH_TIMEOUT(editor->problemPlace().first, 0, 10000);
    QVERIFY(!problem->isVisible());

    // A member the server refuses is underlined at the member's line.
    const int engineLine = selectText(editor, QStringLiteral("\"takumi\""));
    QVERIFY(engineLine > 0);
    QTest::keyClicks(editor, QStringLiteral("\"takumo\""));
    QTRY_COMPARE_WITH_TIMEOUT(editor->problemPlace().first, engineLine, 10000);
    QVERIFY2(problem->text().contains(QLatin1String("rendererType")), qPrintable(problem->text()));
    QTest::keyClick(editor, Qt::Key_Z, Qt::ControlModifier);
    QTRY_COMPARE_WITH_TIMEOUT(editor->problemPlace().first, 0, 10000);

    // A misspelt property renders, and the warning under the preview says what was meant.
    QVERIFY(selectText(editor, QStringLiteral("\"fontSize\"")) > 0);
    QTest::keyClicks(editor, QStringLiteral("\"fontSzie\""));
    QTRY_VERIFY_WITH_TIMEOUT(studio->warnings().join(u'\n').contains(QLatin1String("did you mean 'fontSize'")), 10000);
    QVERIFY(child<QListWidget>(studio, "studioWarnings")->isVisible());
    QTest::keyClick(editor, Qt::Key_Z, Qt::ControlModifier);
    QTRY_VERIFY_WITH_TIMEOUT(studio->warnings().isEmpty(), 10000);

    // The variables form comes from the document; a value typed there re-renders.
    auto *title = child<QLineEdit>(studio, "studioVar_title");
    QVERIFY(title);
    QCOMPARE(title->placeholderText(), QStringLiteral("Hi"));
    const QImage withDefault = studio->previewImage();
    QTest::keyClicks(title, QStringLiteral("A much longer title"));
    QTRY_VERIFY_WITH_TIMEOUT(studio->previewImage() != withDefault, 10000);

    // A size preset and a second engine beside the first.
    auto *size = child<QComboBox>(studio, "studioSize");
    size->setCurrentIndex(size->findData(QStringLiteral("square")));
    QTRY_COMPARE_WITH_TIMEOUT(studio->previewImage().size(), QSize(1080, 1080), 10000);
    size->setCurrentIndex(0);
    auto *compare = child<QComboBox>(studio, "studioCompare");
    compare->setCurrentIndex(compare->findData(QStringLiteral("satori")));
    QTRY_COMPARE_WITH_TIMEOUT(studio->compareImage().size(), QSize(400, 300), 10000);
    QVERIFY(near(studio->compareImage().pixelColor(10, 10), QColor("#16a34a")));
    QCOMPARE(studio->previewImage().size(), QSize(400, 300));

    // Save: a new version in the server's rows, with the edit.
    QSignalSpy saved(studio, &gui::StudioTab::saved);
    QTest::mouseClick(child<QPushButton>(studio, "studioSave"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(saved.count(), 1, 10000);
    QVERIFY2(saved.first().first().toBool(), qPrintable(message->text()));
    const auto stored = content.getTemplate(m_spaceId, tpl->id);
    QVERIFY(stored.has_value());
    QCOMPARE(stored->version, 2);
    QVERIFY(QJsonDocument(stored->document).toJson().contains("#16a34a"));
    QVERIFY(!child<QPushButton>(studio, "studioSave")->isEnabled());

    // Publish: the template had no page, so one is made and published.
    QSignalSpy published(studio, &gui::StudioTab::published);
    QTest::mouseClick(child<QPushButton>(studio, "studioPublish"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(published.count(), 1, 10000);
    QVERIFY2(published.first().first().toBool(), qPrintable(message->text()));
    const auto pages = content.listPages(m_spaceId);
    QVERIFY(pages.has_value());
    int publishedPages = 0;
    for (const auto &p : *pages)
        if (p.templateId == tpl->id && p.publishedAt > 0)
            ++publishedPages;
    QCOMPARE(publishedPages, 1);
}

// A markup template's HTML is edited on its own (no JSON escapes), with the preview
// following, and goes back into the document.
void TestConsole::studioEditsMarkupAsHtml()
{
    service::ContentService content = service::contentService(*m_env->db);
    const auto tpl
        = content.createTemplate(m_spaceId, QJsonDocument::fromJson(kMarkupTemplate).object(), QStringLiteral("test"));
    QVERIFY2(tpl.has_value(), tpl.has_value() ? "" : qPrintable(tpl.error().message));
    const auto key = api().keys().create(m_spaceId, QStringLiteral("studio markup"), 0, {});
    QVERIFY(key.has_value());

    auto w = newWindow();
    QVERIFY(signInAs(*w, kOwner));
    gui::StudioTab *studio = w->studioTab();
    studio->offerApiKey(key->token);
    w->tabs()->setCurrentWidget(studio);
    auto *list = child<QListWidget>(studio, "studioTemplates");
    QTRY_VERIFY_WITH_TIMEOUT(!list->findItems(QStringLiteral("Markup card"), Qt::MatchExactly).isEmpty(), 10000);
    list->setCurrentItem(list->findItems(QStringLiteral("Markup card"), Qt::MatchExactly).first());
    QTRY_COMPARE_WITH_TIMEOUT(studio->currentTemplateId(), tpl->id, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(near(studio->previewImage().pixelColor(5, 5), QColor("#1d4ed8")), 10000);

    auto *part = child<QComboBox>(studio, "studioPart");
    QVERIFY(part->isEnabled());
    part->setCurrentIndex(1);
    gui::CodeEditor *editor = studio->editor();
    QVERIFY2(editor->toPlainText().startsWith(QLatin1String("<div style=\"display:flex")),
             qPrintable(editor->toPlainText()));
    QCOMPARE(editor->highlighter()->mode(), gui::TemplateHighlighter::Mode::Markup);
    QVERIFY(selectText(editor, QStringLiteral("1d4ed8")) == 1);
    QTest::keyClicks(editor, QStringLiteral("dc2626"));
    QTRY_VERIFY_WITH_TIMEOUT(near(studio->previewImage().pixelColor(5, 5), QColor("#dc2626")), 10000);
    QVERIFY(studio->isEdited());

    part->setCurrentIndex(0);
    QCOMPARE(editor->highlighter()->mode(), gui::TemplateHighlighter::Mode::Json);
    const QJsonObject document = QJsonDocument::fromJson(editor->toPlainText().toUtf8()).object();
    QVERIFY(document.value(QStringLiteral("markup")).toString().contains(QLatin1String("#dc2626")));
}
