#pragma once
// The Signing keys tab: the space's URL-signing keys (name, id, created), create with the
// secret shown once, revoke with confirmation, and the "no role" state — the API keys
// tab's counterpart for signed render URLs (docs/api.md, Signed URLs).

#include "shared/apiclient.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QStackedWidget;
class QTableWidget;

namespace imprint {
namespace gui {

class MessageBanner;

class SigningKeysTab : public QWidget
{
    Q_OBJECT
public:
    explicit SigningKeysTab(client::ApiClient *client, QWidget *parent = nullptr);

    /// Starts showing the keys for this account (or the role message for members).
    void activate(const client::Me &me);
    /// Forgets the keys of the session that ended.
    void deactivate();
    /// Loads the keys again from the server.
    void reload();
    /// Asks for a name, creates the key and shows its secret once.
    void createKey();
    /// Asks for confirmation, then revokes the selected key.
    void revokeSelected();

    /// The keys on show, newest first.
    const QList<client::SigningKey> &keys() const { return m_keys; }
    bool isLoading() const { return m_loading; }

Q_SIGNALS:
    /// The list was loaded from the server (also after every create and revoke, so the
    /// Preview tab's choice of keys follows).
    void loaded();

private:
    void fillTable();
    void revoke(const QString &id, const QString &name);

    client::ApiClient *m_client;
    QStackedWidget *m_stack;
    QTableWidget *m_table;
    QPushButton *m_new;
    QPushButton *m_revoke;
    QPushButton *m_refresh;
    MessageBanner *m_message;
    QLabel *m_roleMessage;
    QList<client::SigningKey> m_keys;
    bool m_loading = false;
    bool m_active = false;
    quint64 m_generation = 0; // answers of superseded loads are dropped
};

} // namespace gui
} // namespace imprint
