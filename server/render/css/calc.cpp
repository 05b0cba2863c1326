// calc(), min(), max(), clamp() in lengths (CSS Values 4 §10).

#include "server/render/css/calc.h"
#include "server/render/css/parse.h"

#include <cmath>
#include <vector>

namespace imprint::render::css {

namespace {

constexpr int kMaxDepth = 32;
constexpr qsizetype kMaxLength = 4096;

/// A calculation's type (CSS Values 4 §10.8.1) and value: a number, or a length made of a
/// px part and a percentage part, which stay apart until layout knows the basis.
struct Value {
    bool isNumber = true;
    double number = 0; // when isNumber
    double px = 0, percent = 0; // when !isNumber
};

/// A recursive-descent evaluator over the function's text (CSS Values 4 §10.1 grammar:
/// <calc-sum> = <calc-product> [ [ '+' | '-' ] <calc-product> ]*).
class Parser
{
public:
    Parser(QStringView text, float fontSize, float rootFontSize)
        : m_t(text)
        , m_fontSize(fontSize)
        , m_rootFontSize(rootFontSize)
    { }

    std::optional<Value> function()
    {
        skipSpace();
        const qsizetype start = m_i;
        while (m_i < m_t.size() && (m_t[m_i].isLetter() || m_t[m_i] == u'-'))
            ++m_i;
        const QString name = m_t.mid(start, m_i - start).toString().toLower();
        if (m_i >= m_t.size() || m_t[m_i] != u'(')
            return std::nullopt;
        ++m_i;
        if (++m_depth > kMaxDepth)
            return std::nullopt;
        std::optional<Value> v;
        if (name == QLatin1String("calc") || name == QLatin1String("-webkit-calc"))
            v = sum();
        else if (name == QLatin1String("min") || name == QLatin1String("max") || name == QLatin1String("clamp"))
            v = comparison(name);
        return closed(std::move(v));
    }

    bool atEnd()
    {
        skipSpace();
        return m_i == m_t.size();
    }

private:
    void skipSpace()
    {
        while (m_i < m_t.size() && m_t[m_i].isSpace())
            ++m_i;
    }

    // min(a, b, …), max(a, b, …), clamp(lo, v, hi) (§10.2): one type throughout, no
    // percentages (their comparison needs the basis, which only layout has).
    std::optional<Value> comparison(const QString &name)
    {
        std::vector<Value> args;
        for (;;) {
            auto v = sum();
            if (!v || (!v->isNumber && v->percent != 0))
                return std::nullopt;
            if (!args.empty() && args.front().isNumber != v->isNumber)
                return std::nullopt;
            args.push_back(*v);
            skipSpace();
            if (m_i < m_t.size() && m_t[m_i] == u',') {
                ++m_i;
                continue;
            }
            break;
        }
        if (name == QLatin1String("clamp") && args.size() != 3)
            return std::nullopt;
        auto scalar = [](const Value &v) { return v.isNumber ? v.number : v.px; };
        double r = scalar(args.front());
        if (name == QLatin1String("clamp")) {
            r = std::max(scalar(args[0]), std::min(scalar(args[1]), scalar(args[2])));
        } else {
            for (const Value &v : args)
                r = name == QLatin1String("min") ? std::min(r, scalar(v)) : std::max(r, scalar(v));
        }
        Value out = args.front();
        (out.isNumber ? out.number : out.px) = r;
        return out;
    }

    /// A left-associative chain `operand (op operand)*` with `op` one of `ops` (CSS
    /// Values 4 §10.1 <calc-sum> and <calc-product>): `combine(left, op, right)` folds
    /// each step into `left`, false when the step is invalid.
    template<typename Operand, typename Combine>
    std::optional<Value> chain(QChar op1, QChar op2, Operand operand, Combine combine)
    {
        auto left = (this->*operand)();
        if (!left)
            return std::nullopt;
        for (;;) {
            skipSpace();
            if (m_i >= m_t.size() || (m_t[m_i] != op1 && m_t[m_i] != op2))
                return left;
            const QChar op = m_t[m_i];
            ++m_i;
            auto right = (this->*operand)();
            if (!right || !combine(*left, op, *right))
                return std::nullopt;
        }
    }

    std::optional<Value> sum()
    {
        return chain(u'+', u'-', &Parser::product, [](Value &left, QChar op, const Value &right) {
            if (right.isNumber != left.isNumber)
                return false;
            const double k = op == u'-' ? -1 : 1;
            left.number += k * right.number;
            left.px += k * right.px;
            left.percent += k * right.percent;
            return true;
        });
    }

