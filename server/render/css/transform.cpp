// Transform lists (CSS Transforms 1 §9): translate, rotate, scale, skew and matrix
// functions, angles in degrees.

#include "server/render/css/parse.h"
#include "server/render/css/list_items.h"

#include <type_traits>

namespace imprint::render::css {

static std::optional<std::vector<TransformOp>> transformWithReason(const QString &text, float fontSize,
                                                                   float rootFontSize, QString *reason)
{
    std::vector<TransformOp> ops;
    const std::optional<QStringList> fns = listItems(text, QLatin1Char(' '), "transform", reason);
    if (!fns)
        return std::nullopt;
    for (const QString &fn : *fns) {
        const auto call = function(fn);
        if (!call) {
            *reason = QStringLiteral("invalid transform \"%1\"").arg(fn);
            return std::nullopt;
        }
        const QString &name = call->name, &argText = call->args;
        QStringList args = split(argText, QLatin1Char(','));
        if (args.size() == 1)
            args = split(argText, QLatin1Char(' ')); // CSS also allows spaces in new syntax
        auto bad = [&](const char *why) {
            *reason = QStringLiteral("invalid %1(): %2").arg(name, QLatin1String(why));
            return std::nullopt;
        };
        TransformOp op;
        auto len = [&](int i) { return lengthPercentage(args.value(i), fontSize, rootFontSize); };
        // translate, scale and skew: the -x and -y forms take one value through `parse` for
        // that axis, the bare form one or two, x then y (a lone value sets y too when
        // `uniform`, else leaves it). False, after bad(), when there are more or one is invalid.
        auto axes = [&](auto parse, auto &x, auto &y, bool uniform, const char *count, const char *invalid) {
            const bool xOnly = name.endsWith(u'x'), yOnly = name.endsWith(u'y');
            if (args.isEmpty() || args.size() > (xOnly || yOnly ? 1 : 2)) {
                bad(count);
                return false;
            }
            const auto first = parse(0);
            const auto second = args.size() == 2 ? parse(1) : std::remove_cvref_t<decltype(first)>();
            if (!first || (args.size() == 2 && !second)) {
                bad(invalid);
                return false;
            }
            if (yOnly) {
                y = *first;
            } else if (xOnly) {
                x = *first;
            } else {
                x = *first;
                y = second ? *second : uniform ? *first : y;
            }
            return true;
        };
        if (name == QLatin1String("translate") || name == QLatin1String("translatex")
            || name == QLatin1String("translatey")) {
            op.kind = TransformOp::Kind::Translate;
            op.x = op.y = Length::px(0);
            if (!axes(len, op.x, op.y, false, "takes one or two lengths", "invalid length"))
                return std::nullopt;
        } else if (name == QLatin1String("rotate") || name == QLatin1String("rotatez")) {
            op.kind = TransformOp::Kind::Rotate;
            auto a = args.size() == 1 ? angle(args[0]) : std::nullopt;
            if (!a)
                return bad("takes one angle");
            op.a = *a;
        } else if (name == QLatin1String("scale") || name == QLatin1String("scalex")
                   || name == QLatin1String("scaley")) {
            op.kind = TransformOp::Kind::Scale;
            op.a = op.b = 1;
            auto factor = [&](int i) -> std::optional<float> {
                if (auto p = percentage(args[i]))
                    return *p / 100.f;
                return number(args[i]);
            };
            if (!axes(factor, op.a, op.b, true, "takes one or two numbers", "invalid number"))
                return std::nullopt;
        } else if (name == QLatin1String("skew") || name == QLatin1String("skewx") || name == QLatin1String("skewy")) {
            op.kind = TransformOp::Kind::Skew;
            const auto skewAngle = [&](int i) { return angle(args[i]); };
            if (!axes(skewAngle, op.a, op.b, false, "takes one or two angles", "invalid angle"))
                return std::nullopt;
        } else if (name == QLatin1String("matrix")) {
            op.kind = TransformOp::Kind::Matrix;
            if (args.size() != 6)
                return bad("takes six numbers");
            for (int i = 0; i < 6; ++i) {
                auto v = number(args[i]);
                if (!v)
                    return bad("invalid number");
                op.m[i] = *v;
            }
        } else {
            *reason = QStringLiteral("unsupported transform function %1()").arg(name);
            return std::nullopt;
        }
        ops.push_back(op);
    }
    return ops;
}

Parsed<std::vector<TransformOp>> transform(const QString &text, float fontSize, float rootFontSize)
{
    QString reason;
    auto value = transformWithReason(text, fontSize, rootFontSize, &reason);
    return parsed(std::move(value), reason);
}

} // namespace imprint::render::css
