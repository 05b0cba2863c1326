// Transform lists (CSS Transforms 1 §9): translate, rotate, scale, skew and matrix
// functions, angles in degrees.

#include "server/render/css/parse.h"

namespace imprint::render::css {

static std::optional<std::vector<TransformOp>> transformWithReason(const QString &text, float fontSize,
                                                                   float rootFontSize, QString *reason)
{
    std::vector<TransformOp> ops;
    if (text.trimmed().compare(QLatin1String("none"), Qt::CaseInsensitive) == 0)
        return ops;
    const QStringList fns = split(text, QLatin1Char(' '));
    if (fns.isEmpty()) {
        *reason = QStringLiteral("empty transform");
        return std::nullopt;
    }
    for (const QString &fn : fns) {
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
        if (name == QLatin1String("translate") || name == QLatin1String("translatex")
            || name == QLatin1String("translatey")) {
            op.kind = TransformOp::Kind::Translate;
            op.x = op.y = Length::px(0);
            const bool two = name == QLatin1String("translate");
            if (args.isEmpty() || args.size() > (two ? 2 : 1))
                return bad("takes one or two lengths");
            auto a = len(0);
            if (!a)
                return bad("invalid length");
            if (name == QLatin1String("translatey")) {
                op.y = *a;
            } else {
                op.x = *a;
                if (args.size() == 2) {
                    auto b = len(1);
                    if (!b)
                        return bad("invalid length");
                    op.y = *b;
                }
            }
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
            const bool two = name == QLatin1String("scale");
            if (args.isEmpty() || args.size() > (two ? 2 : 1))
                return bad("takes one or two numbers");
            auto factor = [&](int i) -> std::optional<float> {
                if (auto p = percentage(args[i]))
                    return *p / 100.f;
                return number(args[i]);
            };
            auto a = factor(0);
            if (!a)
                return bad("invalid number");
            if (name == QLatin1String("scalex")) {
                op.a = *a;
            } else if (name == QLatin1String("scaley")) {
                op.b = *a;
            } else {
                op.a = op.b = *a;
                if (args.size() == 2) {
                    auto b = factor(1);
                    if (!b)
                        return bad("invalid number");
                    op.b = *b;
                }
            }
        } else if (name == QLatin1String("skew") || name == QLatin1String("skewx") || name == QLatin1String("skewy")) {
            op.kind = TransformOp::Kind::Skew;
            const bool two = name == QLatin1String("skew");
            if (args.isEmpty() || args.size() > (two ? 2 : 1))
                return bad("takes one or two angles");
            auto a = angle(args[0]);
            if (!a)
                return bad("invalid angle");
            if (name == QLatin1String("skewy")) {
                op.b = *a;
            } else {
                op.a = *a;
                if (args.size() == 2) {
                    auto b = angle(args[1]);
                    if (!b)
                        return bad("invalid angle");
                    op.b = *b;
                }
            }
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
