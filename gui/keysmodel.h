#pragma once
// Table model of one page of API keys: name, prefix, scopes, created, expires, last used —
// times in local time, relative ("3 hours ago", "in 5 days") where that reads better.

#include "shared/apitypes.h"

#include <QAbstractTableModel>

namespace imprint {
namespace gui {

class KeysModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Name, Prefix, Scopes, Created, Expires, LastUsed, ColumnCount };
    enum Role { KeyIdRole = Qt::UserRole + 1, TimestampRole };

    explicit KeysModel(QObject *parent = nullptr);

    void setKeys(const QList<client::ApiKey> &keys);
    void clear() { setKeys({}); }
    /// Removes the row of that key; false when it is not on this page.
    bool removeKey(const QString &id);
    const client::ApiKey &keyAt(int row) const { return m_keys.at(row); }
    int rowOfKey(const QString &id) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

    /// "just now", "5 minutes ago", "in 3 days", "yesterday"... or a local date when
    /// the moment is more than a week away. `now` is a parameter for tests.
    static QString relativeTime(const QDateTime &when, const QDateTime &now);
    /// The full local date and time, in the user's locale.
    static QString localTime(const QDateTime &when);

private:
    static QString scopesToolTip(const QStringList &scopes);

    QList<client::ApiKey> m_keys;
};

} // namespace gui
} // namespace imprint
