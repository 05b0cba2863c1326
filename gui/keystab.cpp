#include "gui/keystab.h"

#include "gui/pageparts.h"
#include "gui/keydialogs.h"
#include "gui/keysmodel.h"
#include "gui/messagebanner.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

namespace imprint {
namespace gui {

KeysTab::KeysTab(client::ApiClient *client, QWidget *parent)
    : SpaceTab(client, Audience::KeyManagers, QStringLiteral("keysTab"), QStringLiteral("keysMessage"), parent)
    , m_model(new KeysModel(this))
{
    m_new = new QPushButton(style()->standardIcon(QStyle::SP_FileIcon), tr("&New key…"), this);
    m_new->setObjectName(QStringLiteral("newKeyButton"));
    m_revoke = new QPushButton(style()->standardIcon(QStyle::SP_TrashIcon), tr("&Revoke…"), this);
    m_revoke->setObjectName(QStringLiteral("revokeButton"));
    m_revoke->setEnabled(false);
    QPushButton *refresh
        = makeRefreshButton(QStringLiteral("refreshButton"), style()->standardIcon(QStyle::SP_BrowserReload));
    m_countLabel = new QLabel(this);
    m_countLabel->setObjectName(QStringLiteral("countLabel"));

    auto *toolbar = new QHBoxLayout;
    toolbar->addWidget(m_new);
    toolbar->addWidget(m_revoke);
    toolbar->addWidget(refresh);
    toolbar->addStretch();
    toolbar->addWidget(m_countLabel);

    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("keysTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 10);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(KeysModel::Name, QHeaderView::Stretch);
    m_table->horizontalHeader()->setHighlightSections(false);

    m_first = new QPushButton(tr("« First"), this);
    m_first->setObjectName(QStringLiteral("firstPageButton"));
    m_prev = new QPushButton(tr("‹ Previous"), this);
    m_prev->setObjectName(QStringLiteral("prevPageButton"));
    m_next = new QPushButton(tr("Next ›"), this);
    m_next->setObjectName(QStringLiteral("nextPageButton"));
    m_last = new QPushButton(tr("Last »"), this);
    m_last->setObjectName(QStringLiteral("lastPageButton"));
    m_pageLabel = new QLabel(this);
    m_pageLabel->setObjectName(QStringLiteral("pageLabel"));
    m_pageLabel->setAlignment(Qt::AlignCenter);
    m_pageLabel->setMinimumWidth(120);
    m_perPageCombo = new QComboBox(this);
    m_perPageCombo->setObjectName(QStringLiteral("perPageCombo"));
    for (int n : {10, 20, 50, 100})
        m_perPageCombo->addItem(QString::number(n), n);
    m_perPageCombo->setCurrentIndex(1);
    auto *perPageLabel = new QLabel(tr("Keys per page:"), this);
    perPageLabel->setBuddy(m_perPageCombo);

    auto *nav = new QHBoxLayout;
    nav->addWidget(m_first);
    nav->addWidget(m_prev);
    nav->addWidget(m_pageLabel);
    nav->addWidget(m_next);
    nav->addWidget(m_last);
    nav->addStretch();
    nav->addWidget(perPageLabel);
    nav->addWidget(m_perPageCombo);

    QWidget *tablePage = columnPage(this, {}, {toolbar, m_message, {m_table, 1}, nav});

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(withRolePage(tablePage,
                                   tr("You need the owner or admin role to manage API keys.\n"
                                      "Ask an owner of this space to change your role, "
                                      "then sign in again."),
                                   QStringLiteral("roleMessage")));

    connect(m_first, &QPushButton::clicked, this, [this] { goToPage(1); });
    connect(m_prev, &QPushButton::clicked, this, [this] { goToPage(m_page - 1); });
    connect(m_next, &QPushButton::clicked, this, [this] { goToPage(m_page + 1); });
    connect(m_last, &QPushButton::clicked, this, [this] { goToPage(m_pagesCount); });
    connect(m_perPageCombo, &QComboBox::currentIndexChanged, this,
            [this](int i) { setPerPage(m_perPageCombo->itemData(i).toInt()); });
    connect(m_new, &QPushButton::clicked, this, &KeysTab::createKey);
    connect(m_revoke, &QPushButton::clicked, this, &KeysTab::revokeSelected);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { m_revoke->setEnabled(m_table->selectionModel()->hasSelection()); });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] { m_revoke->setEnabled(false); });
    connect(m_table, &QTableView::activated, this, [this] { m_revoke->setEnabled(true); });
    updateNavigation();
}

void KeysTab::clearData()
{
    m_model->clear();
    m_page = 1;
    m_count = 0;
    m_pagesCount = 1;
}

void KeysTab::reload()
{
    load(m_page);
}

void KeysTab::goToPage(int page)
{
    load(qBound(1, page, qMax(1, m_pagesCount)));
}

