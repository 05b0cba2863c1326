// filter / backdrop-filter function lists (CSS Filter Effects 1 §4–5,
// https://www.w3.org/TR/filter-effects-1/#filter-functions) and mix-blend-mode keywords
// (CSS Compositing 1 §5.3).

#include "server/render/css/effects.h"
#include "server/render/css/parse.h"
#include "server/render/css/list_items.h"

namespace imprint::render::css {

namespace {

constexpr int kMaxFilterFunctions = 64;

/// A <number> or <percentage> amount (1 = 100%), the function's default when empty.
std::optional<float> amount(const QString &args, float defaultValue)
{
    if (args.isEmpty())
        return defaultValue;
    if (auto p = percentage(args))
        return *p / 100.f;
    return number(args);
}

} // namespace

static std::optional<std::vector<FilterOp>> filterListWithReason(const QString &text, const QColor &currentColor,
                                                                 float fontSize, float rootFontSize, QString *reason)
{
    const std::optional<QStringList> functions = listItems(text, QLatin1Char(' '), "filter", reason);
    if (!functions)
        return std::nullopt;
    if (functions->size() > kMaxFilterFunctions) {
        *reason = QStringLiteral("more than %1 filter functions").arg(kMaxFilterFunctions);
        return std::nullopt;
    }
    std::vector<FilterOp> out;
    using K = FilterOp::Kind;
    for (const QString &f : *functions) {
        const auto call = function(f);
        if (!call) {
            *reason = f.startsWith(QLatin1String("url("), Qt::CaseInsensitive)
                          ? QStringLiteral("filter url() references are not supported")
                          : QStringLiteral("invalid filter function \"%1\"").arg(f);
            return std::nullopt;
        }
        const QString &name = call->name, &args = call->args;
        FilterOp op;
        std::optional<float> a;
        bool clampToOne = false;
        if (name == QLatin1String("blur")) {
            op.kind = K::Blur;
            auto l = args.isEmpty() ? std::optional<Length>(Length::px(0))
                                    : lengthPercentage(args, fontSize, rootFontSize);
            if (l && !l->isPercent() && l->value >= 0)
                a = l->value;
        } else if (name == QLatin1String("hue-rotate")) {
            op.kind = K::HueRotate;
            a = args.isEmpty() ? std::optional<float>(0.f) : angle(args);
        } else if (name == QLatin1String("drop-shadow")) {
            op.kind = K::DropShadow;
            auto shadows = css::shadows(args, false, currentColor, fontSize, rootFontSize);
            if (shadows && shadows->size() == 1) {
                op.shadow = shadows->front();
                a = 0.f;
            }
        } else {
            static const struct {
                const char *name;
                K kind;
                float defaultValue;
                bool clamp;
            } table[] = {{"brightness", K::Brightness, 1, false}, {"contrast", K::Contrast, 1, false},
                         {"grayscale", K::Grayscale, 1, true},    {"sepia", K::Sepia, 1, true},
                         {"saturate", K::Saturate, 1, false},     {"invert", K::Invert, 1, true},
                         {"opacity", K::Opacity, 1, true}};
            bool known = false;
            for (const auto &row : table) {
                if (name == QLatin1String(row.name)) {
                    known = true;
                    op.kind = row.kind;
                    a = amount(args, row.defaultValue);
                    clampToOne = row.clamp;
                    if (a && *a < 0)
                        a.reset(); // negative amounts are invalid (§5)
                    break;
                }
            }
            if (!known) {
                *reason = QStringLiteral("unsupported filter function %1()").arg(name);
                return std::nullopt;
            }
        }
        if (!a) {
            *reason = QStringLiteral("invalid filter function \"%1\"").arg(f);
            return std::nullopt;
        }
        op.amount = clampToOne ? std::min(*a, 1.f) : *a;
        out.push_back(op);
    }
    return out;
}

Parsed<std::vector<FilterOp>> filterList(const QString &text, const QColor &currentColor, float fontSize,
                                         float rootFontSize)
{
    QString reason;
    auto value = filterListWithReason(text, currentColor, fontSize, rootFontSize, &reason);
    return parsed(std::move(value), reason);
}

std::optional<BlendMode> blendMode(const QString &text)
{
    static const struct {
        const char *name;
        BlendMode mode;
    } table[] = {{"normal", BlendMode::Normal},
                 {"multiply", BlendMode::Multiply},
                 {"screen", BlendMode::Screen},
                 {"overlay", BlendMode::Overlay},
                 {"darken", BlendMode::Darken},
                 {"lighten", BlendMode::Lighten},
                 {"color-dodge", BlendMode::ColorDodge},
                 {"color-burn", BlendMode::ColorBurn},
                 {"hard-light", BlendMode::HardLight},
                 {"soft-light", BlendMode::SoftLight},
                 {"difference", BlendMode::Difference},
                 {"exclusion", BlendMode::Exclusion},
                 {"hue", BlendMode::Hue},
                 {"saturation", BlendMode::Saturation},
                 {"color", BlendMode::Color},
                 {"luminosity", BlendMode::Luminosity},
                 {"plus-lighter", BlendMode::PlusLighter}};
    const QString t = text.trimmed().toLower();
    for (const auto &row : table)
        if (t == QLatin1String(row.name))
            return row.mode;
    return std::nullopt;
}

} // namespace imprint::render::css
