#pragma once
// The html engine (docs/templates.md): HTML → QTextDocument (Qt's rich-text subset:
// block and inline flow, no flexbox; https://doc.qt.io/qt-6/richtext-html-subset.html)
// laid out at the image width and painted with QPainter. Its input is the template's
// `html` with {{variables}} inserted HTML-escaped, or the styled element tree serialised
// to HTML with inline styles.

#include "server/render/document/node.h"
#include "server/render/paint/paint_resources.h"
#include "server/render/resources/emoji.h"

#include <QHash>
#include <QImage>
#include <QPainter>
#include <QSize>
#include <QString>
#include <QStringList>

namespace imprint::render {

/// Replaces every `{{name}}` in `html` by values[name] HTML-escaped (so a value is always
/// text, never markup); placeholders without a value become empty.
QString substituteHtmlVariables(const QString &html, const QHash<QString, QString> &values);

/// Serialises the styled tree rooted at `root` to HTML with inline styles in the CSS Qt's
/// rich text honours (colours, fonts, text alignment, margins, padding, backgrounds).
/// Flex rows become one-row tables (the closest the subset has to side-by-side boxes),
/// everything else stacks as blocks; images become <img> elements named "node:ID",
/// resolved by paintHtml() from the tree. Text is escaped.
QString treeToHtml(const Node &root);

/// Options of paintHtml().
struct HtmlOptions {
    EmojiSet emojiSet = EmojiSet::Twemoji;
    const Node *tree = nullptr; ///< the tree treeToHtml() was made from (its images), optional
};

/// Lays `html` out in a QTextDocument `size.width()` px wide (document margin 0, default
/// font DejaVu Sans 16 px as a browser's) and paints it onto `painter` (page px): the
/// root's background first when `options.tree` is given. Emoji clusters become inline
/// images of the set sized to their font size (Noto Color Emoji when `noto`, or with a
/// warning in `warnings` when the set or file is missing). Images are data: URLs decoded
/// through `resources.images`, emoji images come from `resources.emoji`. Never fails.
void paintHtml(QPainter &painter, const QString &html, QSize size, const PaintResources &resources,
               const HtmlOptions &options, QStringList *warnings = nullptr);

/// paintHtml() onto a transparent `size` px image (Format_ARGB32_Premultiplied).
QImage renderHtmlImage(const QString &html, QSize size, const PaintResources &resources, const HtmlOptions &options,
                       QStringList *warnings = nullptr);

} // namespace imprint::render
