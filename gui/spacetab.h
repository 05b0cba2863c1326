#pragma once
// The life every console tab that shows the signed-in space's data from the server shares
// (Keys, Signing keys, Fonts, Usage): it is active between activate() and deactivate();
// each load carries a generation, so an answer that arrives after a newer load started or
// after the session ended is dropped; the Refresh button is off while a load is in flight;
// and tabs only owners and admins may see show a role page to members instead.

#include "shared/apiclient.h"

#include <QWidget>

#include <optional>

class QIcon;
class QPushButton;
class QStackedWidget;
class QTableWidget;

namespace imprint {
namespace gui {

class MessageBanner;

/// Base of the tabs that list the space's data; subclasses build their widgets, say how to
/// empty them (clearData) and fetch them (reload, through beginLoad / isCurrent / endLoad).
class SpaceTab : public QWidget
{
    Q_OBJECT
public:
    /// Who may see a tab's data (the server refuses the others anyway).
    enum class Audience {
        Everyone, ///< every role of the space
        KeyManagers, ///< owners and admins (client::Me::canManageKeys), as the key and usage routes
    };

    /// Starts showing the space of `me`: empties the tab, then loads it, or shows the role
    /// page when `me` is not in the tab's audience.
    void activate(const client::Me &me);
    /// Forgets what the session that ended loaded; answers still in flight are dropped.
    void deactivate();
    /// Loads the data again from the server; nothing while the tab is inactive.
    virtual void reload() = 0;
    bool isLoading() const { return m_loading; }

Q_SIGNALS:
    /// A load ended (with the data shown, or with its error in the message banner).
    void loaded();

protected:
    /// `objectName` names the tab; the message banner is called `<messageObjectName>`.
    SpaceTab(client::ApiClient *client, Audience audience, const QString &objectName,
             const QString &messageObjectName, QWidget *parent);

    /// Empties what the tab shows (a session ended, or another one starts).
    virtual void clearData() = 0;

    /// A stack of `content` and a role page saying `roleText` (a QLabel named
    /// `roleObjectName`), for KeyManagers tabs; owned by this tab.
    QWidget *withRolePage(QWidget *content, const QString &roleText, const QString &roleObjectName);
    /// Shows the role page instead of the data (also when the server answers 403).
    void showRolePage();
    /// Whether the role page is on show.
    bool showsRolePage() const;
    /// The tab's Refresh button (named `objectName`, with `icon` if any): it reloads the tab
    /// and is off while a load is in flight.
    QPushButton *makeRefreshButton(const QString &objectName, const QIcon &icon = {});
    /// The button makeRefreshButton() made (nullptr before), for tabs that place or switch it
    /// themselves.
    QPushButton *refreshButton() const { return m_refresh; }
    /// A read-only table named `objectName` with `headers`, one whole row selectable at a
    /// time; `rowAction` (the tab's revoke or delete button) is on only while a row is.
    QTableWidget *makeListTable(const QString &objectName, const QStringList &headers, QPushButton *rowAction);
    /// The page of a list tab: `introText` (wrapped), a row of `actions` with the Refresh
    /// button (makeRefreshButton, called before) at its right end, and `table` below.
    QWidget *makeListPage(const QString &introText, const QList<QPushButton *> &actions, QTableWidget *table);
    /// The row of `table`'s first selected item, or -1 when nothing is selected, after
    /// showing `hint` ("Select … first.") as an info message.
    int selectedRow(const QTableWidget *table, const QString &hint);

    /// Starts a load: the generation its answer must match, std::nullopt while inactive.
    std::optional<quint64> beginLoad();
    /// Whether the answer of the load `generation` still applies.
    bool isCurrent(quint64 generation) const { return generation == m_generation; }
    /// Ends the current load (Refresh usable again); the caller emits loaded() once its
    /// data or error is on show.
    void endLoad();
    /// Takes the answer `r` of the load `generation` (from beginLoad()): false when it no
    /// longer applies; otherwise ends the load, shows r's error (if any) in the message banner
    /// and returns true, and the caller shows the data and emits loaded().
    template<typename T>
    bool takeAnswer(quint64 generation, const client::ApiResult<T> &r)
    {
        return takeAnswer(generation, r.has_value() ? nullptr : &r.error());
    }
    /// takeAnswer() with the answer's error, nullptr on success.
    bool takeAnswer(quint64 generation, const client::ApiError *error);

    client::ApiClient *m_client;
    MessageBanner *m_message;

private:
    Audience m_audience;
    QPushButton *m_refresh = nullptr;
    QStackedWidget *m_stack = nullptr;
    bool m_loading = false;
    bool m_active = false;
    quint64 m_generation = 0;
};

} // namespace gui
} // namespace imprint
