#include "gui/spacetab.h"

#include "gui/pageparts.h"
#include "gui/messagebanner.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QStackedWidget>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

namespace imprint {
namespace gui {

SpaceTab::SpaceTab(client::ApiClient *client, Audience audience, const QString &objectName,
                   const QString &messageObjectName, QWidget *parent)
    : QWidget(parent)
    , m_client(client)
    , m_message(new MessageBanner(this))
    , m_audience(audience)
{
    setObjectName(objectName);
    m_message->setObjectName(messageObjectName);
}

void SpaceTab::activate(const client::Me &me)
{
    m_active = true;
    m_message->clearMessage();
    clearData();
    if (m_audience == Audience::KeyManagers && !me.canManageKeys()) {
        showRolePage();
        return;
    }
    if (m_stack)
        m_stack->setCurrentIndex(0);
    reload();
}

void SpaceTab::deactivate()
{
    m_active = false;
    ++m_generation;
    m_loading = false;
    if (m_refresh)
        m_refresh->setEnabled(true);
    clearData();
    m_message->clearMessage();
}

QWidget *SpaceTab::withRolePage(QWidget *content, const QString &roleText, const QString &roleObjectName)
{
    auto *rolePage = new QWidget(this);
    auto *roleIcon = new QLabel(rolePage);
    roleIcon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxInformation).pixmap(48, 48));
    auto *roleMessage = new QLabel(roleText, rolePage);
    roleMessage->setObjectName(roleObjectName);
    roleMessage->setWordWrap(true);
    roleMessage->setAlignment(Qt::AlignCenter);
    QFont font = roleMessage->font();
    font.setPointSizeF(font.pointSizeF() * 1.15);
    roleMessage->setFont(font);
    auto *roleLayout = new QVBoxLayout(rolePage);
    roleLayout->addStretch();
    roleLayout->addWidget(roleIcon, 0, Qt::AlignHCenter);
    roleLayout->addWidget(roleMessage);
    roleLayout->addStretch();

    m_stack = new QStackedWidget(this);
    m_stack->addWidget(content);
    m_stack->addWidget(rolePage);
    return m_stack;
}

void SpaceTab::showRolePage()
{
    if (m_stack)
        m_stack->setCurrentIndex(1);
}

QPushButton *SpaceTab::makeRefreshButton(const QString &objectName, const QIcon &icon)
{
    m_refresh = new QPushButton(icon, tr("Re&fresh"), this);
    m_refresh->setObjectName(objectName);
    connect(m_refresh, &QPushButton::clicked, this, &SpaceTab::reload);
    return m_refresh;
}

QTableWidget *SpaceTab::makeListTable(const QString &objectName, const QStringList &headers, QPushButton *rowAction)
{
    auto *table = new QTableWidget(0, int(headers.size()), this);
    table->setObjectName(objectName);
    table->setHorizontalHeaderLabels(headers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    rowAction->setEnabled(false);
    connect(table, &QTableWidget::itemSelectionChanged, rowAction,
            [table, rowAction] { rowAction->setEnabled(!table->selectedItems().isEmpty()); });
    return table;
}

QWidget *SpaceTab::makeListPage(const QString &introText, const QList<QPushButton *> &actions, QTableWidget *table)
{
    auto *intro = new QLabel(introText, this);
    intro->setWordWrap(true);
    auto *buttons = new QHBoxLayout;
    for (QPushButton *action : actions)
        buttons->addWidget(action);
    buttons->addStretch(1);
    if (m_refresh)
        buttons->addWidget(m_refresh);
    return columnPage(this, {}, {intro, buttons, {table, 1}});
}

bool SpaceTab::showsRolePage() const
{
    return m_stack && m_stack->currentIndex() == 1;
}

std::optional<quint64> SpaceTab::beginLoad()
{
    if (!m_active)
        return std::nullopt;
    m_loading = true;
    if (m_refresh)
        m_refresh->setEnabled(false);
    return ++m_generation;
}

void SpaceTab::endLoad()
{
    m_loading = false;
    if (m_refresh)
        m_refresh->setEnabled(true);
}

bool SpaceTab::takeAnswer(quint64 generation, const client::ApiError *error)
{
    if (!isCurrent(generation))
        return false;
    endLoad();
    if (error)
        m_message->showMessage(error->humanMessage(), MessageBanner::Kind::Error);
    return true;
}


int SpaceTab::selectedRow(const QTableWidget *table, const QString &hint)
{
    const QList<QTableWidgetItem *> selected = table->selectedItems();
    if (selected.isEmpty()) {
        m_message->showMessage(hint, MessageBanner::Kind::Info);
        return -1;
    }
    return selected.first()->row();
}

} // namespace gui
} // namespace imprint
