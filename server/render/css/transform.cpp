// Transform lists (CSS Transforms 1 §9): translate, rotate, scale, skew and matrix
// functions, and the 3D ones of CSS Transforms 2 §13 (translate3d, rotateX, perspective,
// matrix3d, …); angles in degrees, lengths in px.

#include "server/render/css/parse.h"
#include "server/render/css/list_items.h"

#include <QtMath>

#include <algorithm>
#include <tuple>
#include <type_traits>

namespace imprint::render::css {

std::optional<float> lengthPx(QStringView text, float fontSize, float rootFontSize)
{
    const auto l = lengthPercentage(text, fontSize, rootFontSize);
    if (!l || l->isPercent())
        return std::nullopt;
    return l->value;
}

std::optional<float> perspectiveDistance(QStringView text, float fontSize, float rootFontSize)
{
    text = text.trimmed();
    if (text.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0)
        return 0.f;
    const auto d = lengthPx(text, fontSize, rootFontSize);
    if (!d || *d < 0)
        return std::nullopt;
    return std::max(*d, 1.f);
}

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
        // `count` numbers from the first argument into `out`; false when there are not
        // exactly `count + extra` arguments or one is not a number.
        auto numbers = [&](float *out, int count, int extra = 0) {
            if (args.size() != count + extra)
                return false;
            for (int i = 0; i < count; ++i) {
                const auto v = number(args[i]);
                if (!v)
                    return false;
                out[i] = *v;
            }
            return true;
        };
        if (name == QLatin1String("translate3d") || name == QLatin1String("translatez")) {
            // §13.1: translate3d(<length-percentage>, <length-percentage>, <length>), translateZ(<length>).
            op.kind = TransformOp::Kind::Translate;
            op.x = op.y = Length::px(0);
            const bool full = name == QLatin1String("translate3d");
            if (args.size() != (full ? 3 : 1))
                return bad(full ? "takes two lengths or percentages and a length" : "takes one length");
            const auto z = lengthPx(args.value(full ? 2 : 0), fontSize, rootFontSize);
            const auto x = full ? len(0) : Length::px(0), y = full ? len(1) : Length::px(0);
            if (!z || !x || !y)
                return bad("invalid length");
            op.x = *x;
            op.y = *y;
            op.z = *z;
        } else if (name == QLatin1String("scale3d") || name == QLatin1String("scalez")) {
            op.kind = TransformOp::Kind::Scale;
            op.a = op.b = op.z = 1;
            float v[3];
            if (name == QLatin1String("scalez") ? !numbers(&op.z, 1) : !numbers(v, 3))
                return bad(name == QLatin1String("scalez") ? "takes one number" : "takes three numbers");
            if (name == QLatin1String("scale3d"))
                std::tie(op.a, op.b, op.z) = std::tuple(v[0], v[1], v[2]);
        } else if (name == QLatin1String("rotatex") || name == QLatin1String("rotatey")
                   || name == QLatin1String("rotate3d")) {
            op.kind = TransformOp::Kind::Rotate3d;
            const bool full = name == QLatin1String("rotate3d");
            auto a = args.size() == (full ? 4 : 1) ? angle(args.last()) : std::nullopt;
            if (!a)
                return bad(full ? "takes three numbers and an angle" : "takes one angle");
            op.a = *a;
            if (name == QLatin1String("rotatex"))
                op.axis = {1, 0, 0};
            else if (name == QLatin1String("rotatey"))
                op.axis = {0, 1, 0};
            else if (!numbers(op.axis.data(), 3, 1))
                return bad("invalid number");
        } else if (name == QLatin1String("perspective")) {
            op.kind = TransformOp::Kind::Perspective;
            if (args.size() != 1)
                return bad("takes one length or none");
            const auto d = perspectiveDistance(args[0], fontSize, rootFontSize);
            if (!d)
                return bad("invalid length");
            op.a = *d;
        } else if (name == QLatin1String("matrix3d")) {
            op.kind = TransformOp::Kind::Matrix3d;
            if (!numbers(op.m.data(), 16))
                return bad("takes sixteen numbers");
        } else if (name == QLatin1String("translate") || name == QLatin1String("translatex")
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
            op.a = op.b = op.z = 1;
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

std::optional<QTransform> planarTransform(const TransformOp &op, QSizeF basis)
{
    QTransform t;
    switch (op.kind) {
    case TransformOp::Kind::Translate:
        if (op.z != 0)
            return std::nullopt;
        t.translate(op.x.resolve(float(basis.width())), op.y.resolve(float(basis.height())));
        return t;
    case TransformOp::Kind::Scale:
        if (op.z != 1)
            return std::nullopt;
        t.scale(op.a, op.b);
        return t;
    case TransformOp::Kind::Rotate: t.rotate(op.a); return t;
    case TransformOp::Kind::Skew:
        t.shear(std::tan(qDegreesToRadians(qreal(op.a))), std::tan(qDegreesToRadians(qreal(op.b))));
        return t;
    case TransformOp::Kind::Matrix: return QTransform(op.m[0], op.m[1], op.m[2], op.m[3], op.m[4], op.m[5]);
    case TransformOp::Kind::Rotate3d:
    case TransformOp::Kind::Perspective:
    case TransformOp::Kind::Matrix3d: break;
    }
    return std::nullopt;
}

Parsed<std::vector<TransformOp>> transform(const QString &text, float fontSize, float rootFontSize)
{
    QString reason;
    auto value = transformWithReason(text, fontSize, rootFontSize, &reason);
    return parsed(std::move(value), reason);
}

} // namespace imprint::render::css
