#pragma once
// The Keys tab: one server page of the space's API keys in a table, page navigation
// driven by the server's count/pagesCount, create, revoke, and the "no role" state.

#include "gui/spacetab.h"

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

namespace imprint {
namespace gui {

class KeysModel;

/// Owners and admins see the keys; members see the role page.
class KeysTab : public SpaceTab
{
    Q_OBJECT
public:
    explicit KeysTab(client::ApiClient *client, QWidget *parent = nullptr);

    /// Loads the page on show again.
    void reload() override;
    void goToPage(int page);
    void setPerPage(int perPage);
    void createKey();
    void revokeSelected();

    int page() const { return m_page; }
    int pagesCount() const { return m_pagesCount; }
    int count() const { return m_count; }
    int perPage() const { return m_perPage; }
    KeysModel *model() const { return m_model; }

Q_SIGNALS:
    /// A key was created; its token is offered to the preview for renders.
    void keyCreated(const QString &token);

private:
    void clearData() override;
    void load(int page, bool quiet = false);
    void updateNavigation();
    void revoke(const QString &id, const QString &name);

    // The page on show and the server's paging of the list.
    int m_page = 1;
    int m_pagesCount = 1;
    int m_count = 0;
    int m_perPage = 20;
    KeysModel *m_model;
    QTableView *m_table;
    QPushButton *m_new;
    QPushButton *m_revoke;
    QPushButton *m_first;
    QPushButton *m_prev;
    QPushButton *m_next;
    QPushButton *m_last;
    QLabel *m_pageLabel;
    QLabel *m_countLabel;
    QComboBox *m_perPageCombo;
};

} // namespace gui
} // namespace imprint
