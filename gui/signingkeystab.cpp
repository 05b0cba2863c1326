#include "gui/signingkeystab.h"

#include "gui/keydialogs.h"
#include "gui/messagebanner.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace imprint {
namespace gui {

namespace {
// The server's own cap (SigningKeyService::kMaxPerPage): a space has a handful of them.
constexpr int kPerPage = 100;
} // namespace

SigningKeysTab::SigningKeysTab(client::ApiClient *client, QWidget *parent)
    : SpaceTab(client, Audience::KeyManagers, QStringLiteral("signingKeysTab"), QStringLiteral("signingKeysMessage"),
               parent)
{
    m_new = new QPushButton(tr("&New signing key…"), this);
    m_new->setObjectName(QStringLiteral("newSigningKeyButton"));
    m_revoke = new QPushButton(tr("&Revoke…"), this);
    m_revoke->setObjectName(QStringLiteral("revokeSigningKeyButton"));
    makeRefreshButton(QStringLiteral("refreshSigningKeysButton"));
    m_table = makeListTable(QStringLiteral("signingKeysTable"), {tr("Name"), tr("ID"), tr("Created")}, m_revoke);
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    QWidget *list = makeListPage(tr("Signing keys sign render URLs, so that an image can be embedded "
                                    "(e.g. as og:image) without an API key in the page."),
                                 {m_new, m_revoke}, m_table);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_message);
    layout->addWidget(withRolePage(list,
                                   tr("You need the owner or admin role to manage signing keys.\n"
                                      "Ask an owner of this space to change your role, then sign in again."),
                                   QStringLiteral("signingKeysRoleMessage")),
                      1);

    connect(m_new, &QPushButton::clicked, this, &SigningKeysTab::createKey);
    connect(m_revoke, &QPushButton::clicked, this, &SigningKeysTab::revokeSelected);
}

void SigningKeysTab::clearData()
{
    m_keys.clear();
    fillTable();
}

void SigningKeysTab::reload()
{
    const auto generation = beginLoad();
    if (!generation)
        return;
    m_client->listSigningKeys(1, kPerPage, this,
                              [this, generation](const client::ApiResult<client::SigningKeyPage> &r) {
                                  if (!takeAnswer(*generation, r))
                                      return;
                                  if (r.has_value()) {
                                      m_keys = r.value().list;
                                      fillTable();
                                  }
                                  Q_EMIT loaded();
                              });
}

void SigningKeysTab::fillTable()
{
    m_table->setRowCount(0);
    const QLocale locale;
    for (const client::SigningKey &k : std::as_const(m_keys)) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        m_table->setItem(row, 0, new QTableWidgetItem(k.name));
        m_table->setItem(row, 1, new QTableWidgetItem(k.id));
        m_table->setItem(row, 2,
                         new QTableWidgetItem(locale.toString(k.createdAt.toLocalTime(), QLocale::ShortFormat)));
    }
    m_revoke->setEnabled(!m_table->selectedItems().isEmpty());
}

void SigningKeysTab::createKey()
{
    auto *dialog = new QInputDialog(this);
    dialog->setObjectName(QStringLiteral("createSigningKeyDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("New signing key"));
    dialog->setLabelText(tr("Name (e.g. the site that embeds the images):"));
    dialog->setOkButtonText(tr("Create"));
    connect(dialog, &QInputDialog::textValueSelected, this, [this](const QString &name) {
        m_new->setEnabled(false);
        m_client->createSigningKey(name.trimmed(), this, [this](const client::ApiResult<client::CreatedSigningKey> &r) {
            m_new->setEnabled(true);
            if (!r.has_value()) {
                m_message->showMessage(r.error().humanMessage(), MessageBanner::Kind::Error);
                return;
            }
            const client::CreatedSigningKey &created = r.value();
            m_message->showMessage(tr("The signing key “%1” was created.").arg(created.key.name),
                                   MessageBanner::Kind::Success);
            // The secret lives in this dialog only, which deletes itself on close.
            auto *secretDialog = new TokenDialog(tr("Signing key created"),
                                                 tr("The signing key “%1” (%2) has been created. This is its secret:")
                                                     .arg(created.key.name, created.key.id),
                                                 created.secret,
                                                 tr("Copy it now if a program of yours signs URLs itself: it will not "
                                                    "be shown again. The console does not need it: “Copy signed URL” "
                                                    "in Preview asks the server to sign."),
                                                 this);
            secretDialog->open();
            reload();
        });
    });
    dialog->open();
}

void SigningKeysTab::revokeSelected()
{
    const int row = selectedRow(m_table, tr("Select the signing key to revoke first."));
    if (row < 0)
        return;
    const client::SigningKey key = m_keys.value(row);
    confirmDestructive(this,
                  {tr("Revoke signing key"), tr("Revoke the signing key “%1” (%2)?").arg(key.name, key.id),
                   tr("Every URL signed with this key stops working immediately. This cannot be undone."),
                   tr("Revoke key"), QStringLiteral("revokeSigningKeyConfirm"),
                   QStringLiteral("confirmRevokeSigningKeyButton"), QString()},
                  [this, key] { revoke(key.id, key.name); });
}

void SigningKeysTab::revoke(const QString &id, const QString &name)
{
    m_revoke->setEnabled(false);
    m_client->revokeSigningKey(id, this, [this, name](const client::ApiResult<QString> &r) {
        if (!r.has_value()) {
            if (r.error().isNotFound())
                m_message->showMessage(
                    tr("The signing key “%1” had already been revoked elsewhere. The list has been refreshed.")
                        .arg(name),
                    MessageBanner::Kind::Warning);
            else
                m_message->showMessage(r.error().humanMessage(), MessageBanner::Kind::Error);
        } else {
            m_message->showMessage(tr("The signing key “%1” was revoked.").arg(name), MessageBanner::Kind::Success);
        }
        reload();
    });
}

} // namespace gui
} // namespace imprint
