#pragma once
// One table from an enum to its wire names, so each enum of the pipeline (engines, error
// codes) is named in exactly one place and parsed and printed through that table.

#include <QString>
#include <QStringList>

#include <array>
#include <cstddef>
#include <optional>
#include <utility>

namespace imprint::render {

/// The wire names of the N values of enum E, in the order they should be listed.
template<typename E, std::size_t N>
struct EnumNames {
    std::array<std::pair<E, const char *>, N> entries;

    /// The name of `value`; empty when the table does not list it.
    QString name(E value) const
    {
        for (const auto &[e, text] : entries) {
            if (e == value)
                return QString::fromLatin1(text);
        }
        return {};
    }

    /// The value named exactly `text` (case-sensitive); std::nullopt otherwise.
    std::optional<E> parse(const QString &text) const
    {
        for (const auto &[e, name] : entries) {
            if (text == QLatin1String(name))
                return e;
        }
        return std::nullopt;
    }

    /// Every name, in table order.
    QStringList names() const
    {
        QStringList out;
        for (const auto &entry : entries)
            out << QString::fromLatin1(entry.second);
        return out;
    }
};

} // namespace imprint::render
