// Author style sheets: CSS Syntax 3 rule blocks, Selectors 4 matching, CSS Cascade 4
// ordering (stylesheet.h).

#include "server/render/style/stylesheet.h"
#include "server/render/css/parse.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>

namespace imprint::render {

// Named rather than anonymous: StyleRule (declared in the header) holds these types.
namespace stylesheet_detail {

struct ComplexSelector;

/// One simple selector (Selectors 4 §3): a type, id, class, attribute or pseudo-class test.
struct SimpleSelector {
    enum class Kind : quint8 {
        Type, Universal, Id, Class, Attribute, Root, FirstChild, LastChild, OnlyChild, NthChild, NthLastChild,
        FirstOfType, LastOfType, NthOfType, Not, Is, Where
    };
    Kind kind = Kind::Universal;
    QString name; ///< tag, id, class or attribute name
    QString value; ///< attribute value
    QChar op; ///< attribute operator: 0 (exists), '=', '~', '|', '^', '$', '*'
    bool caseInsensitive = false; ///< `[a=v i]`
    int a = 0, b = 0; ///< an+b
    std::vector<ComplexSelector> nested; ///< :not() / :is() / :where() arguments
};

/// Compound selectors joined by combinators, stored right to left: `compounds[0]` is the
/// subject, `combinators[i]` joins compounds[i] to compounds[i + 1] (' ', '>', '+', '~').
struct ComplexSelector {
    std::vector<std::vector<SimpleSelector>> compounds;
    std::vector<QChar> combinators;
};

/// Selectors 4 §16: (ids, classes/attributes/pseudo-classes, types), compared in order.
using Specificity = std::array<int, 3>;

/// Why a selector is refused: silently (it cannot apply to a still image) or with a reason.
struct Refusal {
    bool silent = false;
    QString reason;
};

QString stripComments(const QString &css)
{
    QString out;
    out.reserve(css.size());
    for (qsizetype i = 0; i < css.size(); ++i) {
        if (css.at(i) == u'/' && i + 1 < css.size() && css.at(i + 1) == u'*') {
            const qsizetype end = css.indexOf(QLatin1String("*/"), i + 2);
            if (end < 0)
                break;
            i = end + 1;
            out += u' ';
            continue;
        }
        out += css.at(i);
    }
    return out;
}

/// Selectors 4 parsing of one selector list, by recursive descent.
class SelectorParser
{
public:
    explicit SelectorParser(QStringView text)
        : m_s(text)
    { }

    std::optional<std::vector<ComplexSelector>> list(Refusal *why)
    {
        std::vector<ComplexSelector> out;
        for (const QString &part : css::split(m_s, u',')) {
            SelectorParser p(part);
            auto complex = p.complex(why);
            if (!complex)
                return std::nullopt;
            out.push_back(std::move(*complex));
        }
        return out;
    }

private:
    std::optional<ComplexSelector> complex(Refusal *why)
    {
        ComplexSelector c;
        std::vector<std::vector<SimpleSelector>> leftToRight;
        std::vector<QChar> joins;
        skipSpace();
        while (m_pos < m_s.size()) {
            auto compound = this->compound(why);
            if (!compound)
                return std::nullopt;
            leftToRight.push_back(std::move(*compound));
            const bool spaced = skipSpace();
            if (m_pos >= m_s.size())
                break;
            QChar join = u' ';
            const QChar c = m_s.at(m_pos);
            if (c == u'>' || c == u'+' || c == u'~') {
                join = c;
                ++m_pos;
                skipSpace();
            } else if (!spaced) {
                return refuse(why, QStringLiteral("unexpected \"%1\"").arg(c));
            }
            joins.push_back(join);
        }
        if (leftToRight.empty() || joins.size() + 1 != leftToRight.size())
            return refuse(why, QStringLiteral("empty selector"));
        c.compounds.assign(std::make_move_iterator(leftToRight.rbegin()), std::make_move_iterator(leftToRight.rend()));
        c.combinators.assign(joins.rbegin(), joins.rend());
        return c;
    }

