#include "gui/keydialogs.h"

#include "gui/messagebanner.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QStyle>
#include <QTimer>
#include <QVBoxLayout>

namespace imprint {
namespace gui {

CreateKeyDialog::CreateKeyDialog(client::ApiClient *client, QWidget *parent)
    : QDialog(parent)
    , m_client(client)
{
    setObjectName(QStringLiteral("createKeyDialog"));
    setWindowTitle(tr("New API key"));
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("keyNameEdit"));
    m_name->setPlaceholderText(tr("e.g. Production website"));
    m_name->setMaxLength(100);
    m_expires = new QCheckBox(tr("Expires on"), this);
    m_expires->setObjectName(QStringLiteral("expiresCheck"));
    m_expiry = new QDateTimeEdit(QDateTime::currentDateTime().addDays(90), this);
    m_expiry->setObjectName(QStringLiteral("expiresEdit"));
    m_expiry->setCalendarPopup(true);
    m_expiry->setMinimumDateTime(QDateTime::currentDateTime().addSecs(60));
    m_expiry->setEnabled(false);
    m_message = new MessageBanner(this);
    m_message->setObjectName(QStringLiteral("createKeyMessage"));

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_create = m_buttons->addButton(tr("Create key"), QDialogButtonBox::AcceptRole);
    m_create->setObjectName(QStringLiteral("createKeyButton"));
    m_create->setDefault(true);
    m_create->setEnabled(false);

    auto *expiryRow = new QHBoxLayout;
    expiryRow->addWidget(m_expires);
    expiryRow->addWidget(m_expiry, 1);
    auto *form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("Expiry:"), expiryRow);
    form->addRow(tr("Scopes:"), buildScopeChecks());
    auto *hint = new QLabel(tr("The key's token is shown once, right after it is created."), this);
    hint->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(hint);
    layout->addWidget(m_message);
    layout->addWidget(m_buttons);
    setMinimumWidth(420);

    connect(m_expires, &QCheckBox::toggled, m_expiry, &QWidget::setEnabled);
    connect(m_name, &QLineEdit::textChanged, this, &CreateKeyDialog::updateCreateEnabled);
    // Accepting goes through the server first; the dialog closes only on success.
    disconnect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &CreateKeyDialog::submit);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

QLayout *CreateKeyDialog::buildScopeChecks()
{
    auto *column = new QVBoxLayout;
    for (const auto &[scope, name] : common::kKeyScopeNames.entries) {
        auto *check = new QCheckBox(keyScopeLabel(scope), this);
        check->setObjectName(QStringLiteral("scopeCheck_") + QLatin1String(name));
        check->setToolTip(keyScopeDescription(scope));
        check->setChecked(scope == common::kDefaultKeyScope);
        connect(check, &QCheckBox::toggled, this, &CreateKeyDialog::updateCreateEnabled);
        column->addWidget(check);
        m_scopeChecks.emplace_back(scope, check);
    }
    return column;
}

QList<common::KeyScope> CreateKeyDialog::scopes() const
{
    QList<common::KeyScope> out;
    for (const auto &[scope, check] : m_scopeChecks) {
        if (check->isChecked())
            out.append(scope);
    }
    return out;
}

// A key needs a name and at least one scope (the server refuses an empty list).
void CreateKeyDialog::updateCreateEnabled()
{
    m_create->setEnabled(!m_name->text().trimmed().isEmpty() && !scopes().isEmpty());
}

void CreateKeyDialog::submit()
{
    const QString name = m_name->text().trimmed();
    if (name.isEmpty() || !m_create->isEnabled())
        return;
    const QDateTime expiry = m_expires->isChecked() ? m_expiry->dateTime() : QDateTime();
    if (expiry.isValid() && expiry <= QDateTime::currentDateTime()) {
        m_message->showMessage(tr("Choose an expiry date in the future."), MessageBanner::Kind::Error);
        return;
    }
    m_create->setEnabled(false);
    m_name->setEnabled(false);
    m_message->showMessage(tr("Creating the key…"), MessageBanner::Kind::Info);
    m_client->createKey(name, expiry, scopes(), this, [this](const client::ApiResult<client::CreatedKey> &r) {
        m_name->setEnabled(true);
        m_create->setEnabled(true);
        if (!r.has_value()) {
            m_message->showMessage(r.error().humanMessage(), MessageBanner::Kind::Error);
            return;
        }
        if (r.value().token.isEmpty()) {
            m_message->showMessage(tr("The server created the key but did not send its token."),
                                   MessageBanner::Kind::Error);
            return;
        }
        Q_EMIT created(r.value());
        accept();
    });
}