void KeysTab::setPerPage(int perPage)
{
    if (perPage <= 0 || perPage == m_perPage)
        return;
    // Keep the first key of the current page in view.
    const int firstIndex = (m_page - 1) * m_perPage;
    m_perPage = perPage;
    const int idx = m_perPageCombo->findData(perPage);
    if (idx >= 0 && idx != m_perPageCombo->currentIndex())
        m_perPageCombo->setCurrentIndex(idx);
    if (!showsRolePage())
        load(firstIndex / perPage + 1); // nothing while inactive
}

void KeysTab::load(int page, bool quiet)
{
    const auto started = beginLoad();
    if (!started)
        return;
    const quint64 generation = *started;
    if (!quiet)
        m_pageLabel->setText(tr("Loading…"));
    updateNavigation();
    m_client->listKeys(page, m_perPage, this,
                       [this, generation, page, quiet](const client::ApiResult<client::KeyPage> &r) {
                           if (!isCurrent(generation))
                               return;
                           endLoad();
                           if (!r.has_value()) {
                               if (r.error().isForbidden()) {
                                   showRolePage();
                               } else {
                                   m_message->showMessage(r.error().humanMessage(), MessageBanner::Kind::Error);
                               }
                               updateNavigation();
                               Q_EMIT loaded();
                               return;
                           }
                           const client::KeyPage &p = r.value();
                           // A page past the end (keys revoked elsewhere): show the last one instead.
                           if (p.list.isEmpty() && p.count > 0 && page > p.pagesCount) {
                               load(p.pagesCount, quiet);
                               return;
                           }
                           m_page = p.page;
                           m_pagesCount = qMax(1, p.pagesCount);
                           m_count = p.count;
                           m_model->setKeys(p.list);
                           if (!quiet && m_message->kind() == MessageBanner::Kind::Error)
                               m_message->clearMessage();
                           updateNavigation();
                           Q_EMIT loaded();
                       });
}

void KeysTab::updateNavigation()
{
    const bool idle = !isLoading();
    m_first->setEnabled(idle && m_page > 1);
    m_prev->setEnabled(idle && m_page > 1);
    m_next->setEnabled(idle && m_page < m_pagesCount);
    m_last->setEnabled(idle && m_page < m_pagesCount);
    refreshButton()->setEnabled(idle);
    m_perPageCombo->setEnabled(idle);
    if (!isLoading())
        m_pageLabel->setText(tr("Page %1 of %2").arg(m_page).arg(m_pagesCount));
    m_countLabel->setText(m_count == 0 && m_model->rowCount() == 0 && !isLoading()
                              ? tr("No active keys")
                              : tr("%n active key(s)", nullptr, m_count));
    m_table->setEnabled(true);
}

void KeysTab::createKey()
{
    auto *dialog = new CreateKeyDialog(m_client, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &CreateKeyDialog::created, this, [this](const client::CreatedKey &created) {
        m_message->showMessage(tr("The key “%1” was created.").arg(created.key.name), MessageBanner::Kind::Success);
        Q_EMIT keyCreated(created.token);
        auto *tokenDialog = new TokenDialog(created.key.name, created.token, this);
        tokenDialog->open();
        load(m_page, true);
    });
    dialog->open();
}

void KeysTab::revokeSelected()
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    if (rows.isEmpty()) {
        m_message->showMessage(tr("Select the key to revoke first."), MessageBanner::Kind::Info);
        return;
    }
    const client::ApiKey key = m_model->keyAt(rows.first().row());
    confirmDestructive(this,
                  {tr("Revoke API key"), tr("Revoke the key “%1” (%2…)?").arg(key.name, key.prefix),
                   tr("Applications using this key stop working immediately. "
                      "This cannot be undone."),
                   tr("Revoke key"), QStringLiteral("revokeConfirm"), QStringLiteral("confirmRevokeButton"),
                   QStringLiteral("cancelRevokeButton")},
                  [this, key] { revoke(key.id, key.name); });
}

void KeysTab::revoke(const QString &id, const QString &name)
{
    m_revoke->setEnabled(false);
    m_client->revokeKey(id, this, [this, id, name](const client::ApiResult<QString> &r) {
        if (!r.has_value()) {
            if (r.error().isNotFound()) {
                m_message->showMessage(tr("The key “%1” had already been revoked elsewhere. "
                                          "The list has been refreshed.")
                                           .arg(name),
                                       MessageBanner::Kind::Warning);
                load(m_page, true);
            } else {
                m_message->showMessage(r.error().humanMessage(), MessageBanner::Kind::Error);
            }
            return;
        }
        if (m_model->removeKey(id))
            m_count = qMax(0, m_count - 1);
        m_message->showMessage(tr("The key “%1” was revoked.").arg(name), MessageBanner::Kind::Success);
        updateNavigation();
        load(m_page, true); // refill the page from the server
    });
}

} // namespace gui
} // namespace imprint