    std::optional<std::vector<SimpleSelector>> compound(Refusal *why)
    {
        std::vector<SimpleSelector> out;
        while (m_pos < m_s.size()) {
            const QChar c = m_s.at(m_pos);
            SimpleSelector s;
            if (c == u'*') {
                ++m_pos;
                s.kind = SimpleSelector::Kind::Universal;
            } else if (isNameStart(c)) {
                s.kind = SimpleSelector::Kind::Type;
                s.name = ident().toLower();
            } else if (c == u'#' || c == u'.') {
                ++m_pos;
                s.kind = c == u'#' ? SimpleSelector::Kind::Id : SimpleSelector::Kind::Class;
                s.name = ident();
                if (s.name.isEmpty())
                    return refuse(why, QStringLiteral("a name must follow \"%1\"").arg(c));
            } else if (c == u'[') {
                if (!attribute(s))
                    return refuse(why, QStringLiteral("malformed attribute selector"));
            } else if (c == u':') {
                if (!pseudo(s, why))
                    return std::nullopt;
            } else {
                break;
            }
            out.push_back(std::move(s));
        }
        if (out.empty())
            return refuse(why, QStringLiteral("expected a selector"));
        return out;
    }

    bool attribute(SimpleSelector &s)
    {
        const qsizetype close = m_s.indexOf(u']', m_pos);
        if (close < 0)
            return false;
        const QString body = m_s.mid(m_pos + 1, close - m_pos - 1).trimmed().toString();
        m_pos = close + 1;
        s.kind = SimpleSelector::Kind::Attribute;
        const qsizetype eq = body.indexOf(u'=');
        if (eq < 0) {
            s.name = body.toLower();
            return !s.name.isEmpty();
        }
        qsizetype nameEnd = eq;
        if (eq > 0 && QStringLiteral("~|^$*").contains(body.at(eq - 1))) {
            s.op = body.at(eq - 1);
            nameEnd = eq - 1;
        } else {
            s.op = u'=';
        }
        s.name = body.left(nameEnd).trimmed().toLower();
        QString value = body.mid(eq + 1).trimmed();
        if (value.endsWith(QLatin1String(" i"), Qt::CaseInsensitive)) {
            s.caseInsensitive = true;
            value.chop(2);
            value = value.trimmed();
        }
        if (value.size() >= 2 && (value.front() == u'"' || value.front() == u'\'') && value.back() == value.front())
            value = value.mid(1, value.size() - 2);
        s.value = value;
        return !s.name.isEmpty();
    }

    bool pseudo(SimpleSelector &s, Refusal *why)
    {
        ++m_pos;
        if (m_pos < m_s.size() && m_s.at(m_pos) == u':') {
            ++m_pos;
            ident();
            why->silent = true; // ::before, ::after, ::placeholder: no generated content
            return false;
        }
        const QString name = ident().toLower();
        QString argument;
        if (m_pos < m_s.size() && m_s.at(m_pos) == u'(') {
            int depth = 0;
            const qsizetype open = m_pos;
            for (; m_pos < m_s.size(); ++m_pos) {
                depth += m_s.at(m_pos) == u'(' ? 1 : m_s.at(m_pos) == u')' ? -1 : 0;
                if (depth == 0)
                    break;
            }
            if (m_pos >= m_s.size()) {
                why->reason = QStringLiteral(":%1( is not closed").arg(name);
                return false;
            }
            argument = m_s.mid(open + 1, m_pos - open - 1).trimmed().toString();
            ++m_pos;
        }
        using K = SimpleSelector::Kind;
        static const QHash<QString, K> plain{{QStringLiteral("root"), K::Root},
                                             {QStringLiteral("first-child"), K::FirstChild},
                                             {QStringLiteral("last-child"), K::LastChild},
                                             {QStringLiteral("only-child"), K::OnlyChild},
                                             {QStringLiteral("first-of-type"), K::FirstOfType},
                                             {QStringLiteral("last-of-type"), K::LastOfType}};
        static const QHash<QString, K> nth{{QStringLiteral("nth-child"), K::NthChild},
                                           {QStringLiteral("nth-last-child"), K::NthLastChild},
                                           {QStringLiteral("nth-of-type"), K::NthOfType}};
        static const QHash<QString, K> nested{
            {QStringLiteral("not"), K::Not}, {QStringLiteral("is"), K::Is}, {QStringLiteral("where"), K::Where}};
        // User-action and link states never hold in a still image (Selectors 4 §9, §10).
        static const QSet<QString> dynamic{QStringLiteral("hover"),  QStringLiteral("focus"),
                                           QStringLiteral("active"), QStringLiteral("visited"),
                                           QStringLiteral("focus-visible"), QStringLiteral("focus-within"),
                                           QStringLiteral("target"), QStringLiteral("checked"),
                                           QStringLiteral("disabled")};
        if (plain.contains(name) && argument.isEmpty()) {
            s.kind = plain.value(name);
            return true;
        }
        if (nth.contains(name)) {
            s.kind = nth.value(name);
            if (nthArgument(argument, &s.a, &s.b))
                return true;
            why->reason = QStringLiteral(":%1(%2) is not an+b").arg(name, argument);
            return false;
        }
        if (nested.contains(name)) {
            s.kind = nested.value(name);
            auto list = SelectorParser(argument).list(why);
            if (!list)
                return false;
            s.nested = std::move(*list);
            return true;
        }
        why->silent = dynamic.contains(name);
        why->reason = QStringLiteral(":%1 is not supported").arg(name);
        return false;
    }

