#pragma once
// Sign-in page: server address (remembered in QSettings), email, password. Wrong
// credentials, an unreachable server and rate limiting are shown as sentences.

#include "shared/apiclient.h"

#include <QWidget>

class QLineEdit;
class QPushButton;
class QProgressBar;

namespace imprint {
namespace gui {

class MessageBanner;

class SignInPage : public QWidget
{
    Q_OBJECT
public:
    explicit SignInPage(client::ApiClient *client, QWidget *parent = nullptr);

    /// Fixes the server address (local desktop mode, `--server`): shown, not editable
    /// when `locked`.
    void setServerUrl(const QString &url, bool locked);
    void setEmail(const QString &email);
    /// A message shown above the form, e.g. after the session expired.
    void showNotice(const QString &text, bool warning = true);
    void reset(); // clears password and messages, focuses the first empty field
    void submit();

Q_SIGNALS:
    void signedIn(const imprint::client::Me &me);
    /// A submit that did not sign in: the form was incomplete or the server refused it;
    /// `message` is the text the page shows (scripted runs report it and exit non-zero).
    void signInFailed(const QString &message);

private:
    void setBusy(bool busy);
    void fail(const QString &message);

    client::ApiClient *m_client;
    QLineEdit *m_server;
    QLineEdit *m_email;
    QLineEdit *m_password;
    QPushButton *m_signIn;
    QProgressBar *m_busy;
    MessageBanner *m_message;
};

} // namespace gui
} // namespace imprint
