// var() substitution (CSS Custom Properties 1 §3).

#include "server/render/css/variables.h"
#include "server/render/css/parse.h"

namespace imprint::render::css {

namespace {

constexpr int kMaxFallbackDepth = 32;

bool isNameChar(QChar c)
{
    return c.isLetterOrNumber() || c == u'-' || c == u'_' || c.unicode() >= 0x80;
}

/// Index of the `var(` at or after `from` that starts a function (not the tail of a
/// longer name such as `myvar(`), or -1.
qsizetype findVar(QStringView text, qsizetype from)
{
    for (;;) {
        const qsizetype i = text.indexOf(QLatin1StringView("var("), from, Qt::CaseInsensitive);
        if (i < 0 || i == 0 || !isNameChar(text[i - 1]))
            return i;
        from = i + 1;
    }
}

std::optional<QString> substitute(QStringView text,
                                  const std::function<std::optional<QString>(const QString &)> &lookup, QString *reason,
                                  int depth)
{
    if (depth > kMaxFallbackDepth) {
        *reason = QStringLiteral("var() fallbacks nest more than %1 deep").arg(kMaxFallbackDepth);
        return std::nullopt;
    }
    QString out;
    qsizetype pos = 0;
    for (;;) {
        const qsizetype at = findVar(text, pos);
        if (at < 0) {
            out += text.mid(pos);
            break;
        }
        out += text.mid(pos, at - pos);
        const qsizetype open = at + 4;
        const qsizetype close = closingBracket(text, open);
        if (close < 0) {
            *reason = QStringLiteral("unbalanced var()");
            return std::nullopt;
        }
        const QStringView inner = text.mid(open, close - open);
        const qsizetype comma = inner.indexOf(u',');
        const QString name = (comma < 0 ? inner : inner.left(comma)).trimmed().toString();
        if (!name.startsWith(QLatin1StringView("--")) || name.size() < 3) {
            *reason = QStringLiteral("var() needs a custom property name, got \"%1\"").arg(name);
            return std::nullopt;
        }
        if (std::optional<QString> value = lookup(name)) {
            out += *value;
        } else if (comma >= 0) {
            auto fallback = substitute(inner.mid(comma + 1).trimmed(), lookup, reason, depth + 1);
            if (!fallback)
                return std::nullopt;
            out += *fallback;
        } else {
            *reason = QStringLiteral("%1 is not defined").arg(name);
            return std::nullopt;
        }
        if (out.size() > kMaxSubstitutedLength) {
            *reason = QStringLiteral("var() substitution longer than %1 characters").arg(kMaxSubstitutedLength);
            return std::nullopt;
        }
        pos = close + 1;
    }
    if (out.size() > kMaxSubstitutedLength) {
        *reason = QStringLiteral("var() substitution longer than %1 characters").arg(kMaxSubstitutedLength);
        return std::nullopt;
    }
    return out.trimmed();
}

} // namespace

bool containsVar(QStringView text)
{
    return findVar(text, 0) >= 0;
}

static std::optional<QString>
substituteVariablesWithReason(QStringView text, const std::function<std::optional<QString>(const QString &)> &lookup,
                              QString *reason)
{
    return substitute(text, lookup, reason, 0);
}

Parsed<QString> substituteVariables(QStringView text,
                                    const std::function<std::optional<QString>(const QString &)> &lookup)
{
    QString reason;
    auto value = substituteVariablesWithReason(text, lookup, &reason);
    return parsed(std::move(value), reason);
}

} // namespace imprint::render::css