    /// Selectors 4 §14.1 <an+b>: odd, even, an integer, or an+b with optional parts.
    static bool nthArgument(QString text, int *a, int *b)
    {
        text = text.remove(u' ').toLower();
        if (text == QLatin1String("odd"))
            return *a = 2, *b = 1, true;
        if (text == QLatin1String("even"))
            return *a = 2, *b = 0, true;
        bool ok = false;
        const qsizetype n = text.indexOf(u'n');
        if (n < 0) {
            *a = 0;
            *b = text.toInt(&ok);
            return ok;
        }
        const QString coefficient = text.left(n);
        if (coefficient.isEmpty() || coefficient == QLatin1String("+"))
            *a = 1;
        else if (coefficient == QLatin1String("-"))
            *a = -1;
        else if (*a = coefficient.toInt(&ok); !ok)
            return false;
        const QString rest = text.mid(n + 1);
        *b = rest.isEmpty() ? 0 : rest.toInt(&ok);
        return rest.isEmpty() || ok;
    }

    static bool isNameStart(QChar c) { return c.isLetter() || c == u'_' || c == u'-' || c == u'\\' || c.unicode() >= 0x80; }

    /// An identifier with CSS escapes resolved (`.md\:flex` is the class "md:flex").
    QString ident()
    {
        QString out;
        while (m_pos < m_s.size()) {
            const QChar c = m_s.at(m_pos);
            if (c == u'\\' && m_pos + 1 < m_s.size()) {
                qsizetype hexEnd = m_pos + 1;
                while (hexEnd < m_s.size() && hexEnd - m_pos <= 6 && isxdigit(m_s.at(hexEnd).toLatin1()))
                    ++hexEnd;
                if (hexEnd > m_pos + 1) {
                    out += QChar(char16_t(m_s.mid(m_pos + 1, hexEnd - m_pos - 1).toUInt(nullptr, 16)));
                    m_pos = hexEnd + (hexEnd < m_s.size() && m_s.at(hexEnd) == u' ' ? 1 : 0);
                } else {
                    out += m_s.at(m_pos + 1);
                    m_pos += 2;
                }
                continue;
            }
            if (!(c.isLetterOrNumber() || c == u'-' || c == u'_' || c.unicode() >= 0x80))
                break;
            out += c;
            ++m_pos;
        }
        return out;
    }

    bool skipSpace()
    {
        const qsizetype start = m_pos;
        while (m_pos < m_s.size() && m_s.at(m_pos).isSpace())
            ++m_pos;
        return m_pos > start;
    }

    static std::nullopt_t refuse(Refusal *why, const QString &reason)
    {
        why->reason = reason;
        return std::nullopt;
    }

