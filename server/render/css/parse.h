#pragma once
// The CSS value parsers: component-value splitting and the numbers, lengths and
// positions every property uses (values.cpp), colours (color.cpp), gradients
// (gradient.cpp), shadows (shadow.cpp) and transforms (transform.cpp). Not part of the
// render contract; css/ and style/ include it.

#include "server/render/css/values.h"

#include <QSizeF>
#include <QString>
#include <QStringList>
#include <QStringView>
#include <QTransform>

#include <array>
#include <functional>
#include <optional>
#include <vector>

namespace imprint::render::css {

/// Splits `text` at top-level occurrences of `separator` (',' or '/'), or at runs of
/// whitespace when `separator` is ' ', ignoring separators inside parentheses and quotes
/// (CSS Syntax 3 §5.4.7 "component values": a function is one token). Pieces are trimmed;
/// empty pieces are dropped for whitespace splitting and kept (as "") otherwise so a
/// caller can reject `a,,b`.
QStringList split(QStringView text, QChar separator);

/// The index of the `close` bracket matching an `open` one the scan starts inside of
/// (`from` is just after it), skipping quoted strings (with `\` escapes) and nested
/// pairs; -1 when it is not closed. `(`/`)` for functions, `{`/`}` for rule blocks.
qsizetype closingBracket(QStringView text, qsizetype from, QChar open = u'(', QChar close = u')');

/// One declaration of a declaration list: its property named as React's style prop
/// spells it, its value trimmed and without `!important`.
struct Declaration {
    QString name;
    QString value;
    bool important = false;
};

/// A kebab-case property name as React writes it in camelCase (CSSOM §6.7.1's dashed
/// attribute names): `background-color` → `backgroundColor`, `-webkit-line-clamp` →
/// `WebkitLineClamp`, `-ms-x` → `msX`. Lower-cased first (property names are ASCII
/// case-insensitive); a name without a dash comes back lower-cased.
QString camelCasePropertyName(QStringView kebab);

/// The declarations of `text` (`color: red; font-size: 12px !important`, CSS Syntax 3
/// §5.3.8 "parse a list of declarations"), in order. Names turn from kebab-case to
/// camelCase (`-webkit-line-clamp` → `WebkitLineClamp`, `-ms-x` → `msX`, as React writes
/// them); custom properties (`--x`) keep their name as written, which is case-sensitive
/// (CSS Variables 1 §2). A piece without a name or with an empty value is dropped; the
/// value of `x: !important` is empty.
std::vector<Declaration> parseDeclarationList(QStringView text);

/// A functional notation `name(args)` taken apart by function().
struct FunctionCall {
    QString name; ///< lower case
    QString args; ///< the trimmed inner text
};

/// If `text` is `name(args)` (name case-insensitive), its name and arguments; nullopt
/// otherwise.
std::optional<FunctionCall> function(QStringView text);

/// The 1–4 horizontal [ / 1–4 vertical ] radii of border-radius syntax (CSS Backgrounds 3
/// §5.1; also clip-path's inset() `round`), corners top-left, top-right, bottom-right,
/// bottom-left; nullopt when invalid (a negative radius included).
std::optional<std::array<CornerRadius, 4>> cornerRadii(const QString &text, float fontSize, float rootFontSize);

/// The index after the exponent of a CSS number (`e3`, `E-2`, CSS Syntax 3 §4.3.12) that
/// starts at `i` in `text`; `i` when none does.
qsizetype skipExponent(QStringView text, qsizetype i);

/// A CSS <number> (`12`, `-0.5`, `1e3`); nullopt if not exactly a finite number.
std::optional<float> number(QStringView text);

/// A <number> followed by `unit` (case-insensitive); nullopt otherwise.
std::optional<float> numberWithUnit(QStringView text, QLatin1StringView unit);

/// A CSS <angle> in degrees (`45deg`, `1.2rad`, `0.25turn`, `100grad`; a bare `0`
/// allowed, CSS Values 4 §7.1). nullopt if invalid.
std::optional<float> angle(QStringView text);

/// A percentage (`50%`) as 0–100, nullopt otherwise.
std::optional<float> percentage(QStringView text);

/// Length or percentage accepting only definite units (no auto/none keywords).
std::optional<Length> lengthPercentage(QStringView text, float fontSize, float rootFontSize);

/// A font-weight (CSS Fonts 4 §2.2): `normal` 400, `bold` 700, `bolder` and `lighter`
/// from `parent` by §2.2.1's table of relative weights, or a number 1–1000 (rounded);
/// nullopt otherwise.
std::optional<int> fontWeight(QStringView text, int parent);

/// `value` with every viewport-percentage length (CSS Values 4 §6.1.2: vw, vh, vi, vb,
/// vmin, vmax and their s/l/d-prefixed forms, all alike in a still image) replaced by its
/// px against `viewport` (px), so every parser downstream sees px: `clamp(24px, 5vw,
/// 64px)` in a 1200 px wide image becomes `clamp(24px, 60px, 64px)`. Text inside quotes
/// and url() is left alone. A viewport side of 0 (a content-sized image) leaves the units
/// as written, which the property then reports as invalid.
QString resolveViewportUnits(const QString &value, QSizeF viewport);

/// `value` with every font-relative `ch` and `ex` length (CSS Values 4 §6.1.1) replaced
/// by its px: `chPx` is the advance of "0" in the element's first available font, `exPx`
/// its x-height. `max-width: 65ch` (Tailwind's max-w-prose) at 8.9 px per "0" becomes
/// `578.5px`. Quotes and url() as in resolveViewportUnits().
QString resolveFontUnits(const QString &value, qreal chPx, qreal exPx);

/// The scanner both use: `value` with each `<number><unit>` outside quotes and url()
/// replaced by number × pxPerUnit(unit) px, where pxPerUnit (given the unit lower-cased)
/// answers a positive factor; units it answers ≤ 0 for are left as written.
QString substituteUnits(const QString &value, const std::function<qreal(QStringView unit)> &pxPerUnit);

/// One `<position>` (CSS Values 4 §8.3: 1–2 values of keywords left/center/right/top/
/// bottom, lengths or percentages, in either keyword order; or 3–4 values, edge keywords
/// each with an optional offset from that edge, `right 20px bottom 10px`) as x and y.
/// Returns false when the tokens are not a position.
bool position(const QStringList &tokens, float fontSize, float rootFontSize, Length *x, Length *y);

/// Shadow list (`box-shadow`, `text-shadow`, CSS Backgrounds 3 §7.1): `none` or entries
/// of 2–4 lengths, an optional colour anywhere and (box only) `inset`. A missing colour
/// is `currentColor`. The reason when invalid.
Parsed<std::vector<Shadow>> shadows(const QString &text, bool allowInsetSpread, const QColor &currentColor,
                                    float fontSize, float rootFontSize);

/// A linear/radial gradient function (CSS Images 3 §3), repeating-* included; the
/// reason when invalid.
Parsed<Gradient> gradient(const QString &text, const QColor &currentColor, float fontSize, float rootFontSize);

/// A <length> that may not be a percentage (a z offset: there is no box to be a
/// percentage of), in px; nullopt otherwise.
std::optional<float> lengthPx(QStringView text, float fontSize, float rootFontSize);

/// A perspective distance, of the `perspective` property and the perspective() function
/// (CSS Transforms 2 §7.1, §13.1): `none` is 0 (no perspective), else a length ≥ 0 in px,
/// drawn as at least 1px; nullopt when invalid.
std::optional<float> perspectiveDistance(QStringView text, float fontSize, float rootFontSize);

/// A transform list (CSS Transforms 1 §9), or `none` (empty list); the reason when invalid.
Parsed<std::vector<TransformOp>> transform(const QString &text, float fontSize, float rootFontSize);

/// One transform function as a 2D map (CSS Transforms 1 §9: translate, scale, rotate,
/// skew, matrix), translation percentages resolved against `basis` (px); nullopt for a
/// function that needs the third dimension (rotate3d, perspective, matrix3d, a z offset
/// or scale). QTransform keeps quarter turns exact.
std::optional<QTransform> planarTransform(const TransformOp &op, QSizeF basis);

} // namespace imprint::render::css
