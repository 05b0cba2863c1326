#include "server/http/routes/render_fields.h"

#include "server/http/problem.h"

#include <algorithm>
#include <cmath>

namespace imprint::http {

HttpResponse invalidParam(const QString &field, const QString &detail)
{
    return fieldProblem(400, QStringLiteral("invalid_parameter"), field, detail);
}

/// Whether `text` is a decimal integer: an optional sign, then ASCII digits only (any
/// number of them: a size beyond int is clamped or refused by the caller, not misread).
bool isIntegerText(QStringView text)
{
    const qsizetype from = text.startsWith(u'+') || text.startsWith(u'-') ? 1 : 0;
    if (text.size() == from)
        return false;
    return std::all_of(text.begin() + from, text.end(), [](QChar c) { return c >= u'0' && c <= u'9'; });
}

/// Integer field `name` of a render request: absent → `out` untouched; not an integer or
/// below `min` → 400 naming it. Above `max`: with `clampAboveMax` (output sizes, which the
/// plan check answers with 402 however large they are) `max`, else 400 naming the range.
std::optional<HttpResponse> readInt(const QJsonObject &o, const QString &name, int min, int max, int *out,
                                    bool clampAboveMax)
{
    const QJsonValue v = o.value(name);
    if (v.isUndefined() || v.isNull() || (v.isString() && v.toString().isEmpty()))
        return std::nullopt;
    bool ok = false;
    double n = 0;
    if (v.isDouble()) {
        n = v.toDouble();
        ok = std::isfinite(n) && n == std::floor(n);
    } else if (v.isString()) {
        const QString text = v.toString().trimmed();
        ok = isIntegerText(text);
        bool fits = false;
        const qlonglong exact = ok ? text.toLongLong(&fits) : 0;
        n = fits ? double(exact) : (ok ? text.toDouble() : 0); // beyond 64 bits: still "too large"
    }
    if (!ok || n < min)
        return invalidParam(name, QStringLiteral("'%1' must be an integer of at least %2.").arg(name).arg(min));
    if (n > max && !clampAboveMax)
        return invalidParam(name, QStringLiteral("'%1' must be an integer from %2 to %3.").arg(name).arg(min).arg(max));
    *out = int(std::min<double>(n, max));
    return std::nullopt;
}

std::optional<HttpResponse> readBool(const QJsonObject &o, const QString &name, bool *out)
{
    const QJsonValue v = o.value(name);
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    if (v.isBool()) {
        *out = v.toBool();
        return std::nullopt;
    }
    if (v.isDouble() && (v.toDouble() == 0 || v.toDouble() == 1)) {
        *out = v.toDouble() == 1;
        return std::nullopt;
    }
    const QString s = v.toString().trimmed().toLower();
    if (v.isString() && (s == QLatin1String("true") || s == QLatin1String("1") || s == QLatin1String("yes"))) {
        *out = true;
        return std::nullopt;
    }
    if (v.isString() && (s == QLatin1String("false") || s == QLatin1String("0") || s == QLatin1String("no"))) {
        *out = false;
        return std::nullopt;
    }
    return invalidParam(name, QStringLiteral("'%1' must be true or false.").arg(name));
}

std::optional<HttpResponse> readString(const QJsonObject &o, const QString &name, QString *out)
{
    const QJsonValue v = o.value(name);
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    if (!v.isString())
        return invalidParam(name, QStringLiteral("'%1' must be a string.").arg(name));
    *out = v.toString().trimmed();
    return std::nullopt;
}

bool present(const QJsonObject &o, const QString &name)
{
    const QJsonValue v = o.value(name);
    return !v.isUndefined() && !v.isNull();
}

} // namespace imprint::http