    QStringView m_s;
    qsizetype m_pos = 0;
};

Specificity specificityOf(const ComplexSelector &selector);

Specificity specificityOf(const std::vector<SimpleSelector> &compound)
{
    Specificity s{0, 0, 0};
    for (const SimpleSelector &simple : compound) {
        using K = SimpleSelector::Kind;
        switch (simple.kind) {
        case K::Id: ++s[0]; break;
        case K::Type: ++s[2]; break;
        case K::Universal:
        case K::Where: break;
        case K::Not:
        case K::Is: { // the most specific argument (Selectors 4 §16)
            Specificity most{0, 0, 0};
            for (const ComplexSelector &c : simple.nested)
                most = std::max(most, specificityOf(c));
            for (size_t i = 0; i < 3; ++i)
                s[i] += most[i];
            break;
        }
        default: ++s[1]; break;
        }
    }
    return s;
}

Specificity specificityOf(const ComplexSelector &selector)
{
    Specificity s{0, 0, 0};
    for (const auto &compound : selector.compounds) {
        const Specificity c = specificityOf(compound);
        for (size_t i = 0; i < 3; ++i)
            s[i] += c[i];
    }
    return s;
}

} // namespace stylesheet_detail

using namespace stylesheet_detail;

struct StyleRule {
    ComplexSelector selector;
    Specificity specificity{0, 0, 0};
    int order = 0;
    std::vector<css::Declaration> declarations;
};

namespace {

bool matchesComplex(const ComplexSelector &selector, size_t compound, const MatchContext &context);

bool matchesAny(const std::vector<ComplexSelector> &list, const MatchContext &context)
{
    return std::any_of(list.begin(), list.end(),
                       [&](const ComplexSelector &c) { return matchesComplex(c, 0, context); });
}

/// Whether position `index` (0-based) of `count` is `an+b` (1-based) (Selectors 4 §14.1).
bool nthMatches(int a, int b, qsizetype position)
{
    const qsizetype n = position + 1 - b;
    if (a == 0)
        return n == 0;
    return n % a == 0 && n / a >= 0;
}

bool attributeMatches(const SimpleSelector &s, const SelectorSubject &e)
{
    QString actual;
    if (s.name == QLatin1String("id"))
        actual = e.id;
    else if (s.name == QLatin1String("class"))
        actual = e.classes.join(u' ');
    else if (auto it = e.attributes.constFind(s.name); it != e.attributes.constEnd())
        actual = *it;
    else
        return false;
    if (s.op.isNull())
        return true;
    const Qt::CaseSensitivity cs = s.caseInsensitive ? Qt::CaseInsensitive : Qt::CaseSensitive;
    switch (s.op.unicode()) {
    case u'=': return actual.compare(s.value, cs) == 0;
    case u'~': return actual.split(u' ', Qt::SkipEmptyParts).contains(s.value, cs);
    case u'|': return actual.compare(s.value, cs) == 0 || actual.startsWith(s.value + u'-', cs);
    case u'^': return !s.value.isEmpty() && actual.startsWith(s.value, cs);
    case u'$': return !s.value.isEmpty() && actual.endsWith(s.value, cs);
    case u'*': return !s.value.isEmpty() && actual.contains(s.value, cs);
    default: return false;
    }
}

bool matchesSimple(const SimpleSelector &s, const MatchContext &context)
{
    const SelectorSubject &e = *context.subject;
    const qsizetype count = qsizetype(context.siblings.size());
    auto ofType = [&](qsizetype from, qsizetype to) {
        qsizetype n = 0;
        for (qsizetype i = from; i < to; ++i)
            n += context.siblings[size_t(i)].tag == e.tag;
        return n;
    };
    using K = SimpleSelector::Kind;
    switch (s.kind) {
    case K::Universal: return true;
    case K::Type: return e.tag == s.name;
    case K::Id: return !e.id.isEmpty() && e.id == s.name;
    case K::Class: return e.classes.contains(s.name);
    case K::Attribute: return attributeMatches(s, e);
    case K::Root: return context.parent == nullptr;
    case K::FirstChild: return context.index == 0;
    case K::LastChild: return context.index == count - 1;
    case K::OnlyChild: return count == 1;
    case K::NthChild: return nthMatches(s.a, s.b, context.index);
    case K::NthLastChild: return nthMatches(s.a, s.b, count - 1 - context.index);
    case K::FirstOfType: return ofType(0, context.index) == 0;
    case K::LastOfType: return ofType(context.index + 1, count) == 0;
    case K::NthOfType: return nthMatches(s.a, s.b, ofType(0, context.index));
    case K::Not: return !matchesAny(s.nested, context);
    case K::Is:
    case K::Where: return matchesAny(s.nested, context);
    }
    return false;
}

/// How a selector failed, so the walk can stop early (as WebKit's SelectorChecker does):
/// without it, `.x div div … div span` on a deep tree tried every choice of ancestors,
/// exponential in the selector's length.
enum class MatchResult : quint8 {
    Matches,
    FailsLocally, ///< not here; another ancestor or sibling may do
    FailsAllSiblings, ///< no earlier sibling can match either
    FailsCompletely, ///< no further ancestor can match either
};

/// Selectors 4 §4: compound `compound` matches `context`, and the rest of the selector
/// (to its left) matches along the combinator's relation. A descendant step stops at the
/// first ancestor from which the rest fails completely: a farther ancestor has fewer
/// ancestors of its own, so the rest cannot match from there either.
MatchResult matchFrom(const ComplexSelector &selector, size_t compound, const MatchContext &context)
{
    for (const SimpleSelector &s : selector.compounds[compound])
        if (!matchesSimple(s, context))
            return MatchResult::FailsLocally;
    if (compound + 1 == selector.compounds.size())
        return MatchResult::Matches;
    const QChar join = selector.combinators[compound];
    if (join == u'>') {
        return context.parent ? matchFrom(selector, compound + 1, *context.parent) : MatchResult::FailsCompletely;
    }
    if (join == u' ') {
        for (const MatchContext *up = context.parent; up; up = up->parent) {
            const MatchResult r = matchFrom(selector, compound + 1, *up);
            if (r == MatchResult::Matches || r == MatchResult::FailsCompletely)
                return r;
        }
        return MatchResult::FailsCompletely;
    }
    if (context.index == 0)
        return MatchResult::FailsAllSiblings;
    for (qsizetype i = context.index - 1; i >= 0; --i) {
        const MatchContext before{&context.siblings[size_t(i)], context.parent, context.siblings, i};
        const MatchResult r = matchFrom(selector, compound + 1, before);
        if (join == u'+' || r != MatchResult::FailsLocally)
            return r;
    }
    return MatchResult::FailsAllSiblings;
}

bool matchesComplex(const ComplexSelector &selector, size_t compound, const MatchContext &context)
{
    return matchFrom(selector, compound, context) == MatchResult::Matches;
}

/// The longhands each shorthand sets (CSS Cascade 4 §1.2), transitively expanded by
/// coveredBy(): a shorthand of higher precedence resets them.
const QHash<QString, QStringList> &shorthandTable()
{
    static const QHash<QString, QStringList> table = [] {
        QHash<QString, QStringList> t;
        auto add = [&t](const char *shorthand, const char *longhands) {
            t.insert(QLatin1String(shorthand), QString::fromLatin1(longhands).split(u' '));
        };
        add("margin", "marginTop marginRight marginBottom marginLeft");
        add("padding", "paddingTop paddingRight paddingBottom paddingLeft");
        add("inset", "top right bottom left");
        add("border", "borderTop borderRight borderBottom borderLeft borderWidth borderStyle borderColor");
        for (const char *side : {"Top", "Right", "Bottom", "Left"})
            for (const char *part : {"Width", "Style", "Color"}) {
                const QString longhand = QStringLiteral("border%1%2").arg(QLatin1String(side), QLatin1String(part));
                t[QStringLiteral("border%1").arg(QLatin1String(side))] << longhand;
                t[QStringLiteral("border%1").arg(QLatin1String(part))] << longhand;
            }
        add("borderRadius", "borderTopLeftRadius borderTopRightRadius borderBottomRightRadius borderBottomLeftRadius");
        add("background", "backgroundColor backgroundImage backgroundPosition backgroundSize backgroundRepeat "
                          "backgroundClip backgroundOrigin backgroundAttachment");
        add("flex", "flexGrow flexShrink flexBasis");
        add("flexFlow", "flexDirection flexWrap");
        add("gap", "rowGap columnGap");
        add("overflow", "overflowX overflowY");
        add("textDecoration", "textDecorationLine textDecorationColor textDecorationStyle textDecorationThickness");
        add("gridArea", "gridRowStart gridColumnStart gridRowEnd gridColumnEnd");
        add("gridRow", "gridRowStart gridRowEnd");
        add("gridColumn", "gridColumnStart gridColumnEnd");
        add("gridTemplate", "gridTemplateRows gridTemplateColumns gridTemplateAreas");
        add("placeItems", "alignItems justifyItems");
        add("placeContent", "alignContent justifyContent");
        add("placeSelf", "alignSelf justifySelf");
        add("font", "fontFamily fontSize fontWeight fontStyle lineHeight fontVariant");
        add("WebkitMask", "WebkitMaskImage maskImage");
        add("mask", "maskImage maskSize maskRepeat maskPosition");
        return t;
    }();
    return table;
}

/// Removes from `style` every longhand `property` (a shorthand) resets, transitively.
void removeCovered(QJsonObject &style, const QString &property)
{
    const auto it = shorthandTable().constFind(property);
    if (it == shorthandTable().constEnd())
        return;
    for (const QString &longhand : *it) {
        if (longhand.isEmpty())
            continue;
        style.remove(longhand);
        removeCovered(style, longhand);
    }
}

void declare(QJsonObject &style, const QString &name, const QJsonValue &value)
{
    removeCovered(style, name);
    style.insert(name, value);
}

/// Whether a media query list (Media Queries 4 §2) holds for a still image of `viewport`
/// px on a screen; nullopt (with `why`) for a feature it cannot evaluate.
std::optional<bool> mediaMatches(const QString &prelude, QSizeF viewport, QString *why)
{
    for (QString query : css::split(prelude, u',')) {
        query = query.toLower();
        bool negate = false;
        if (query.startsWith(QLatin1String("not "))) {
            negate = true;
            query = query.mid(4);
        }
        query.remove(QLatin1String("only "));
        bool holds = true;
        for (QString term : query.split(QLatin1String(" and "), Qt::SkipEmptyParts)) {
            term = term.trimmed();
            if (term == QLatin1String("screen") || term == QLatin1String("all"))
                continue;
            if (term == QLatin1String("print") || term == QLatin1String("speech")) {
                holds = false;
                continue;
            }
            if (!term.startsWith(u'(') || !term.endsWith(u')')) {
                *why = QStringLiteral("media query \"%1\"").arg(term);
                return std::nullopt;
            }
            const QStringList parts = term.mid(1, term.size() - 2).split(u':');
            const QString feature = parts.value(0).trimmed(), value = parts.value(1).trimmed();
            const qreal px = value.endsWith(QLatin1String("px")) ? value.chopped(2).toDouble() : value.toDouble();
            if (feature == QLatin1String("min-width"))
                holds = holds && viewport.width() >= px;
            else if (feature == QLatin1String("max-width"))
                holds = holds && viewport.width() <= px;
            else if (feature == QLatin1String("min-height"))
                holds = holds && viewport.height() >= px;
            else if (feature == QLatin1String("max-height"))
                holds = holds && viewport.height() <= px;
            else if (feature == QLatin1String("orientation"))
                holds = holds && (value == QLatin1String("landscape")) == (viewport.width() > viewport.height());
            else if (feature == QLatin1String("prefers-color-scheme"))
                holds = holds && value == QLatin1String("light");
            else {
                *why = QStringLiteral("media feature \"%1\"").arg(feature);
                return std::nullopt;
            }
        }
        if (holds != negate)
            return true;
    }
    return false;
}

struct SheetParser {
    QSizeF viewport;
    QStringList *warnings;
    QString field;
    std::vector<StyleRule> *rules;
    int order = 0;

