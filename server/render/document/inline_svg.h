#pragma once
// Inline `<svg>` elements of a template (issue 28): an `svg` element of a `root` tree
// (as React/satori serialise JSX: `{"type":"svg","props":{"viewBox":…,"children":[…]}}`)
// or of `markup` is a replaced element whose subtree is written out as an SVG document
// and drawn as an SVG image (docs/templates.md, "Inline SVG").

#include "server/render/style/computed_style.h"

#include <QByteArray>
#include <QColor>
#include <QJsonObject>
#include <QRectF>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace imprint::render {

/// How inlineSvgDocument() writes one inline `<svg>` element.
struct InlineSvgWriter {
    /// Placeholder substitution applied to every attribute value and text (`{{name}}`).
    std::function<QString(const QString &)> text;
    /// Called once per element written below the root (with its field path); false stops
    /// the walk (a template limit was reached; the callee has recorded why).
    std::function<bool(const QString &)> count;
    QStringList *warnings = nullptr; ///< what is dropped, by field path
    int maxDepth = 64; ///< element nesting below the root; deeper content is dropped with a warning
    /// The layout engines' document: the root's width/height become these px (the
    /// element's natural size) and its `color` the element's computed colour (what
    /// `currentColor` means inside). nullopt (the html engine's page): as written, Chromium
    /// resolves them.
    std::optional<QSizeF> naturalSize;
    std::optional<QColor> color;
    /// Prepended to every `id` and to the `#id` references (`url(#id)`, `href="#id"`),
    /// so the ids of two icons, and of the satori engine's own defs, cannot meet.
    QString idPrefix;
    /// The layout engines' document: the SVG paint properties (isSvgPaintProperty()) of
    /// the element's cascaded style (inline style, style sheets, Tailwind), camelCase,
    /// written on the root for the content to inherit.
    QJsonObject rootPaint;
    /// The layout engines' document: the SVG paint properties the element inherits from
    /// the HTML around it (ComputedStyle::svgPaint of its parent: a wrapper's `fill`,
    /// Tailwind's `stroke-2`), written on the root where neither rootPaint nor one of the
    /// root's own attributes sets them (a presentation attribute beats an inherited value,
    /// SVG 2 §6.6); vector-effect is not inherited.
    QJsonObject inheritedPaint;
    /// Extra root attributes as written (the html page's `data-id` and CSS `style`).
    QList<std::pair<QString, QString>> rootAttributes;
    /// The layout engines' document: the element (`{type, props}`) with `id` among all the
    /// document's inline `<svg>`s, the first in document order (getElementById()), or
    /// nullopt. A `#id` the svg references and does not define is copied from there
    /// into its `<defs>`, as one HTML document resolves it. Unset (the html engine's
    /// page, which is one document): references stay as written.
    std::function<std::optional<QJsonObject>(const QString &id)> documentDefinition;
};

/// Writes the `svg` element `props` (React props: camelCase or SVG attribute names,
/// `style` objects, `children`) at field path `path` as a standalone SVG document
/// (UTF-8, `xmlns` declared; not yet sanitised: the caller passes it to the decoder or
/// sanitizeSvg()). React's names map to SVG's (`strokeWidth` → `stroke-width`,
/// `xlinkHref` → `xlink:href`, per react-dom's attribute table); `className`, `tw`,
/// `key`, `ref` and event handlers are dropped; elements other than SVG's shapes,
/// structure, paint servers, clipping, text, image and filter elements are dropped with a
/// warning naming their field. Empty when `count` stopped the walk.
QByteArray inlineSvgDocument(const QJsonObject &props, const QString &path, const InlineSvgWriter &writer);

/// The font an inline `<svg>` gives the text inside it, as camelCase declarations for
/// the SVG document's root (`fontFamily`, `fontSize` in px, `fontWeight`, `fontStyle`,
/// `letterSpacing`, `wordSpacing`): the svg element's computed font, which its content
/// inherits in an HTML page (CSS Fonts 4 §3, SVG 2 §11.10), where a standalone document
/// would start from its drawer's own default (librsvg: a 12 px serif). `system-ui`, which
/// fontconfig does not alias, is written as `sans-serif`; `ui-serif`, `ui-sans-serif`,
/// `ui-monospace` and `ui-rounded` (faces on macOS only) are left out, as Chromium on Linux
/// skips them; and a list without a generic family ends with
/// `sans-serif`, the face Chromium's standard font is here (text_runs.cpp), so the SVG
/// drawer, on the same fontconfig configuration, picks the face the HTML text gets.
QJsonObject inlineSvgFont(const ComputedStyle &style);

/// The root's `viewBox` (four numbers, width and height > 0) from `props`, if valid.
std::optional<QRectF> inlineSvgViewBox(const QJsonObject &props);

/// The natural size Chromium gives an inline `<svg>` (px), from its used `width` and
/// `height` when they are absolute lengths (attributes or style; negative = auto or a
/// percentage) and its viewBox: both given → them; one given → the other from the
/// viewBox's ratio, else 300 or 150 (CSS 2 §10.3.2's default object size); neither → the
/// viewBox's size (only its ratio counts: the element is then 100 % wide), else 300×150.
QSizeF inlineSvgNaturalSize(qreal width, qreal height, const std::optional<QRectF> &viewBox);

} // namespace imprint::render