TokenDialog::TokenDialog(const QString &keyName, const QString &token, QWidget *parent)
    : TokenDialog(tr("API key created"), tr("The key “%1” has been created. This is its token:").arg(keyName), token,
                  tr("Copy it now and keep it somewhere safe: it will not be shown "
                     "again. If you lose it, revoke this key and create a new one."),
                  parent)
{ }

TokenDialog::TokenDialog(const QString &title, const QString &introText, const QString &token,
                         const QString &warningText, QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("tokenDialog"));
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(title);
    auto *icon = new QLabel(this);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(32, 32));
    auto *intro = new QLabel(introText, this);
    intro->setWordWrap(true);
    m_token = new QLineEdit(token, this);
    m_token->setObjectName(QStringLiteral("tokenEdit"));
    m_token->setReadOnly(true);
    m_token->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_token->setMinimumWidth(m_token->fontMetrics().horizontalAdvance(token) + 24);
    m_copy = new QPushButton(tr("&Copy"), this);
    m_copy->setObjectName(QStringLiteral("copyTokenButton"));
    auto *warning = new QLabel(warningText, this);
    warning->setObjectName(QStringLiteral("tokenWarning"));
    warning->setWordWrap(true);
    warning->setStyleSheet(QStringLiteral("font-weight: 600;"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->button(QDialogButtonBox::Close)->setText(tr("I have copied it"));
    buttons->button(QDialogButtonBox::Close)->setObjectName(QStringLiteral("tokenDoneButton"));

    auto *tokenRow = new QHBoxLayout;
    tokenRow->addWidget(m_token, 1);
    tokenRow->addWidget(m_copy);
    auto *textCol = new QVBoxLayout;
    textCol->addWidget(intro);
    textCol->addLayout(tokenRow);
    textCol->addWidget(warning);
    auto *top = new QHBoxLayout;
    top->addWidget(icon, 0, Qt::AlignTop);
    top->addLayout(textCol, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(buttons);

    connect(m_copy, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(m_token->text());
        m_copy->setText(tr("Copied"));
        QTimer::singleShot(2000, m_copy, [this] { m_copy->setText(tr("&Copy")); });
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
}

QString keyScopeLabel(common::KeyScope scope)
{
    switch (scope) {
    case common::KeyScope::Render: return CreateKeyDialog::tr("&Render images");
    case common::KeyScope::Content: return CreateKeyDialog::tr("Manage &content");
    case common::KeyScope::Webhooks: return CreateKeyDialog::tr("Manage &webhooks");
    }
    return {};
}

QString keyScopeDescription(common::KeyScope scope)
{
    switch (scope) {
    case common::KeyScope::Render: return CreateKeyDialog::tr("The key may render images: /render and batches of renders (/renders).");
    case common::KeyScope::Content:
        return CreateKeyDialog::tr("The key may create, change and delete the space's templates, pages, fonts and "
                                   "assets, as a build pipeline does.");
    case common::KeyScope::Webhooks:
        return CreateKeyDialog::tr("The key may register, list and remove the space's webhooks.");
    }
    return {};
}

void confirmDestructive(QWidget *parent, const DestructiveConfirmation &text, std::function<void()> onConfirm)
{
    auto *box = new QMessageBox(QMessageBox::Warning, text.title, text.question, QMessageBox::NoButton, parent);
    box->setObjectName(text.objectName);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setInformativeText(text.consequence);
    QPushButton *revokeButton = box->addButton(text.confirmText, QMessageBox::DestructiveRole);
    revokeButton->setObjectName(text.confirmObjectName);
    QPushButton *cancel = box->addButton(QMessageBox::Cancel);
    if (!text.cancelObjectName.isEmpty())
        cancel->setObjectName(text.cancelObjectName);
    box->setDefaultButton(cancel);
    box->setEscapeButton(cancel);
    QObject::connect(box, &QMessageBox::buttonClicked, box,
                     [revokeButton, onConfirm = std::move(onConfirm)](QAbstractButton *b) {
                         if (b == revokeButton)
                             onConfirm();
                     });
    box->open();
}

} // namespace gui
} // namespace imprint