    void warn(const QString &message)
    {
        if (warnings)
            warnings->append(QStringLiteral("%1: %2").arg(field, message));
    }

    void parse(QStringView css, int depth)
    {
        qsizetype pos = 0;
        while (pos < css.size()) {
            const qsizetype open = css.indexOf(u'{', pos);
            const qsizetype semicolon = css.indexOf(u';', pos);
            if (semicolon >= 0 && (open < 0 || semicolon < open)) { // @import url(...); @charset
                const QString statement = css.mid(pos, semicolon - pos).trimmed().toString();
                if (!statement.isEmpty())
                    warn(QStringLiteral("\"%1\" is not supported").arg(statement.left(60)));
                pos = semicolon + 1;
                continue;
            }
            if (open < 0)
                break;
            const qsizetype close = css::closingBracket(css, open + 1, u'{', u'}');
            if (close < 0) {
                warn(QStringLiteral("a block is not closed"));
                break;
            }
            const QString prelude = css.mid(pos, open - pos).trimmed().toString();
            const QStringView body = css.mid(open + 1, close - open - 1);
            pos = close + 1;
            if (prelude.startsWith(u'@'))
                atRule(prelude, body, depth);
            else
                styleRule(prelude, body);
        }
    }

    void atRule(const QString &prelude, QStringView body, int depth)
    {
        const QString name = prelude.section(u' ', 0, 0).toLower();
        if (name == QLatin1String("@media") && depth < 4) {
            QString why;
            const auto holds = mediaMatches(prelude.section(u' ', 1), viewport, &why);
            if (!holds)
                warn(QStringLiteral("%1 is not supported; its rules are ignored").arg(why));
            else if (*holds)
                parse(body, depth + 1);
            return;
        }
        if (name == QLatin1String("@font-face")) {
            warn(QStringLiteral("@font-face is ignored: upload fonts through the fonts API (docs/fonts-and-images.md)"));
            return;
        }
        warn(QStringLiteral("%1 is not supported; its rules are ignored").arg(name));
    }

