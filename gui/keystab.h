#pragma once
// The Keys tab: one server page of the space's API keys in a table, page navigation
// driven by the server's count/pagesCount, create, revoke, and the "no role" state.

#include "shared/apiclient.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QStackedWidget;
class QTableView;

namespace imprint {
namespace gui {

class KeysModel;
class MessageBanner;

class KeysTab : public QWidget
{
    Q_OBJECT
public:
    explicit KeysTab(client::ApiClient *client, QWidget *parent = nullptr);

    /// Starts showing the keys for this account (or the role message for members).
    void activate(const client::Me &me);
    void deactivate();
    void reload();
    void goToPage(int page);
    void setPerPage(int perPage);
    void createKey();
    void revokeSelected();

    int page() const { return m_page; }
    int pagesCount() const { return m_pagesCount; }
    int count() const { return m_count; }
    int perPage() const { return m_perPage; }
    bool isLoading() const { return m_loading; }
    KeysModel *model() const { return m_model; }

Q_SIGNALS:
    /// A key was created; its token is offered to the preview for renders.
    void keyCreated(const QString &token);
    void loaded();

private:
    void load(int page, bool quiet = false);
    void updateNavigation();
    void showRoleState();
    void revoke(const QString &id, const QString &name);

    client::ApiClient *m_client;
    KeysModel *m_model;
    QStackedWidget *m_stack;
    QTableView *m_table;
    QPushButton *m_new;
    QPushButton *m_revoke;
    QPushButton *m_refresh;
    QPushButton *m_first;
    QPushButton *m_prev;
    QPushButton *m_next;
    QPushButton *m_last;
    QLabel *m_pageLabel;
    QLabel *m_countLabel;
    QComboBox *m_perPageCombo;
    MessageBanner *m_message;
    QLabel *m_roleMessage;
    int m_page = 1;
    int m_pagesCount = 1;
    int m_count = 0;
    int m_perPage = 20;
    bool m_loading = false;
    bool m_active = false;
    quint64 m_generation = 0; // answers of superseded loads are dropped
};

} // namespace gui
} // namespace imprint
