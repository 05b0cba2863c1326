#pragma once
// One table from an enum to its wire names, so each enum (engines, output formats, PNG
// tiers, emoji sets, error codes) is named in exactly one place and parsed, printed and
// listed through that table. Header-only and free of any layer's types: the render
// pipeline, the transports and the console all read the same tables.

#include <QString>
#include <QStringList>

#include <array>
#include <cstddef>
#include <optional>
#include <utility>

namespace imprint::common {

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

    /// The value named `text` in any case, surrounding white space ignored; std::nullopt
    /// otherwise. For names a user types (request fields, command-line options).
    std::optional<E> parseAnyCase(const QString &text) const { return parse(text.trimmed().toLower()); }

    /// Every name, in table order.
    QStringList names() const
    {
        QStringList out;
        for (const auto &entry : entries)
            out << QString::fromLatin1(entry.second);
        return out;
    }

    /// Every name in table order as a sentence lists them: "a, b or c".
    QString orList() const
    {
        const QStringList all = names();
        if (all.size() < 2)
            return all.join(QString());
        return all.mid(0, all.size() - 1).join(QStringLiteral(", ")) + QStringLiteral(" or ") + all.last();
    }

    /// The names of the values `keep` accepts, in table order (a list a message or a
    /// picker shows when only some values apply).
    template<typename Pred>
    QStringList namesWhere(Pred keep) const
    {
        QStringList out;
        for (const auto &entry : entries) {
            if (keep(entry.first))
                out << QString::fromLatin1(entry.second);
        }
        return out;
    }
};

} // namespace imprint::common