    void styleRule(const QString &prelude, QStringView body)
    {
        Refusal why;
        auto selectors = SelectorParser(prelude).list(&why);
        if (!selectors) {
            if (!why.silent)
                warn(QStringLiteral("selector \"%1\" ignored: %2").arg(prelude.left(80), why.reason));
            return;
        }
        std::vector<css::Declaration> declarations = css::parseDeclarationList(body);
        // `x: !important` declares nothing.
        std::erase_if(declarations, [](const css::Declaration &d) { return d.value.isEmpty(); });
        if (declarations.empty())
            return;
        const int ruleOrder = order++;
        for (ComplexSelector &selector : *selectors) {
            StyleRule rule;
            rule.specificity = specificityOf(selector);
            rule.selector = std::move(selector);
            rule.order = ruleOrder;
            rule.declarations = declarations;
            rules->push_back(std::move(rule));
        }
    }
};

} // namespace

bool setsLonghand(const QString &property, const QString &longhand)
{
    if (property == longhand)
        return true;
    const auto it = shorthandTable().constFind(property);
    return it != shorthandTable().constEnd()
           && std::any_of(it->begin(), it->end(), [&](const QString &l) { return setsLonghand(l, longhand); });
}

StyleSheet::StyleSheet() = default;
StyleSheet::~StyleSheet() = default;
StyleSheet::StyleSheet(StyleSheet &&) noexcept = default;
StyleSheet &StyleSheet::operator=(StyleSheet &&) noexcept = default;

bool StyleSheet::isEmpty() const
{
    return m_rules.empty();
}

qsizetype StyleSheet::ruleCount() const
{
    return qsizetype(m_rules.size());
}

StyleSheet StyleSheet::parse(const QStringList &sheets, QSizeF viewport, QStringList *warnings, const QString &field)
{
    StyleSheet sheet;
    SheetParser parser{viewport, warnings, QString(), &sheet.m_rules};
    for (qsizetype i = 0; i < sheets.size(); ++i) {
        parser.field = QStringLiteral("%1[%2]").arg(field).arg(i);
        parser.parse(stripComments(sheets.at(i)), 0);
    }
    // Cascade order (CSS Cascade 4 §6.4): specificity, then source order; stable so a
    // selector list's members keep theirs.
    std::stable_sort(sheet.m_rules.begin(), sheet.m_rules.end(), [](const StyleRule &a, const StyleRule &b) {
        return a.specificity != b.specificity ? a.specificity < b.specificity : a.order < b.order;
    });
    return sheet;
}

QJsonObject StyleSheet::cascade(const MatchContext &context, const QJsonObject &inlineStyle) const
{
    if (m_rules.empty() || !context.subject)
        return inlineStyle;
    std::vector<const StyleRule *> matched;
    for (const StyleRule &rule : m_rules)
        if (matchesComplex(rule.selector, 0, context))
            matched.push_back(&rule);
    if (matched.empty())
        return inlineStyle;
    QJsonObject out;
    for (const StyleRule *rule : matched)
        for (const css::Declaration &d : rule->declarations)
            if (!d.important)
                declare(out, d.name, d.value);
    for (auto it = inlineStyle.constBegin(); it != inlineStyle.constEnd(); ++it)
        declare(out, it.key(), it.value());
    for (const StyleRule *rule : matched)
        for (const css::Declaration &d : rule->declarations)
            if (d.important)
                declare(out, d.name, d.value);
    return out;
}

QStringList splitClasses(const QString &classAttribute)
{
    return classAttribute.split(QRegularExpression(QStringLiteral("[ \\t\\n\\f\\r]+")), Qt::SkipEmptyParts);
}

} // namespace imprint::render
