// Tailwind `tw` expansion (tailwind.h): class names parsed against the table
// scripts/gen-tailwind generates from the tailwindcss package, then Tailwind's custom
// properties resolved the way the browser resolves them for one element.

#include "server/render/document/tailwind.h"
#include "server/render/document/tailwind_table.h"
#include "server/render/css/parse.h"
#include "server/render/css/values.h"
#include "server/render/css/variables.h"
#include "server/render/style/computed_style.h"
#include "server/render/style/properties.h"
#include "server/render/style/stylesheet.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <array>
#include <cmath>

namespace imprint::render {

namespace {

using namespace tailwind_detail;

/// The index of the last `c` outside [...] and (...), or -1.
qsizetype lastOutsideBrackets(QStringView s, QChar c)
{
    int depth = 0;
    qsizetype found = -1;
    for (qsizetype i = 0; i < s.size(); ++i) {
        const QChar ch = s[i];
        if (ch == u'[' || ch == u'(')
            ++depth;
        else if (ch == u']' || ch == u')')
            depth = std::max(0, depth - 1);
        else if (ch == c && depth == 0)
            found = i;
    }
    return found;
}

/// `/50`, `/[0.5]`, `/[50%]` → "50%"; empty when `modifier` is not an opacity.
QString opacityPercent(const QString &modifier)
{
    QString m = modifier;
    if (m.startsWith(u'[') && m.endsWith(u']')) {
        m = m.mid(1, m.size() - 2).trimmed();
        if (m.endsWith(u'%'))
            return css::number(m.chopped(1)) ? m : QString();
        auto n = css::number(m);
        return n ? QString::number(double(*n) * 100, 'g', 6) + u'%' : QString();
    }
    auto n = css::number(m);
    return n && *n >= 0 ? QString::number(double(*n), 'g', 6) + u'%' : QString();
}

QString withAlpha(const QString &colour, const QString &percent)
{
    return percent.isEmpty() || percent == QLatin1String("100%") ? colour
                             : QStringLiteral("color-mix(in oklab, %1 %2, transparent)").arg(colour, percent);
}

/// What kind of value an arbitrary `[...]` holds, as the table's templates are keyed.
QString arbitraryType(const QString &v)
{
    static const QRegularExpression colourFn(QStringLiteral("^(#|rgba?\\(|hsla?\\(|hwb\\(|lab\\(|lch\\(|oklab\\(|"
                                                            "oklch\\(|color\\(|color-mix\\()"),
                                             QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression lengthRe(QStringLiteral("^(-?[0-9.]+[a-z]+|calc\\(.*\\)|min\\(.*\\)|max\\(.*\\)|"
                                                            "clamp\\(.*\\)|0)$"),
                                             QRegularExpression::CaseInsensitiveOption);
    // Tailwind's inferDataType() 'image': what background-image and mask-image take.
    static const QRegularExpression imageFn(
        QStringLiteral("^((repeating-)?(linear|radial|conic)-gradient|image|image-set|cross-fade)\\("),
        QRegularExpression::CaseInsensitiveOption);
    if (colourFn.match(v).hasMatch())
        return QStringLiteral("color");
    if (imageFn.match(v).hasMatch())
        return QStringLiteral("image");
    if (v.startsWith(QLatin1String("url("), Qt::CaseInsensitive))
        return QStringLiteral("url");
    if (v.endsWith(u'%') && css::number(v.chopped(1)))
        return QStringLiteral("percentage");
    if (lengthRe.match(v).hasMatch() && v != QLatin1String("0"))
        return QStringLiteral("length");
    if (css::number(v))
        return QStringLiteral("number");
    static const QRegularExpression word(QStringLiteral("^[a-z]+$"), QRegularExpression::CaseInsensitiveOption);
    // A single word is a named colour when it parses as one (`bg-[tomato]`).
    if (word.match(v).hasMatch() && parseColor(v, Qt::black))
        return QStringLiteral("color");
    return QStringLiteral("any");
}

/// Tailwind's isFamilyName(): `v` (an arbitrary value, underscores already spaces) reads
/// as a font family list, every comma-separated part not starting with a digit and at
/// least one not a var() (`font-[Inter]`, `font-["Geist",sans-serif]`; not `font-[600]`).
bool isFamilyName(const QString &v)
{
    int names = 0;
    for (const QString &part : css::split(v, u',')) {
        if (part.isEmpty() || part.at(0).isDigit())
            return false;
        if (!part.startsWith(QLatin1String("var(")))
            ++names;
    }
    return names > 0;
}

Utility instantiate(const Utility &tpl, const QString &placeholder, const QString &value)
{
    Utility out = tpl;
    for (Decl &d : out.decls)
        d.value.replace(placeholder, value);
    return out;
}

/// The arbitrary `any` template `tpl` with `v`. A shadow's template ends in
/// `var(--tw-shadow-color, currentcolor)` (a value without a colour); a value with one has
/// its colour wrapped instead, as the compiler's replaceShadowColors() does for every
/// shadow of the list whose two offsets it finds: `0_8px_30px_rgb(0,0,0,0.12)` is
/// `0 8px 30px var(--tw-shadow-color, rgb(0,0,0,0.12))`.
Utility withShadowColors(const Utility &tpl, const QString &v)
{
    // `{v} var(--tw-shadow-color, currentcolor)`, or with a prefix and suffix each shadow
    // gets: `inset {v} …` (inset-shadow), `drop-shadow({v} …)` (drop-shadow).
    static const QRegularExpression colourVar(
        QStringLiteral("^(.*?)\\{v\\} (var\\(--tw-[a-z-]*shadow-color), currentcolor\\)(.*)$"));
    Utility out = tpl;
    for (Decl &d : out.decls) {
        const QRegularExpressionMatch m = colourVar.match(d.value);
        if (!m.hasMatch()) {
            d.value.replace(QStringLiteral("{v}"), v);
            continue;
        }
        const QString prefix = m.captured(1), colourFn = m.captured(2), suffix = m.captured(3);
        static const QSet<QString> keywords{QStringLiteral("inset"), QStringLiteral("inherit"),
                                            QStringLiteral("initial"), QStringLiteral("revert"),
                                            QStringLiteral("unset")};
        static const QRegularExpression length(QStringLiteral("^-?(\\d+|\\.\\d+)"));
        QStringList shadows;
        for (const QString &shadow : css::split(v, u',')) { // pieces come trimmed
            QString colour, offsetX, offsetY;
            for (const QString &part : css::split(shadow, u' ')) {
                if (keywords.contains(part))
                    continue;
                if (length.match(part).hasMatch()) {
                    if (offsetX.isEmpty())
                        offsetX = part;
                    else if (offsetY.isEmpty())
                        offsetY = part;
                } else if (colour.isEmpty()) {
                    colour = part;
                }
            }
            if (offsetX.isEmpty() || offsetY.isEmpty())
                shadows.append(prefix + shadow + suffix);
            else if (colour.isEmpty())
                shadows.append(prefix + shadow + u' ' + colourFn + QStringLiteral(", currentcolor)") + suffix);
            else
                shadows.append(prefix
                               + QString(shadow).replace(shadow.indexOf(colour), colour.size(),
                                                         colourFn + QStringLiteral(", ") + colour + u')')
                               + suffix);
        }
        // Filter functions follow one another; shadows are a comma-separated list.
        d.value = shadows.join(prefix.endsWith(u'(') ? QStringLiteral(" ") : QStringLiteral(", "));
    }
    return out;
}

/// `root-key` (with `modifier` after a `/`) through the root's templates; nullopt when
/// neither an arbitrary value, a theme key nor a spacing multiple fits.
std::optional<Utility> functionalUtility(const Root &root, const QString &key, const QString &modifier,
                                       const TailwindTheme &theme)
{
    const Table &t = table();
    // `text-xl/7`: the modifier of a font size is its line height.
    // (`--text-shadow-*` is the text-shadow namespace, not a font size: the compiler
    // keeps nested namespaces apart.)
    if (!modifier.isEmpty() && root.themed.contains(QStringLiteral("text")) && !key.startsWith(QLatin1String("shadow-"))
        && (t.vars.contains(QStringLiteral("--text-") + key) || theme.vars.contains(QStringLiteral("--text-") + key))) {
        QString leading;
        if (modifier.startsWith(u'[') && modifier.endsWith(u']'))
            leading = modifier.mid(1, modifier.size() - 2);
        else if (const auto n = css::number(modifier); n && *n >= 0)
            leading = QStringLiteral("calc(var(--spacing) * %1)").arg(modifier);
        else if (t.vars.contains(QStringLiteral("--leading-") + modifier))
            leading = QStringLiteral("var(--leading-%1)").arg(modifier);
        if (leading.isEmpty())
            return std::nullopt;
        Utility out = instantiate(root.themed.value(QStringLiteral("text")), QStringLiteral("{k}"), key);
        for (Decl &d : out.decls)
            if (d.property == QLatin1String("line-height"))
                d.value = leading;
        return out;
    }
    const QString alpha = modifier.isEmpty() ? QString() : opacityPercent(modifier);
    if (!modifier.isEmpty() && alpha.isEmpty())
        return std::nullopt;
    if (key.startsWith(u'[') && key.endsWith(u']') && key.size() > 2) {
        QString v = arbitraryText(key.mid(1, key.size() - 2));
        QString type = arbitraryType(v);
        // A root that takes family names (`font`) infers one before `any` (a weight).
        if (type == QLatin1String("any") && root.arbitrary.contains(QStringLiteral("family")) && isFamilyName(v))
            type = QStringLiteral("family");
        // An explicit type hint (`bg-[length:120px_120px]`) has its own template where the
        // package's differs from the inferred type's (a background-size, not a position),
        // else the inferred type's, else the root's `any` (scripts/gen-tailwind/gen.mjs).
        static const QRegularExpression hint(QStringLiteral(
            "^(length|size|bg-size|position|percentage|color|url|image|number|integer|family-name|generic-name|"
            "absolute-size|relative-size|line-width|angle|vector|any):(.+)$"));
        auto tpl = root.arbitrary.constEnd();
        if (const auto m = hint.match(v); m.hasMatch()) {
            type = m.captured(1);
            v = m.captured(2);
            tpl = root.arbitrary.constFind(type + u':');
            if (tpl == root.arbitrary.constEnd() && !root.arbitrary.contains(type))
                tpl = root.arbitrary.constFind(QStringLiteral("any"));
        }
        if (tpl == root.arbitrary.constEnd())
            tpl = root.arbitrary.constFind(type);
        if (tpl == root.arbitrary.constEnd())
            return std::nullopt;
        if (type == QLatin1String("any"))
            return withShadowColors(*tpl, v);
        return instantiate(*tpl, QStringLiteral("{v}"), type == QLatin1String("color") ? withAlpha(v, alpha) : v);
    }
    static const QRegularExpression keyRe(QStringLiteral("^[A-Za-z0-9._-]+$"));
    if (!keyRe.match(key).hasMatch())
        return std::nullopt;
    for (auto it = root.themed.begin(); it != root.themed.end(); ++it) {
        const QString var = QStringLiteral("--%1-%2").arg(it.key(), key);
        if (!theme.vars.contains(var) && !t.vars.contains(var))
            continue;
        if (!alpha.isEmpty() && it.key() != QLatin1String("color"))
            continue;
        Utility out = *it;
        if (!alpha.isEmpty()) {
            const QString ref = QStringLiteral("var(--color-{k})");
            for (Decl &d : out.decls)
                d.value.replace(ref, withAlpha(ref, alpha));
        }
        return instantiate(out, QStringLiteral("{k}"), key);
    }
    if (!alpha.isEmpty())
        return std::nullopt;
    static const QRegularExpression integer(QStringLiteral("^[0-9]+$"));
    if (!root.bare.decls.isEmpty() && integer.match(key).hasMatch())
        return instantiate(root.bare, QStringLiteral("{b}"), key);
    if (root.spacing.decls.isEmpty())
        return std::nullopt;
    if (const auto n = css::number(key); n && *n >= 0 && std::fmod(double(*n) * 4, 1.0) == 0)
        return instantiate(root.spacing, QStringLiteral("{n}"), key);
    const QString named = QStringLiteral("--spacing-") + key;
    if (!theme.vars.contains(named) && !t.vars.contains(named))
        return std::nullopt;
    Utility out = root.spacing;
    for (Decl &d : out.decls) {
        d.value.replace(QLatin1String("calc(var(--spacing) * -{n})"), QStringLiteral("calc(var(%1) * -1)").arg(named));
        d.value.replace(QLatin1String("calc(var(--spacing) * {n})"), QStringLiteral("var(%1)").arg(named));
    }
    return out;
}

/// A shadow class of the table (`shadow-lg`, `text-shadow-sm`, `inset-shadow-xs`,
/// `drop-shadow-xl`) under an opacity modifier (`/50`, a percentage from
/// opacityPercent()), as the compiler writes it: each shadow colour (the fallback of its
/// `--tw-*-shadow-color`) becomes `oklab(from <colour> l a b / 50%)`, that colour with the
/// modifier as its alpha, and a drop shadow is drawn from its sized form. nullopt for any
/// other class.
std::optional<Utility> shadowWithAlpha(const Utility &tpl, const QString &alpha)
{
    static const QRegularExpression fallback(
        QStringLiteral("(var\\(--tw-[a-z-]*shadow-color, )([^()]*(?:\\([^()]*\\))?)\\)"));
    Utility out = tpl;
    bool found = false;
    for (Decl &d : out.decls) {
        QString value;
        qsizetype last = 0;
        for (const QRegularExpressionMatch &m : fallback.globalMatch(d.value)) {
            value += d.value.mid(last, m.capturedStart() - last) + m.captured(1)
                     + QStringLiteral("oklab(from %1 l a b / %2))").arg(m.captured(2).trimmed(), alpha);
            last = m.capturedEnd();
            found = true;
        }
        d.value = value + d.value.mid(last);
    }
    if (!found)
        return std::nullopt;
    for (Decl &d : out.decls)
        if (d.property == QLatin1String("--tw-drop-shadow"))
            d.value = QStringLiteral("var(--tw-drop-shadow-size)");
    return out;
}

/// A gradient utility's interpolation modifier as the compiler reads it (`/hsl` →
/// `in hsl`, `/longer` → `in oklch longer hue`, `/[in_hsl_longer_hue]` as written);
/// empty when `modifier` is none.
QString gradientInterpolation(const QString &modifier)
{
    if (modifier.startsWith(u'[') && modifier.endsWith(u']'))
        return modifier.mid(1, modifier.size() - 2).replace(u'_', u' ').trimmed();
    static const QSet<QString> hues{QStringLiteral("longer"), QStringLiteral("shorter"), QStringLiteral("increasing"),
                                    QStringLiteral("decreasing")};
    static const QSet<QString> spaces{QStringLiteral("srgb"),    QStringLiteral("srgb-linear"), QStringLiteral("display-p3"),
                                      QStringLiteral("a98-rgb"), QStringLiteral("prophoto-rgb"), QStringLiteral("rec2020"),
                                      QStringLiteral("lab"),     QStringLiteral("oklab"),       QStringLiteral("xyz"),
                                      QStringLiteral("xyz-d50"), QStringLiteral("xyz-d65"),     QStringLiteral("hsl"),
                                      QStringLiteral("hwb"),     QStringLiteral("lch"),         QStringLiteral("oklch")};
    if (hues.contains(modifier))
        return QStringLiteral("in oklch %1 hue").arg(modifier);
    return spaces.contains(modifier) ? QStringLiteral("in ") + modifier : QString();
}

/// `tpl`, a gradient utility (`bg-linear-to-r`, `bg-conic`), with `interpolation` in
/// place of its default `in oklab`; nullopt for a utility that writes no gradient position.
std::optional<Utility> withInterpolation(const Utility &tpl, const QString &interpolation)
{
    Utility out = tpl;
    bool found = false;
    for (Decl &d : out.decls) {
        if (d.property != QLatin1String("--tw-gradient-position"))
            continue;
        found = true;
        if (d.value == QLatin1String("in oklab"))
            d.value = interpolation;
        else if (d.value.endsWith(QLatin1String(" in oklab")))
            d.value = d.value.chopped(9) + u' ' + interpolation;
    }
    return found ? std::optional<Utility>(out) : std::nullopt;
}

/// One class without variants: a table entry, or root + value through functionalUtility().
std::optional<Utility> utility(const QString &name, const TailwindTheme &theme)
{
    const Table &t = table();
    if (auto it = t.classes.constFind(name); it != t.classes.constEnd())
        return *it;
    if (auto property = arbitraryProperty(name))
        return property;
    QString base = name, modifier;
    if (const qsizetype slash = lastOutsideBrackets(name, u'/'); slash > 0) {
        base = name.left(slash);
        modifier = name.mid(slash + 1);
    }
    if (!modifier.isEmpty())
        if (auto it = t.classes.constFind(base); it != t.classes.constEnd())
            if (const QString alpha = opacityPercent(modifier); !alpha.isEmpty())
                if (auto shadow = shadowWithAlpha(*it, alpha))
                    return shadow;
    if (const QString interpolation = gradientInterpolation(modifier); !interpolation.isEmpty())
        if (auto gradient = utility(base, theme))
            if (auto interpolated = withInterpolation(*gradient, interpolation))
                return interpolated;
    // Roots are tried longest first (`border-t-red-500` is `border-t` + `red-500`); an
    // arbitrary value's own dashes are not split points.
    qsizetype end = base.indexOf(u'[');
    end = end < 0 ? base.size() : end;
    for (qsizetype i = end - 1; i > 0; --i) {
        if (base[i] != u'-')
            continue;
        auto root = t.roots.constFind(base.left(i));
        if (root == t.roots.constEnd())
            continue;
        if (auto u = functionalUtility(*root, base.mid(i + 1), modifier, theme))
            return u;
    }
    return std::nullopt;
}

/// Folds the calc() forms Tailwind's spacing, fractions and line heights compile to
/// (`calc(0.25rem * 4)`, `calc(1 / 2 * 100%)`, `calc(1.75 / 1.25)`) to plain values.
QString foldCalc(QString v)
{
    // rounded-full's calc(infinity * 1px): any radius past the box is clamped to a pill.
    v.replace(QLatin1String("calc(infinity * 1px)"), QLatin1String("10000000px"));
    static const QRegularExpression mul(QStringLiteral(
        "calc\\(\\s*(-?[0-9.]+)([a-z%]*)\\s*\\*\\s*(-?[0-9.]+)\\s*\\)"));
    static const QRegularExpression frac(QStringLiteral(
        "calc\\(\\s*(-?[0-9.]+)\\s*/\\s*(-?[0-9.]+)\\s*(\\*\\s*100%\\s*)?\\)"));
    for (int guard = 0; guard < 16; ++guard) {
        if (const auto m = mul.match(v); m.hasMatch()) {
            const double x = m.captured(1).toDouble() * m.captured(3).toDouble();
            v.replace(m.capturedStart(), m.capturedLength(), QString::number(x, 'g', 8) + m.captured(2));
            continue;
        }
        if (const auto m = frac.match(v); m.hasMatch() && m.captured(2).toDouble() != 0) {
            const bool percent = !m.captured(3).isEmpty();
            const double x = m.captured(1).toDouble() / m.captured(2).toDouble() * (percent ? 100 : 1);
            v.replace(m.capturedStart(), m.capturedLength(), QString::number(x, 'g', 8) + (percent ? QStringLiteral("%") : QString()));
            continue;
        }
        break;
    }
    return v;
}

/// Drops the empty layers (`0 0 #0000`) Tailwind composes every box-shadow from.
QString compactShadow(const QString &v)
{
    QStringList kept;
    for (const QString &layer : css::split(v, u','))
        if (layer.trimmed() != QLatin1String("0 0 #0000"))
            kept << layer.trimmed();
    return kept.isEmpty() ? QStringLiteral("none") : kept.join(QLatin1String(", "));
}

/// Whether a property (camelCase) reaches the style: a table row, or an SVG paint property
/// an inline svg's content inherits (`fill-*`, `stroke-*`). resolve() drops the others.
bool takesProperty(const QString &key)
{
    return findCssProperty(key) || isSvgPaintProperty(key);
}

/// The properties of `decls` (CSS names) that takesProperty() refuses, so resolve() drops
/// them: `columns-2`, `float-left`, `list-disc` change a page but not
/// this image. Custom properties and `>` children rules are Tailwind's plumbing, and what
/// a still image cannot show (`cursor-pointer`, `transition`) has rows that ignore it.
QStringList undrawnProperties(const Decls &decls)
{
    QStringList out;
    for (const Decl &d : decls) {
        const QString key = css::camelCasePropertyName(d.property);
        if (d.property.startsWith(QLatin1String("--")) || d.property.startsWith(u'>') || takesProperty(key)
            || out.contains(d.property))
            continue;
        out << d.property;
    }
    return out;
}

/// The declarations of the sorted utilities with var() resolved: the element's own
/// custom properties, then the theme, then Tailwind's @property initial values. With
/// `children`, those of the rule for the children but the last (the table's properties
/// prefixed `>`), which have their own custom properties: Tailwind registers its --tw-*
/// ones as not inherited.
QJsonObject resolve(const QList<const Decls *> &sorted, const TailwindTheme &theme, bool children)
{
    const Table &t = table();
    QHash<QString, QString> custom;
    QStringList order;
    QHash<QString, QString> plain;
    for (const Decls *decls : sorted)
        for (const Decl &d : *decls) {
            if (d.property.startsWith(u'>') != children)
                continue;
            const QString property = children ? d.property.mid(1) : d.property;
            if (property.startsWith(QLatin1String("--"))) {
                custom.insert(property, d.value);
                continue;
            }
            order.removeAll(property);
            order << property;
            plain.insert(property, d.value);
        }
    int depth = 0;
    std::function<std::optional<QString>(const QString &)> lookup = [&](const QString &name) -> std::optional<QString> {
        std::optional<QString> raw;
        if (auto c = custom.constFind(name); c != custom.constEnd())
            raw = *c;
        else if (auto v = theme.vars.constFind(name); v != theme.vars.constEnd())
            raw = *v;
        else if (auto d = t.vars.constFind(name); d != t.vars.constEnd())
            raw = *d;
        else
            raw = t.initial.value(name);
        if (!raw || !css::containsVar(*raw))
            return raw;
        if (depth > 16) // a cycle in a theme extension
            return std::nullopt;
        ++depth;
        auto out = css::substituteVariables(*raw, lookup);
        --depth;
        return out ? std::optional(*out) : std::nullopt;
    };
    QJsonObject out;
    for (const QString &property : order) {
        QString value = plain.value(property);
        if (css::containsVar(value)) {
            auto substituted = css::substituteVariables(value, lookup);
            if (!substituted)
                continue; // invalid at computed-value time: as if not declared
            value = *substituted;
        }
        value = foldCalc(value).trimmed();
        if (value.isEmpty()) // only empty var() fallbacks (`transform` with no transforms)
            continue;
        if (property == QLatin1String("box-shadow"))
            value = compactShadow(value);
        const QString key = css::camelCasePropertyName(property);
        if (takesProperty(key))
            out.insert(key, value.trimmed());
    }
    return out;
}

bool addVar(TailwindTheme &theme, const QString &var, const QJsonValue &v, const QString &field, bool colour,
            RenderError *error)
{
    QString text;
    if (v.isString())
        text = v.toString().trimmed();
    else if (v.isDouble() && var.startsWith(QLatin1String("--spacing-"))) // a number of px; not a font or colour
        text = QString::number(v.toDouble(), 'g', 10) + QStringLiteral("px");
    else if (v.isArray() && var.startsWith(QLatin1String("--font-"))) {
        QStringList families;
        // A family is a name: null, a number or a blank entry makes the list invalid (issue
        // 30); ["", ""] was read as the non-empty ", ".
        const QJsonArray names = v.toArray();
        const bool allNames = std::all_of(names.begin(), names.end(), [](const QJsonValue &f) {
            return f.isString() && !f.toString().trimmed().isEmpty();
        });
        for (const QJsonValue &f : names)
            families << f.toString();
        if (allNames)
            text = families.join(QLatin1String(", "));
    }
    if (text.isEmpty() || (colour && !parseColor(text, Qt::black))) {
        if (error)
            *error = {field, colour ? QStringLiteral("expected a CSS colour") : QStringLiteral("expected a string"),
                      RenderErrorCode::InvalidTemplate};
        return false;
    }
    theme.vars.insert(var, text);
    return true;
}

} // namespace

QJsonObject tailwindPreflight(const QString &tag, bool root, const TailwindTheme &theme, int parentWeight)
{
    if (!theme.used || !theme.preflight)
        return {};
    const Table &t = table();
    auto font = [&](const QString &var) { return theme.vars.value(var, t.vars.value(var)); };
    QJsonObject out{{QStringLiteral("boxSizing"), QStringLiteral("border-box")},
                    {QStringLiteral("margin"), 0},
                    {QStringLiteral("padding"), 0},
                    {QStringLiteral("borderWidth"), 0},
                    {QStringLiteral("borderStyle"), QStringLiteral("solid")}};
    if (root) {
        out.insert(QStringLiteral("lineHeight"), QStringLiteral("1.5"));
        out.insert(QStringLiteral("fontFamily"), font(QStringLiteral("--font-sans")));
    }
    static const QRegularExpression heading(QStringLiteral("^h[1-6]$"));
    if (heading.match(tag).hasMatch()) {
        out.insert(QStringLiteral("fontSize"), QStringLiteral("1em"));
        out.insert(QStringLiteral("fontWeight"),
                   parentWeight < 0 ? QStringLiteral("inherit") : QString::number(parentWeight));
    } else if (tag == QLatin1String("small")) {
        out.insert(QStringLiteral("fontSize"), QStringLiteral("80%"));
    } else if (tag == QLatin1String("code") || tag == QLatin1String("kbd") || tag == QLatin1String("samp")
               || tag == QLatin1String("pre")) {
        out.insert(QStringLiteral("fontFamily"), font(QStringLiteral("--font-mono")));
        out.insert(QStringLiteral("fontSize"), QStringLiteral("1em"));
    } else if (tag == QLatin1String("img") || tag == QLatin1String("svg")) {
        out.insert(QStringLiteral("display"), QStringLiteral("block"));
        out.insert(QStringLiteral("verticalAlign"), QStringLiteral("middle"));
        if (tag == QLatin1String("img")) {
            out.insert(QStringLiteral("maxWidth"), QStringLiteral("100%"));
            out.insert(QStringLiteral("height"), QStringLiteral("auto"));
        }
    }
    return out;
}

void mergeTailwind(QJsonObject *style, const QJsonObject &tw, const QJsonObject &parentRule,
                   const QJsonObject &preflight)
{
    for (auto it = tw.begin(); it != tw.end(); ++it)
        if (!style->contains(it.key()))
            style->insert(it.key(), it.value());
    // Whether the element sets `key` itself, directly or through a shorthand (`margin`
    // for `marginLeft`, `border`, `borderTop` or `borderWidth` for `borderTopWidth`).
    auto covered = [&](const QString &key) {
        const QStringList own = style->keys();
        return std::any_of(own.begin(), own.end(), [&](const QString &p) { return setsLonghand(p, key); });
    };
    if (!parentRule.isEmpty()) {
        QJsonObject inherited;
        for (auto it = parentRule.begin(); it != parentRule.end(); ++it)
            if (!covered(it.key()))
                inherited.insert(it.key(), it.value());
        for (auto it = inherited.begin(); it != inherited.end(); ++it)
            style->insert(it.key(), it.value());
    }
    if (preflight.isEmpty())
        return;
    bool setsBorder = false;
    for (auto it = style->constBegin(); it != style->constEnd() && !setsBorder; ++it)
        setsBorder = it.key().startsWith(QLatin1String("border")) && !it.key().contains(QLatin1String("Radius"));
    QJsonObject sideResets; // the border reset per side, where the element sets no border
    for (auto it = preflight.begin(); it != preflight.end(); ++it) {
        if (setsBorder && (it.key() == QLatin1String("borderWidth") || it.key() == QLatin1String("borderStyle"))) {
            // Its shorthand would come after theirs: the sides they leave get it as longhands.
            for (const char *side : {"Top", "Right", "Bottom", "Left"}) {
                const QString longhand = QStringLiteral("border%1%2").arg(QLatin1String(side), it.key().mid(6));
                if (!covered(longhand))
                    sideResets.insert(longhand, it.value());
            }
            continue;
        }
        if (!style->contains(it.key()))
            style->insert(it.key(), it.value());
    }
    for (auto it = sideResets.begin(); it != sideResets.end(); ++it)
        style->insert(it.key(), it.value());
}

QJsonObject physicalSides(const QJsonObject &rule, bool rtl)
{
    const QLatin1StringView start = rtl ? QLatin1StringView("Right") : QLatin1StringView("Left");
    const QLatin1StringView end = rtl ? QLatin1StringView("Left") : QLatin1StringView("Right");
    QJsonObject out;
    for (auto it = rule.begin(); it != rule.end(); ++it) {
        QString key = it.key();
        for (const auto &[logical, sides] :
             {std::pair{QLatin1StringView("InlineStart"), QStringList{start}},
              std::pair{QLatin1StringView("InlineEnd"), QStringList{end}},
              std::pair{QLatin1StringView("Inline"), QStringList{QStringLiteral("Left"), QStringLiteral("Right")}},
              std::pair{QLatin1StringView("BlockStart"), QStringList{QStringLiteral("Top")}},
              std::pair{QLatin1StringView("BlockEnd"), QStringList{QStringLiteral("Bottom")}},
              std::pair{QLatin1StringView("Block"), QStringList{QStringLiteral("Top"), QStringLiteral("Bottom")}}}) {
            const qsizetype at = key.indexOf(logical);
            if (at < 0)
                continue;
            for (const QString &side : sides)
                out.insert(QString(key).replace(at, logical.size(), side), it.value());
            key.clear();
            break;
        }
        if (!key.isEmpty())
            out.insert(key, it.value());
    }
    return out;
}

bool directionIsRtl(const QJsonObject &style, const QJsonObject &props, bool parentRtl)
{
    QString direction = style.value(QLatin1String("direction")).toString().trimmed().toLower();
    if (direction != QLatin1String("rtl") && direction != QLatin1String("ltr"))
        direction = props.value(QLatin1String("dir")).toString().trimmed().toLower();
    return direction == QLatin1String("rtl") || (direction != QLatin1String("ltr") && parentRtl);
}

QString tailwindVersion()
{
    return table().version;
}

common::Expected<TailwindTheme, RenderError> parseTailwindConfig(const QJsonValue &config)
{
    TailwindTheme theme;
    if (config.isUndefined() || config.isNull())
        return theme;
    auto fail = [](const QString &field, const QString &message) {
        return RenderError{field, message, RenderErrorCode::InvalidTemplate};
    };
    RenderError error;
    if (!config.isObject())
        return fail(QStringLiteral("tailwind"), QStringLiteral("must be an object"));
    QJsonObject o = config.toObject();
    QString prefix = QStringLiteral("tailwind");
    if (const QJsonValue p = o.take(QLatin1String("preflight")); !p.isUndefined()) {
        if (!p.isBool())
            return fail(QStringLiteral("tailwind.preflight"), QStringLiteral("must be true or false"));
        theme.preflight = p.toBool();
    }
    // satori's tailwindConfig shape: {theme: {extend: {...}}} or {theme: {...}}.
    for (const char *wrap : {"theme", "extend"})
        if (o.value(QLatin1String(wrap)).isObject()) {
            // Flat or satori's shape, not both (docs/templates.md): a member beside the
            // wrapper would be dropped unread, and was stored unchecked (issue 30).
            for (auto it = o.begin(); it != o.end(); ++it)
                if (it.key() != QLatin1String(wrap))
                    return fail(prefix + u'.' + it.key(),
                                QStringLiteral("goes under '%1' when the tailwind object has one").arg(QLatin1String(wrap)));
            prefix += u'.' + QLatin1String(wrap);
            o = o.value(QLatin1String(wrap)).toObject();
        }
    static const QRegularExpression keyRe(QStringLiteral("^[A-Za-z0-9._-]+$"));
    const struct {
        const char *name, *ns;
        bool colour;
    } parts[] = {{"colors", "color", true}, {"fontFamily", "font", false}, {"spacing", "spacing", false}};
    for (auto it = o.begin(); it != o.end(); ++it) {
        const auto part = std::find_if(std::begin(parts), std::end(parts),
                                       [&](const auto &p) { return it.key() == QLatin1String(p.name); });
        const QString field = prefix + u'.' + it.key();
        if (part == std::end(parts))
            return fail(field, QStringLiteral("the tailwind object takes preflight, and colors, fontFamily and spacing "
                                              "(also under theme or theme.extend)"));
        if (!it.value().isObject())
            return fail(field, QStringLiteral("must be an object"));
        const QJsonObject entries = it.value().toObject();
        for (auto e = entries.begin(); e != entries.end(); ++e) {
            const QString name = field + u'.' + e.key();
            if (!keyRe.match(e.key()).hasMatch())
                return fail(name, QStringLiteral("a theme key is letters, digits, . _ -"));
            const QString var = QStringLiteral("--%1-%2").arg(QLatin1String(part->ns), e.key());
            if (part->colour && e.value().isObject()) { // a palette: {50: ..., 500: ..., DEFAULT: ...}
                const QJsonObject shades = e.value().toObject();
                for (auto s = shades.begin(); s != shades.end(); ++s) {
                    const bool isDefault = s.key() == QLatin1String("DEFAULT");
                    if (!isDefault && !keyRe.match(s.key()).hasMatch())
                        return fail(name + u'.' + s.key(), QStringLiteral("a theme key is letters, digits, . _ -"));
                    if (!addVar(theme, isDefault ? var : var + u'-' + s.key(), s.value(), name + u'.' + s.key(), true,
                                &error))
                        return error;
                }
                continue;
            }
            if (!addVar(theme, var, e.value(), name, part->colour, &error))
                return error;
        }
    }
    return theme;
}

TailwindDeclarations expandTailwind(const QString &classes, const TailwindTheme &theme, double viewportWidth,
                                    const QString &field, QStringList *warnings, TailwindSiblings siblings)
{
    struct Item {
        int rank, order;
        bool afterRank;
        QString name;
        Decls decls;
    };
    auto warn = [&](const QString &m) {
        if (warnings)
            warnings->append(QStringLiteral("%1: %2").arg(field, m));
    };
    const Table &t = table();
    static const QStringList breakpoints = {QStringLiteral("sm"), QStringLiteral("md"), QStringLiteral("lg"),
                                            QStringLiteral("xl"), QStringLiteral("2xl")};
    QList<Item> items;
    static const QRegularExpression space(QStringLiteral("\\s+"));
    const QStringList names = classes.split(space, Qt::SkipEmptyParts);
    for (int index = 0; index < names.size(); ++index) {
        QString name = names.at(index);
        int rank = 0;
        bool applies = true;
        // Variants: `md:` is a min-width media query on the image width, `first:` and its
        // kin a structural pseudo-class of the element's place; the rest (hover:, dark:,
        // group-*, ...) need a state a still image never has.
        for (qsizetype colon = lastOutsideBrackets(name, u':'); colon > 0; colon = lastOutsideBrackets(name, u':')) {
            const QString variant = name.left(colon).section(u':', -1);
            name = name.left(colon).section(u':', 0, -2).isEmpty() ? name.mid(colon + 1)
                                                                     : name.left(colon).section(u':', 0, -2) + u':'
                                                                           + name.mid(colon + 1);
            // In the compiler's variant order (first, last, only, odd, even), all before
            // the breakpoints.
            static const QStringList structural = {QStringLiteral("first"), QStringLiteral("last"),
                                                   QStringLiteral("only"), QStringLiteral("odd"),
                                                   QStringLiteral("even")};
            if (const qsizetype kind = structural.indexOf(variant); kind >= 0) {
                const bool matches = std::array{siblings.index == 0, siblings.index == siblings.count - 1,
                                                siblings.count == 1, siblings.index % 2 == 0,
                                                siblings.index % 2 == 1}[size_t(kind)];
                applies = applies && matches;
                rank = std::max<int>(rank, int(kind) + 1);
                continue;
            }
            const bool max = variant.startsWith(QLatin1String("max-"));
            const QString bp = max ? variant.mid(4) : variant;
            const QString width = theme.vars.value(QStringLiteral("--breakpoint-") + bp,
                                                   t.vars.value(QStringLiteral("--breakpoint-") + bp));
            const auto rem = css::numberWithUnit(width, QLatin1StringView("rem"));
            if (!rem) {
                warn(QStringLiteral("\"%1\": the %2: variant cannot apply to a still image").arg(names.at(index), variant));
                applies = false;
                break;
            }
            const double px = double(*rem) * 16;
            applies = applies && (max ? viewportWidth < px : viewportWidth >= px);
            rank = std::max<int>(rank, int(breakpoints.indexOf(bp)) + 6 + (max ? 0 : 8));
        }
        if (!applies)
            continue;
        if (name.startsWith(u'!'))
            name.remove(0, 1);
        else if (name.endsWith(u'!'))
            name.chop(1);
        auto u = utility(name, theme);
        if (!u) {
            warn(QStringLiteral("unsupported Tailwind class \"%1\"").arg(names.at(index)));
            continue;
        }
        if (const QStringList lost = undrawnProperties(u->decls); !lost.isEmpty())
            warn(QStringLiteral("\"%1\": %2 not drawn").arg(names.at(index), lost.join(QLatin1String(", "))));
        items.append({rank, u->order, u->afterRank, name, u->decls});
    }
    std::stable_sort(items.begin(), items.end(), [](const Item &a, const Item &b) {
        // Tailwind's order: variants after the base utilities, then the compiler's
        // property order, then the class names (`bg-[#fff]` before `bg-black`).
        if (a.rank != b.rank)
            return a.rank < b.rank;
        if (a.order != b.order)
            return a.order < b.order;
        return a.afterRank != b.afterRank ? b.afterRank : a.name < b.name;
    });
    QList<const Decls *> sorted;
    for (const Item &i : items)
        sorted << &i.decls;
    return {resolve(sorted, theme, false), resolve(sorted, theme, true)};
}

} // namespace imprint::render
