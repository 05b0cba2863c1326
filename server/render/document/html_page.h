#pragma once
// A template as the HTML page the html engine's browser draws (docs/templates.md, "The
// html engine"): the element tree (`root`, or `markup` parsed into the same tree) written
// as HTML with inline styles exactly as scripts/chromium-oracle writes the conformance
// references, or the template's own `html`.

#include "server/render/document/template.h"
#include "server/render/resources/emoji.h"

#include <QHash>
#include <QString>

#include <optional>

namespace imprint::render {

/// How the page draws emoji clusters of its text: with `set` twemoji or openmoji each
/// cluster becomes an inline <img> of the set's SVG from `library` (a data: URL, 1em
/// square, 0.1em below the baseline, in the advance of the Noto glyph the JSON engines
/// reserve: emojiImageRect()); a cluster the set lacks keeps the browser's Noto Color
/// Emoji and adds a line to `warnings` (once each). EmojiSet::Noto: text unchanged.
struct PageEmoji {
    EmojiSet set = EmojiSet::Noto;
    EmojiLibrary *library = nullptr;
    QStringList *warnings = nullptr;
};

/// The page of `tmpl` with `values` substituted. The element tree: every element
/// `display:flex` unless its style names a display (span, img and br excepted), numbers in
/// length properties px, `lineClamp` as -webkit-line-clamp, text and attributes
/// HTML-escaped; with `contentSized` the root is positioned absolutely at 0,0 so it takes
/// its content's size. The template's `html`: `{{name}}` replaced by values HTML-escaped,
/// wrapped in a page with no margins and a transparent background unless it is a whole
/// document already. Emoji in text (element-tree text, and text nodes of `html` outside
/// tags, comments and raw-text elements) as `emoji` says. `headStyle` (CSS, e.g. the
/// space's @font-face rules) goes in a <style> element first in the head — of a whole
/// document too, after its <head> tag (or its <html> tag, or its doctype) — so the page's
/// own rules can use it. `fittedFontSizes`: px font sizes by element id (Node::id) that
/// our layout fitted `textFit: shrink-to-box` text at, which Chromium has no mode for:
/// such an element is written with that font size and no text-fit (one not in it, with
/// `text-fit: shrink`, the nearest CSS). The error when `markup` does not parse
/// (markupToTree()).
common::Expected<QString, RenderError> templatePageHtml(const Template &tmpl, const QHash<QString, QString> &values,
                                                        bool contentSized, const TemplateLimits &limits,
                                                        const PageEmoji &emoji = {}, const QString &headStyle = {},
                                                        const QHash<QString, float> &fittedFontSizes = {});

} // namespace imprint::render
