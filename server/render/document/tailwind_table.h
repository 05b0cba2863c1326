#pragma once
// The Tailwind table (resources/tailwind/table.json, which scripts/gen-tailwind generates
// from the pinned tailwindcss package) as tailwind.cpp reads it, and the decoding of
// arbitrary values and properties. Internal to server/render/document.

#include <QHash>
#include <QList>
#include <QString>

#include <optional>

namespace imprint::render::tailwind_detail {

struct Decl {
    QString property; ///< CSS name, kebab-case (`background-color`, `--tw-shadow`)
    QString value;
};
using Decls = QList<Decl>;

struct Utility {
    /// Tailwind's sort rank by the properties a utility sets; equal ranks sort by class
    /// name, and later utilities win a property.
    int order = -1;
    Decls decls;
    /// An arbitrary property that sorts after the utilities of its rank: they set more
    /// properties (a `--tw-*` beside it), and the compiler puts those first.
    bool afterRank = false;
};

/// A functional utility (`bg`, `-mt`, `text`): declaration templates by theme namespace
/// (`{k}` is the key), for spacing multiples (`{n}`), bare integers (`{b}`) and by
/// arbitrary-value type (`{v}`).
struct Root {
    QHash<QString, Utility> themed;
    Utility spacing;
    Utility bare;
    QHash<QString, Utility> arbitrary;
};

struct Table {
    QString version;
    QHash<QString, QString> vars; ///< the default theme
    QHash<QString, std::optional<QString>> initial; ///< @property initial values; nullopt: none
    QHash<QString, Utility> classes;
    QHash<QString, Root> roots;
};

/// The table, loaded from the resource once (thread-safe).
const Table &table();

/// Binary operators in math functions get spaces, as the compiler's
/// addWhitespaceAroundMathOperators() does (`calc(100%-2rem)`), and nowhere else: the
/// `60px -15px` of a shadow stays two lengths.
QString spacedMathOperators(const QString &v);

/// An arbitrary value or property as the compiler decodes it: underscores are spaces, `\_`
/// an underscore, and math operators get their spaces (spacedMathOperators()).
QString arbitraryText(QString v);

/// An arbitrary property (`[mask-type:luminance]`, `[border-image:linear-gradient(…)_1]`):
/// its one declaration as written; nullopt when `name` is not `[property:value]`. The
/// compiler sorts utilities by the properties they set, more of them first, then by name:
/// one that sets that property alone shares its rank (`w-10` and `[width:…]`, then the
/// name decides); else it follows the utilities that set it beside custom properties only
/// (`tracking-tight` sets `--tw-tracking` too), else those that set it at all, else all.
std::optional<Utility> arbitraryProperty(const QString &name);

} // namespace imprint::render::tailwind_detail