    std::optional<Value> product()
    {
        return chain(u'*', u'/', &Parser::unary, [](Value &left, QChar op, const Value &right) {
            if (op == u'/') {
                // §10.8: the right side of / must be a number, and not zero.
                if (!right.isNumber || right.number == 0)
                    return false;
                scale(left, 1 / right.number);
            } else if (right.isNumber) {
                scale(left, right.number);
            } else if (left.isNumber) {
                const double k = left.number;
                left = right;
                scale(left, k);
            } else {
                return false; // length × length has no CSS type here
            }
            return std::isfinite(left.number) && std::isfinite(left.px) && std::isfinite(left.percent);
        });
    }

    /// `v` once the ')' that closes the current function follows it (leaving that
    /// function's nesting level); nullopt without a value or the ')'.
    std::optional<Value> closed(std::optional<Value> v)
    {
        skipSpace();
        if (!v || m_i >= m_t.size() || m_t[m_i] != u')')
            return std::nullopt;
        ++m_i;
        --m_depth;
        return v;
    }

    static void scale(Value &v, double k)
    {
        v.number *= k;
        v.px *= k;
        v.percent *= k;
    }

    std::optional<Value> unary()
    {
        skipSpace();
        if (m_i >= m_t.size())
            return std::nullopt;
        const QChar c = m_t[m_i];
        if (c == u'(') {
            ++m_i;
            if (++m_depth > kMaxDepth)
                return std::nullopt;
            auto v = sum();
            return closed(std::move(v));
        }
        if (c.isLetter() || (c == u'-' && m_i + 1 < m_t.size() && m_t[m_i + 1].isLetter()))
            return function();
        return dimension();
    }

    // A <number>, <percentage> or <dimension> token (CSS Syntax 3 §4.3.3).
    std::optional<Value> dimension()
    {
        const qsizetype start = m_i;
        if (m_i < m_t.size() && (m_t[m_i] == u'+' || m_t[m_i] == u'-'))
            ++m_i;
        bool digits = false;
        while (m_i < m_t.size() && m_t[m_i].isDigit())
            ++m_i, digits = true;
        if (m_i < m_t.size() && m_t[m_i] == u'.') {
            ++m_i;
            while (m_i < m_t.size() && m_t[m_i].isDigit())
                ++m_i, digits = true;
        }
        if (!digits)
            return std::nullopt;
        m_i = skipExponent(m_t, m_i);
        bool ok = false;
        const double n = m_t.mid(start, m_i - start).toDouble(&ok);
        if (!ok || !std::isfinite(n) || std::abs(n) > 1e9)
            return std::nullopt;
        const qsizetype unitStart = m_i;
        if (m_i < m_t.size() && m_t[m_i] == u'%') {
            ++m_i;
        } else {
            while (m_i < m_t.size() && m_t[m_i].isLetter())
                ++m_i;
        }
        const QString unit = m_t.mid(unitStart, m_i - unitStart).toString().toLower();
        Value v;
        if (unit.isEmpty()) {
            v.number = n;
            return v;
        }
        v.isNumber = false;
        if (unit == QLatin1String("%"))
            v.percent = n;
        else if (unit == QLatin1String("px"))
            v.px = n;
        else if (unit == QLatin1String("em"))
            v.px = n * m_fontSize;
        else if (unit == QLatin1String("rem"))
            v.px = n * m_rootFontSize;
        else if (unit == QLatin1String("pt"))
            v.px = n * 96 / 72;
        else if (unit == QLatin1String("pc"))
            v.px = n * 16;
        else if (unit == QLatin1String("in"))
            v.px = n * 96;
        else if (unit == QLatin1String("cm"))
            v.px = n * 96 / 2.54;
        else if (unit == QLatin1String("mm"))
            v.px = n * 96 / 25.4;
        else
            return std::nullopt;
        return v;
    }

    QStringView m_t;
    qsizetype m_i = 0;
    int m_depth = 0;
    float m_fontSize, m_rootFontSize;
};

} // namespace

bool isMathFunction(QStringView text)
{
    for (const char *name : {"calc(", "-webkit-calc(", "min(", "max(", "clamp("})
        if (text.startsWith(QLatin1StringView(name), Qt::CaseInsensitive))
            return true;
    return false;
}

std::optional<Length> calcLength(QStringView text, float fontSize, float rootFontSize)
{
    text = text.trimmed();
    if (text.size() > kMaxLength || !isMathFunction(text))
        return std::nullopt;
    Parser parser(text, fontSize, rootFontSize);
    const auto v = parser.function();
    if (!v || !parser.atEnd())
        return std::nullopt;
    // A bare number is px, as a template's unitless lengths are.
    const double px = v->isNumber ? v->number : v->px;
    if (std::abs(px) > 1e9 || std::abs(v->percent) > 1e9)
        return std::nullopt;
    if (v->isNumber || v->percent == 0)
        return Length::px(float(px));
    Length l = Length::percent(float(v->percent));
    l.offset = float(px);
    return l;
}

} // namespace imprint::render::css
