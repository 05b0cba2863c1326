#pragma once
// The admin console's window (README.md): sign-in page, then Keys and Preview tabs,
// a header with the account and a sign-out button.

#include "shared/apiclient.h"

#include <QHash>
#include <QMainWindow>

class QLabel;
class QPushButton;
class QStackedWidget;
class QTabWidget;

namespace imprint {
namespace gui {

class KeysTab;
class SigningKeysTab;
class FontsTab;
class PreviewTab;
class StudioTab;
class UsageTab;
class SignInPage;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    /// The window uses `client` (not owned) when given, else its own.
    explicit MainWindow(client::ApiClient *client = nullptr, QWidget *parent = nullptr);

    client::ApiClient *client() const { return m_client; }
    SignInPage *signInPage() const { return m_signIn; }
    KeysTab *keysTab() const { return m_keys; }
    SigningKeysTab *signingKeysTab() const { return m_signingKeys; }
    FontsTab *fontsTab() const { return m_fonts; }
    PreviewTab *previewTab() const { return m_preview; }
    StudioTab *studioTab() const { return m_studio; }
    UsageTab *usageTab() const { return m_usage; }
    QTabWidget *tabs() const { return m_tabs; }
    bool isSignedIn() const { return m_signedIn; }
    const client::Me &account() const { return m_me; }

    /// Pre-sets the server address; `locked` for local desktop mode.
    void setServerUrl(const QString &url, bool locked = false);
    /// Signs in without the form (local desktop mode, screenshots); the answer goes
    /// through the same path as the form's.
    void signIn(const QString &email, const QString &password);
    void signOut();

    /// The names `--tab` and showTab() take, in tab order ("keys", "signing-keys", ...).
    static QStringList tabNames();
    /// Makes the tab called `name` (tabNames()) current; false for an unknown name.
    bool showTab(const QString &name);

Q_SIGNALS:
    void signedIn();
    void signedOut();
    /// Forwarded from the sign-in page (SignInPage::signInFailed()).
    void signInFailed(const QString &message);

private:
    void enterConsole(const client::Me &me);
    void leaveConsole(const QString &notice, bool warning = true);
    void closeDialogs();
    void addConsoleTab(QWidget *tab, const QString &title, const QString &name);

    client::ApiClient *m_client;
    QStackedWidget *m_stack;
    SignInPage *m_signIn;
    QWidget *m_console;
    QLabel *m_account;
    QPushButton *m_signOut;
    QTabWidget *m_tabs;
    KeysTab *m_keys;
    SigningKeysTab *m_signingKeys;
    FontsTab *m_fonts;
    PreviewTab *m_preview;
    UsageTab *m_usage;
    QHash<QString, QWidget *> m_tabByName; // tabNames() → its widget
    StudioTab *m_studio;
    client::Me m_me;
    bool m_signedIn = false;
};

} // namespace gui
} // namespace imprint
