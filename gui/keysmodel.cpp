#include "gui/keysmodel.h"

#include "gui/keydialogs.h"

#include <QBrush>
#include <QFont>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QLocale>
#include <QPalette>

namespace imprint {
namespace gui {

KeysModel::KeysModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void KeysModel::setKeys(const QList<client::ApiKey> &keys)
{
    beginResetModel();
    m_keys = keys;
    endResetModel();
}

int KeysModel::rowOfKey(const QString &id) const
{
    for (int i = 0; i < m_keys.size(); ++i)
        if (m_keys.at(i).id == id)
            return i;
    return -1;
}

bool KeysModel::removeKey(const QString &id)
{
    const int row = rowOfKey(id);
    if (row < 0)
        return false;
    beginRemoveRows({}, row, row);
    m_keys.removeAt(row);
    endRemoveRows();
    return true;
}

int KeysModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_keys.size());
}

int KeysModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString KeysModel::localTime(const QDateTime &when)
{
    if (!when.isValid())
        return {};
    return QLocale().toString(when.toLocalTime(), QLocale::LongFormat);
}

QString KeysModel::relativeTime(const QDateTime &when, const QDateTime &now)
{
    const qint64 secs = now.secsTo(when); // > 0: in the future
    const qint64 a = qAbs(secs);
    const bool future = secs > 0;
    if (a < 60)
        return tr("just now");
    if (a < 3600) {
        const int n = int(a / 60);
        return future ? tr("in %n minute(s)", nullptr, n) : tr("%n minute(s) ago", nullptr, n);
    }
    if (a < 86400) {
        const int n = int(a / 3600);
        return future ? tr("in %n hour(s)", nullptr, n) : tr("%n hour(s) ago", nullptr, n);
    }
    const qint64 days = now.toLocalTime().date().daysTo(when.toLocalTime().date());
    if (days == -1)
        return tr("yesterday, %1").arg(QLocale().toString(when.toLocalTime().time(), QLocale::ShortFormat));
    if (days == 1)
        return tr("tomorrow, %1").arg(QLocale().toString(when.toLocalTime().time(), QLocale::ShortFormat));
    if (qAbs(days) <= 7) {
        const int n = int(qAbs(days));
        return future ? tr("in %n day(s)", nullptr, n) : tr("%n day(s) ago", nullptr, n);
    }
    // The locale's short date, but with a four-digit year ("2/2/2027", "02.02.2027").
    QString format = QLocale().dateFormat(QLocale::ShortFormat);
    if (!format.contains(QLatin1String("yyyy")))
        format.replace(QLatin1String("yy"), QLatin1String("yyyy"));
    return QLocale().toString(when.toLocalTime().date(), format);
}

// One line per scope the key carries: what it lets the key do.
QString KeysModel::scopesToolTip(const QStringList &scopes)
{
    QStringList lines;
    for (const QString &name : scopes) {
        const auto scope = common::kKeyScopeNames.parse(name);
        lines << (scope ? QStringLiteral("%1: %2").arg(name, keyScopeDescription(*scope)) : name);
    }
    return lines.join(u'\n');
}

QVariant KeysModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_keys.size())
        return {};
    const client::ApiKey &k = m_keys.at(index.row());
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const auto timeOf = [&](int column) -> QDateTime {
        switch (column) {
        case Created: return k.createdAt;
        case Expires: return k.expiresAt;
        case LastUsed: return k.lastUsedAt;
        default: return {};
        }
    };
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Name: return k.name.isEmpty() ? tr("(unnamed)") : k.name;
        case Prefix: return k.prefix + QStringLiteral("…");
        case Scopes: return k.scopes.join(QStringLiteral(", "));
        case Created: return relativeTime(k.createdAt, now);
        case Expires:
            if (!k.expiresAt.isValid())
                return tr("never");
            if (k.expiresAt <= now)
                return tr("expired %1").arg(relativeTime(k.expiresAt, now));
            return relativeTime(k.expiresAt, now);
        case LastUsed: return k.lastUsedAt.isValid() ? relativeTime(k.lastUsedAt, now) : tr("never used");
        }
        break;
    case Qt::ToolTipRole:
        switch (index.column()) {
        case Name: return k.createdBy.isEmpty() ? k.name : tr("%1, created by %2").arg(k.name, k.createdBy);
        case Prefix: return tr("Keys are listed by the start of their token; the token itself is never shown again.");
        case Scopes: return scopesToolTip(k.scopes);
        case Created:
        case LastUsed: return localTime(timeOf(index.column()));
        case Expires: return k.expiresAt.isValid() ? localTime(k.expiresAt) : tr("This key does not expire.");
        }
        break;
    case Qt::FontRole:
        if (index.column() == Prefix)
            return QFontDatabase::systemFont(QFontDatabase::FixedFont);
        break;
    case Qt::ForegroundRole:
        if ((index.column() == LastUsed && !k.lastUsedAt.isValid())
            || (index.column() == Expires && !k.expiresAt.isValid()))
            return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        if (index.column() == Expires && k.expiresAt.isValid() && k.expiresAt.secsTo(now) > -7 * 86400)
            return QBrush(QColor(0xb4, 0x53, 0x09)); // expires within a week
        break;
    case KeyIdRole: return k.id;
    case TimestampRole: return timeOf(index.column());
    }
    return {};
}

QVariant KeysModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, o, role);
    switch (section) {
    case Name: return tr("Name");
    case Prefix: return tr("Prefix");
    case Scopes: return tr("Scopes");
    case Created: return tr("Created");
    case Expires: return tr("Expires");
    case LastUsed: return tr("Last used");
    }
    return {};
}

} // namespace gui
} // namespace imprint
