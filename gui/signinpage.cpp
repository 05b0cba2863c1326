#include "gui/signinpage.h"

#include "gui/messagebanner.h"
#include "gui/pageparts.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace imprint {
namespace gui {

namespace {
const char *const kServerKey = "console/serverUrl";
const char *const kEmailKey = "console/email";
} // namespace

SignInPage::SignInPage(client::ApiClient *client, QWidget *parent)
    : QWidget(parent)
    , m_client(client)
{
    setObjectName(QStringLiteral("signInPage"));
    auto *title = new QLabel(tr("Imprint Console"), this);
    title->setObjectName(QStringLiteral("signInTitle"));
    QFont f = title->font();
    f.setPointSizeF(f.pointSizeF() * 1.8);
    f.setBold(true);
    title->setFont(f);
    auto *subtitle = new QLabel(tr("Sign in with your dashboard account to manage API keys "
                                   "and preview renders."),
                                this);
    subtitle->setWordWrap(true);

    m_server = namedWidget<QLineEdit>(this, QStringLiteral("serverEdit"));
    m_server->setPlaceholderText(tr("http://localhost:8080"));
    m_email = namedWidget<QLineEdit>(this, QStringLiteral("emailEdit"));
    m_email->setPlaceholderText(tr("you@example.com"));
    m_password = namedWidget<QLineEdit>(this, QStringLiteral("passwordEdit"));
    m_password->setEchoMode(QLineEdit::Password);

    m_signIn = new QPushButton(tr("Sign in"), this);
    m_signIn->setObjectName(QStringLiteral("signInButton"));
    m_signIn->setDefault(true);
    m_busy = makeBusyBar(this, QStringLiteral("signInBusy"), 6);
    m_message = new MessageBanner(this);
    m_message->setObjectName(QStringLiteral("signInMessage"));

    auto *box = new QGroupBox(this);
    box->setMaximumWidth(460);
    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("&Server:"), m_server);
    form->addRow(tr("&Email:"), m_email);
    form->addRow(tr("&Password:"), m_password);
    auto *boxLayout = new QVBoxLayout(box);
    boxLayout->addWidget(title);
    boxLayout->addWidget(subtitle);
    boxLayout->addSpacing(8);
    boxLayout->addWidget(m_message);
    boxLayout->addLayout(form);
    boxLayout->addWidget(m_busy);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(m_signIn);
    boxLayout->addLayout(buttons);

    auto *outer = new QVBoxLayout(this);
    outer->addStretch(1);
    auto *row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(box, 3);
    row->addStretch(1);
    outer->addLayout(row);
    outer->addStretch(2);

    QSettings settings;
    m_server->setText(settings.value(QLatin1String(kServerKey), QStringLiteral("http://localhost:8080")).toString());
    m_email->setText(settings.value(QLatin1String(kEmailKey)).toString());

    connect(m_signIn, &QPushButton::clicked, this, &SignInPage::submit);
    connect(m_password, &QLineEdit::returnPressed, this, &SignInPage::submit);
    connect(m_email, &QLineEdit::returnPressed, m_password, qOverload<>(&QWidget::setFocus));
    connect(m_server, &QLineEdit::returnPressed, m_email, qOverload<>(&QWidget::setFocus));
}

void SignInPage::setServerUrl(const QString &url, bool locked)
{
    m_server->setText(url);
    m_server->setReadOnly(locked);
}

void SignInPage::setEmail(const QString &email)
{
    m_email->setText(email);
}

void SignInPage::showNotice(const QString &text, bool warning)
{
    m_message->showMessage(text, warning ? MessageBanner::Kind::Warning : MessageBanner::Kind::Info);
}

void SignInPage::reset()
{
    m_password->clear();
    m_message->clearMessage();
    setBusy(false);
    if (m_server->text().isEmpty())
        m_server->setFocus();
    else if (m_email->text().isEmpty())
        m_email->setFocus();
    else
        m_password->setFocus();
}

void SignInPage::setBusy(bool busy)
{
    m_busy->setVisible(busy);
    m_signIn->setEnabled(!busy);
    m_server->setEnabled(!busy);
    m_email->setEnabled(!busy);
    m_password->setEnabled(!busy);
}

void SignInPage::fail(const QString &message)
{
    m_message->showMessage(message, MessageBanner::Kind::Error);
    Q_EMIT signInFailed(message);
}

void SignInPage::submit()
{
    if (!m_signIn->isEnabled())
        return;
    const QUrl server = client::ApiClient::normalizeServerUrl(m_server->text());
    const QString email = m_email->text().trimmed();
    if (!server.isValid()) {
        fail(tr("Enter the server address, for example http://localhost:8080."));
        m_server->setFocus();
        return;
    }
    if (email.isEmpty() || !email.contains(QLatin1Char('@'))) {
        fail(tr("Enter the email address of your account."));
        m_email->setFocus();
        return;
    }
    if (m_password->text().isEmpty()) {
        fail(tr("Enter your password."));
        m_password->setFocus();
        return;
    }
    m_message->showMessage(tr("Signing in to %1…").arg(server.toString()), MessageBanner::Kind::Info);
    setBusy(true);
    m_client->setServerUrl(server);
    m_client->login(email, m_password->text(), this, [this, server, email](const client::ApiResult<client::Me> &r) {
        setBusy(false);
        if (!r.has_value()) {
            fail(r.error().humanMessage());
            m_password->selectAll();
            m_password->setFocus();
            return;
        }
        QSettings settings;
        if (!m_server->isReadOnly())
            settings.setValue(QLatin1String(kServerKey), server.toString());
        settings.setValue(QLatin1String(kEmailKey), email);
        m_server->setText(server.toString());
        m_password->clear();
        m_message->clearMessage();
        Q_EMIT signedIn(r.value());
    });
}

} // namespace gui
} // namespace imprint
