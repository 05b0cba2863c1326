#include "gui/mainwindow.h"

#include "gui/fontstab.h"

#include "gui/keystab.h"
#include "gui/previewtab.h"
#include "gui/signingkeystab.h"
#include "gui/usagetab.h"
#include "gui/signinpage.h"
#include "gui/studiotab.h"

#include <QDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

namespace imprint {
namespace gui {

namespace {

QString roleName(const QString &role)
{
    if (role == QLatin1String("owner"))
        return MainWindow::tr("owner");
    if (role == QLatin1String("admin"))
        return MainWindow::tr("admin");
    if (role == QLatin1String("member"))
        return MainWindow::tr("member");
    return role;
}

} // namespace

MainWindow::MainWindow(client::ApiClient *client, QWidget *parent)
    : QMainWindow(parent)
    , m_client(client ? client : new client::ApiClient(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Imprint Console"));
    resize(1040, 680);

    m_signIn = new SignInPage(m_client, this);
    m_console = new QWidget(this);
    m_account = new QLabel(m_console);
    m_account->setObjectName(QStringLiteral("accountLabel"));
    m_account->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_signOut = new QPushButton(tr("Sign &out"), m_console);
    m_signOut->setObjectName(QStringLiteral("signOutButton"));
    auto *header = new QHBoxLayout;
    header->addWidget(m_account, 1);
    header->addWidget(m_signOut);

    m_tabs = new QTabWidget(m_console);
    m_tabs->setObjectName(QStringLiteral("consoleTabs"));
    m_keys = new KeysTab(m_client, m_tabs);
    m_signingKeys = new SigningKeysTab(m_client, m_tabs);
    m_preview = new PreviewTab(m_client, m_tabs);
    m_fonts = new FontsTab(m_client, m_tabs);
    m_studio = new StudioTab(m_client, m_tabs);
    addConsoleTab(m_keys, tr("&Keys"), QStringLiteral("keys"));
    addConsoleTab(m_signingKeys, tr("&Signing keys"), QStringLiteral("signing-keys"));
    addConsoleTab(m_preview, tr("&Preview"), QStringLiteral("preview"));
    addConsoleTab(m_fonts, tr("F&onts"), QStringLiteral("fonts"));
    addConsoleTab(m_studio, tr("S&tudio"), QStringLiteral("studio"));
    addConsoleTab(m_usage = new UsageTab(m_client, m_tabs), tr("&Usage"), QStringLiteral("usage"));
    auto *consoleLayout = new QVBoxLayout(m_console);
    consoleLayout->addLayout(header);
    consoleLayout->addWidget(m_tabs, 1);

    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_signIn);
    m_stack->addWidget(m_console);
    setCentralWidget(m_stack);

    connect(m_signIn, &SignInPage::signedIn, this, &MainWindow::enterConsole);
    connect(m_signIn, &SignInPage::signInFailed, this, &MainWindow::signInFailed);
    connect(m_signOut, &QPushButton::clicked, this, &MainWindow::signOut);
    connect(m_keys, &KeysTab::keyCreated, m_preview, &PreviewTab::offerApiKey);
    connect(m_keys, &KeysTab::keyCreated, m_studio, &StudioTab::offerApiKey);
    connect(m_signingKeys, &SigningKeysTab::loaded, this, [this] { m_preview->setSigningKeys(m_signingKeys->keys()); });
    connect(m_client, &client::ApiClient::sessionExpired, this,
            [this] { leaveConsole(tr("Your session has expired. Please sign in again.")); });
    connect(m_client, &client::ApiClient::pendingRequestsChanged, this, [this](int pending) {
        if (pending > 0)
            statusBar()->showMessage(tr("Talking to the server…"));
        else
            statusBar()->clearMessage();
    });
    m_stack->setCurrentWidget(m_signIn);
    m_signIn->reset();
}

void MainWindow::setServerUrl(const QString &url, bool locked)
{
    m_signIn->setServerUrl(url, locked);
}

void MainWindow::signIn(const QString &email, const QString &password)
{
    m_signIn->setEmail(email);
    m_signIn->findChild<QLineEdit *>(QStringLiteral("passwordEdit"))->setText(password);
    m_signIn->submit();
}

void MainWindow::enterConsole(const client::Me &me)
{
    m_me = me;
    m_signedIn = true;
    const QString who = me.user.displayName();
    const QString space = me.space.name.isEmpty() ? me.space.id : me.space.name;
    m_account->setText(
        space.isEmpty() ? tr("Signed in as %1 (%2) on %3").arg(who, roleName(me.role), m_client->serverUrl().toString())
                        : tr("Signed in as %1 (%2) in “%3” on %4")
                              .arg(who, roleName(me.role), space, m_client->serverUrl().toString()));
    m_stack->setCurrentWidget(m_console);
    m_tabs->setCurrentWidget(m_keys);
    m_keys->activate(me);
    m_signingKeys->activate(me);
    m_fonts->activate(me);
    m_usage->activate(me);
    m_preview->activate();
    m_studio->activate();
    Q_EMIT signedIn();
}

QStringList MainWindow::tabNames()
{
    return {QStringLiteral("keys"), QStringLiteral("signing-keys"), QStringLiteral("preview"),
            QStringLiteral("fonts"), QStringLiteral("studio"), QStringLiteral("usage")};
}

void MainWindow::addConsoleTab(QWidget *tab, const QString &title, const QString &name)
{
    Q_ASSERT(tabNames().contains(name));
    m_tabs->addTab(tab, title);
    m_tabByName.insert(name, tab);
}

bool MainWindow::showTab(const QString &name)
{
    QWidget *tab = m_tabByName.value(name);
    if (!tab)
        return false;
    m_tabs->setCurrentWidget(tab);
    return true;
}

void MainWindow::closeDialogs()
{
    // Dialogs of the old session (create key, token, confirmation) must not outlive it.
    for (QDialog *d : findChildren<QDialog *>())
        if (d->isVisible())
            d->reject();
}

void MainWindow::leaveConsole(const QString &notice, bool warning)
{
    const bool was = m_signedIn;
    m_signedIn = false;
    closeDialogs();
    m_keys->deactivate();
    m_signingKeys->deactivate();
    m_fonts->deactivate();
    m_usage->deactivate();
    m_preview->deactivate();
    m_studio->deactivate();
    m_me = {};
    m_stack->setCurrentWidget(m_signIn);
    m_signIn->reset();
    if (!notice.isEmpty())
        m_signIn->showNotice(notice, warning);
    if (was)
        Q_EMIT signedOut();
}

void MainWindow::signOut()
{
    m_client->logout(this, [](const client::ApiResult<bool> &) {});
    leaveConsole(tr("You have signed out."), false);
}

} // namespace gui
} // namespace imprint
