#pragma once
// The SVG half of the resource policy (docs/architecture.md, "Resources"): an SVG image
// that a template, a tweak or an asset hands us is rewritten before QtSvg sees it.
//
// Why: Qt 6.4's QtSvg loads `<image xlink:href="/any/path">` and `xml-stylesheet`
// processing instructions from the local filesystem, decodes nested `data:` images with
// every image plugin (SVG again included), and has no cost limit: a 198-byte document
// with `stroke-dasharray: 1 1` on a 600 px wide stroke rasterises for 12 s, and `<use>`
// chains expand exponentially. QtSvg 6.7 gained options for some of this; 6.4 has none.

#include "server/common/expected.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace imprint::render {

/// Bounds of one sanitised SVG document.
struct SvgLimits {
    int maxElements = 20000; ///< elements in the document, before `<use>` expansion
    int maxDepth = 128; ///< element nesting
    qint64 maxExpandedElements = 200000; ///< elements drawn once every `<use>` is expanded
    int maxNestedImages = 3; ///< SVG-in-data:-URL-in-SVG levels
};

/// Rewrites `svg` (UTF-8 XML) into a document QtSvg can draw without reading anything but
/// the bytes given, at a cost bounded by `limits`:
///  - no DOCTYPE, processing instructions or comments; no `script`, `foreignObject`;
///  - no event attributes (`on*`), and no animation element (`animate`, `set`,
///    `animateMotion`, `animateTransform`) that sets an href or event attribute or whose
///    `to` / `from` / `by` / `values` carry a `javascript:` or `vbscript:` URL;
///  - every `href` / `xlink:href` / `xml:base` attribute kept only when it is a fragment
///    (`#id`) or, on `<image>`, a `data:` URL of PNG, JPEG or GIF bytes (sniffed from the
///    content, not the media type) or of an SVG that itself passes this function;
///  - `url(...)` references in attributes and `<style>` kept only when they are `#id`;
///    `@import` rules removed;
///  - `stroke-dasharray` patterns shorter than 1/256 of the document's extent replaced by
///    a solid stroke (they look solid at that scale, and cost one polygon per dash).
/// Returns the reason (one sentence) when the document is not well-formed XML, has no
/// `<svg>` root, is compressed (svgz), or exceeds `limits`.
common::Expected<QByteArray, QString> sanitizeSvg(const QByteArray &svg, const SvgLimits &limits = {});

/// True when `bytes` look like an SVG document: optional BOM and whitespace, then `<`,
/// and an `<svg` tag within the first 4 KiB. Cheap; a positive answer still has to pass
/// sanitizeSvg().
bool looksLikeSvg(const QByteArray &bytes);

} // namespace imprint::render
