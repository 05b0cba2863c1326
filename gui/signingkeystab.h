#pragma once
// The Signing keys tab: the space's URL-signing keys (name, id, created), create with the
// secret shown once, revoke with confirmation, and the "no role" state — the API keys
// tab's counterpart for signed render URLs (docs/api.md, Signed URLs).

#include "gui/spacetab.h"

class QPushButton;
class QTableWidget;

namespace imprint {
namespace gui {

/// Owners and admins see the keys; members see the role page.
class SigningKeysTab : public SpaceTab
{
    Q_OBJECT
public:
    explicit SigningKeysTab(client::ApiClient *client, QWidget *parent = nullptr);

    /// Loads the keys again from the server.
    void reload() override;
    /// Asks for a name, creates the key and shows its secret once.
    void createKey();
    /// Asks for confirmation, then revokes the selected key.
    void revokeSelected();

    /// The keys on show, newest first.
    /// (loaded() follows every create and revoke too, so the Preview tab's choice of keys follows.)
    const QList<client::SigningKey> &keys() const { return m_keys; }

private:
    void clearData() override;
    void fillTable();
    void revoke(const QString &id, const QString &name);

    QTableWidget *m_table;
    QPushButton *m_new;
    QPushButton *m_revoke;
    QList<client::SigningKey> m_keys;
};

} // namespace gui
} // namespace imprint
