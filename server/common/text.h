#pragma once
// Small text helpers for messages shown to users.

#include <QString>
#include <QStringList>

namespace imprint::common {

/// The names as an English list for an error message: "a", "a or b", "a, b or c".
inline QString orList(const QStringList &names)
{
    if (names.size() < 2)
        return names.join(QString());
    return names.mid(0, names.size() - 1).join(QStringLiteral(", ")) + QStringLiteral(" or ") + names.last();
}

} // namespace imprint::common
