#pragma once
// Create-key dialog (name, optional expiry, scopes), the one-time token dialog, and the
// confirmation every destructive action of the console shares (revoking an API key or a
// signing key, deleting a font).

#include "shared/apiclient.h"

#include <QDialog>

#include <functional>
#include <utility>
#include <vector>

class QCheckBox;
class QDateTimeEdit;
class QDialogButtonBox;
class QLayout;
class QLineEdit;
class QPushButton;

namespace imprint {
namespace gui {

class MessageBanner;

/// Asks for a name, an optional expiry and the key's scopes (one checkbox per row of
/// server/common/key_scopes.h, render checked), creates the key on the server and emits
/// created() — it stays open with the error shown when the server refuses.
class CreateKeyDialog : public QDialog
{
    Q_OBJECT
public:
    explicit CreateKeyDialog(client::ApiClient *client, QWidget *parent = nullptr);
    void submit();
    /// The scopes ticked, in the table's order.
    QList<common::KeyScope> scopes() const;

Q_SIGNALS:
    void created(const imprint::client::CreatedKey &key);

private:
    QLayout *buildScopeChecks();
    void updateCreateEnabled();

    client::ApiClient *m_client;
    QLineEdit *m_name;
    std::vector<std::pair<common::KeyScope, QCheckBox *>> m_scopeChecks;
    QCheckBox *m_expires;
    QDateTimeEdit *m_expiry;
    QDialogButtonBox *m_buttons;
    QPushButton *m_create;
    MessageBanner *m_message;
};

/// Shows a freshly created token once, with a copy button and a warning. Deletes
/// itself (and the token text) when closed.
class TokenDialog : public QDialog
{
    Q_OBJECT
public:
    TokenDialog(const QString &keyName, const QString &token, QWidget *parent = nullptr);
    /// The same for another secret shown once (a signing key's): its own title, the
    /// sentence before it and the warning after it.
    TokenDialog(const QString &title, const QString &intro, const QString &secret, const QString &warning,
                QWidget *parent = nullptr);

private:
    QLineEdit *m_token;
    QPushButton *m_copy;
};

/// The console's name of `scope` for a checkbox (translated, with a mnemonic), and the
/// sentence its tooltip shows: what a key with it may reach (docs/api.md, "API key scopes").
QString keyScopeLabel(common::KeyScope scope);
QString keyScopeDescription(common::KeyScope scope);

/// The words (already translated by the calling tab) and object names of one kind's
/// confirmation of a destructive action.
struct DestructiveConfirmation {
    QString title; ///< e.g. "Revoke API key"
    QString question; ///< names the key
    QString consequence; ///< what stops working
    QString confirmText; ///< the destructive button, e.g. "Revoke key", "Delete font"
    QString objectName; ///< of the message box
    QString confirmObjectName; ///< of the destructive button
    QString cancelObjectName; ///< of Cancel (empty: none)
};

/// Opens the warning box of `text` over `parent` (window-modal, deleted when closed),
/// Cancel the default and Escape; `onConfirm` runs when the user chooses the destructive button.
void confirmDestructive(QWidget *parent, const DestructiveConfirmation &text, std::function<void()> onConfirm);

} // namespace gui
} // namespace imprint
