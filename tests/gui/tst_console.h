#pragma once
// The fixture of the admin console tests (tst_console.cpp: sign-in, languages, preview;
// tst_console_secrets.cpp: the API key, signing key and font tabs): one real server in
// this process, one window per test, widgets driven with QTest.

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

namespace console_test {

inline const QString kPassword = QStringLiteral("correct horse battery staple");
inline const QString kOwner = QStringLiteral("owner@acme.test");
inline const QString kMember = QStringLiteral("member@acme.test");

// Two flat halves, so the shown image can be checked pixel by pixel at any scale.
inline const char *const kPreviewTemplate
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
inline const char *const kHtmlTemplate
    = "{\"name\": \"Html halves\", \"width\": 400, \"height\": 300, \"rendererType\": \"html\","
      " \"html\": \"<div style='display:flex;width:400px;height:300px'>"
      "<div style='flex:1;background:#1d4ed8'></div><div style='flex:1;background:#f59e0b'></div></div>\"}";

/// True when `a` and `b` differ by at most `tolerance` in every channel (WebP is lossy,
/// scaling blends).
inline bool near(const QColor &a, const QColor &b, int tolerance = 6)
{
    return qAbs(a.red() - b.red()) <= tolerance && qAbs(a.green() - b.green()) <= tolerance
           && qAbs(a.blue() - b.blue()) <= tolerance;
}

template<class T>
inline T *child(QObject *parent, const char *name)
{
    T *w = parent->findChild<T *>(QLatin1String(name));
    if (!w)
        qWarning("no child %s", name);
    return w;
}

/// Clicks the tab bar of `w` on the tab that shows `tab`, as a user switches tabs.
inline void clickTab(gui::MainWindow &w, QWidget *tab)
{
    QTabBar *tabBar = w.tabs()->tabBar();
    QTest::mouseClick(tabBar, Qt::LeftButton, {}, tabBar->tabRect(w.tabs()->indexOf(tab)).center());
}

} // namespace console_test

using namespace console_test;

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
    void createWithChosenScopes();
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
    void studioEditsPreviewsSavesAndPublishes(); // tst_console_studio.cpp
    void studioEditsMarkupAsHtml();
    void usageTabShowsTheRenders(); // tst_console_usage.cpp (issue 32)
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
