#include "server/render/backends/html.h"

#include "server/render/css/values.h"
#include "server/render/paint/geometry.h"
#include "server/render/resources/image_cache.h"

#include <QAbstractTextDocumentLayout>
#include <QRegularExpression>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFragment>
#include <QTextImageFormat>
#include <QUrl>

#include <cmath>

namespace imprint::render {

namespace {

/// A QTextDocument that loads nothing from outside the document: the default
/// loadResource() opens `file:` URLs and plain paths for <img>, `background` and
/// <link rel=stylesheet>, so a template could draw the server's files. Images given as
/// data: URLs go through the pipeline's one decoder and policy. Every other image is a
/// transparent pixel, never a null one: on a null image Qt's QTextImageHandler falls
/// back to QImage::load(name), which reads the path from disk.
class SandboxedDocument : public QTextDocument
{
public:
    explicit SandboxedDocument(ImageCache &images)
        : m_images(images)
    { }

protected:
    QVariant loadResource(int type, const QUrl &name) override
    {
        if (type != QTextDocument::ImageResource)
            return QString(); // style sheets and anything else: empty, never read
        if (name.scheme().compare(QLatin1String("data"), Qt::CaseInsensitive) == 0) {
            const ImageResult image = m_images.load(name.toString());
            if (image && !image->isNull())
                return *image;
        }
        QImage blank(1, 1, QImage::Format_ARGB32_Premultiplied);
        blank.fill(Qt::transparent);
        return blank;
    }

private:
    ImageCache &m_images;
};

QString px(qreal v)
{
    return QString::number(std::round(v * 100) / 100, 'g', 8) + QStringLiteral("px");
}

/// The inherited text properties in the CSS Qt's rich text reads.
QString textCss(const ComputedStyle &s)
{
    QString css;
    css += QStringLiteral("color:%1;").arg(cssColorText(s.color));
    if (!s.fontFamily.isEmpty()) {
        QStringList quoted;
        for (const QString &f : s.fontFamily)
            quoted << u'\'' + QString(f).remove(u'\'').remove(u'"').remove(u';') + u'\'';
        css += QStringLiteral("font-family:%1;").arg(quoted.join(u','));
    }
    css += QStringLiteral("font-size:%1;font-weight:%2;").arg(px(s.fontSize)).arg(s.fontWeight);
    if (s.fontStyle == FontStyle::Italic)
        css += QStringLiteral("font-style:italic;");
    switch (s.textAlign) {
    case TextAlign::Right:
    case TextAlign::End: css += QStringLiteral("text-align:right;"); break;
    case TextAlign::Center: css += QStringLiteral("text-align:center;"); break;
    case TextAlign::Justify: css += QStringLiteral("text-align:justify;"); break;
    default: break;
    }
    switch (s.lineHeight.type) {
    case LineHeight::Type::Number:
        css += QStringLiteral("line-height:%1%;").arg(qRound(s.lineHeight.value * 100));
        break;
    case LineHeight::Type::Px: css += QStringLiteral("line-height:%1;").arg(px(s.lineHeight.value)); break;
    case LineHeight::Type::Normal: break;
    }
    if (s.textTransform == TextTransform::Uppercase)
        css += QStringLiteral("text-transform:uppercase;");
    else if (s.textTransform == TextTransform::Lowercase)
        css += QStringLiteral("text-transform:lowercase;");
    if (s.whiteSpace == WhiteSpace::NoWrap)
        css += QStringLiteral("white-space:nowrap;");
    else if (s.whiteSpace == WhiteSpace::Pre || s.whiteSpace == WhiteSpace::PreWrap)
        css += QStringLiteral("white-space:pre-wrap;");
    const TextDecoration &d = s.textDecoration;
    if (d.underline || d.lineThrough || d.overline)
        css += QStringLiteral("text-decoration:%1%2%3;")
                   .arg(d.underline ? QStringLiteral(" underline") : QString(),
                        d.lineThrough ? QStringLiteral(" line-through") : QString(),
                        d.overline ? QStringLiteral(" overline") : QString());
    return css;
}

qreal lengthPx(const Length &l)
{
    return l.type == Length::Type::Px ? l.value : 0;
}

/// Qt's rich-text layout is exponential in the nesting of tables (measured: 12 levels
/// 0.1 s, 16 levels 0.6 s, 18 levels 2.4 s), so the serialiser stops using tables for
/// boxes and rows this deep and stacks plain blocks instead; user `html` deeper than this
/// is refused before layout (checkHtmlBudget).
constexpr int kMaxTableNesting = 10;

void emitNode(const Node &n, QString &out, bool isRoot, int tables);

void emitChildren(const Node &n, QString &out, int tables)
{
    const ComputedStyle &s = n.style;
    int elements = 0;
    for (const auto &c : n.children)
        elements += c->isText() ? 0 : 1;
    const bool row = s.isFlexContainer() && s.isRowDirection() && elements > 1 && tables < kMaxTableNesting;
    if (row) {
        // Side by side: one table row, the flex gap as cell spacing.
        const char *valign = s.alignItems == AlignItems::Center    ? "middle"
                             : s.alignItems == AlignItems::FlexEnd ? "bottom"
                                                                   : "top";
        out += QStringLiteral("<table cellspacing=\"%1\" cellpadding=\"0\"><tr>").arg(qRound(lengthPx(s.columnGap)));
        for (const auto &c : n.children) {
            out += QStringLiteral("<td valign=\"%1\">").arg(QLatin1String(valign));
            emitNode(*c, out, false, tables + 1);
            out += QStringLiteral("</td>");
        }
        out += QStringLiteral("</tr></table>");
        return;
    }
    const qreal gap = lengthPx(s.isRowDirection() ? s.columnGap : s.rowGap);
    bool first = true;
    for (const auto &c : n.children) {
        if (!first && gap > 0 && !c->isText())
            out += QStringLiteral("<div style=\"margin-top:%1;font-size:1px;\"></div>").arg(px(gap));
        emitNode(*c, out, false, tables);
        first = false;
    }
}

void emitNode(const Node &n, QString &out, bool isRoot, int tables)
{
    if (n.isText()) {
        QString t = n.text.toHtmlEscaped();
        t.replace(QChar::LineSeparator, QLatin1String("<br>"));
        out += t;
        return;
    }
    const ComputedStyle &s = n.style;
    if (s.display == Display::None)
        return;
    if (n.isImage()) {
        const qreal w = lengthPx(s.width) > 0 ? lengthPx(s.width) : n.image.width();
        const qreal h = lengthPx(s.height) > 0 ? lengthPx(s.height) : n.image.height();
        out += QStringLiteral("<img src=\"node:%1\" width=\"%2\" height=\"%3\">")
                   .arg(n.id.toHtmlEscaped())
                   .arg(qRound(w))
                   .arg(qRound(h));
        return;
    }
    const qreal pad[4] = {lengthPx(s.padding[Top]), lengthPx(s.padding[Right]), lengthPx(s.padding[Bottom]),
                          lengthPx(s.padding[Left])};
    const bool hasBox = !isRoot
                        && (s.backgroundColor.alpha() > 0 || s.borderWidth[Top] > 0 || pad[0] > 0 || pad[1] > 0
                            || pad[2] > 0 || pad[3] > 0);
    const QString text = textCss(s);
    if (isRoot) {
        // The root's box is the page: its background is painted under the document, its
        // padding becomes the page margins.
        out += QStringLiteral("<div style=\"%1margin:%2 %3 %4 %5;\">")
                   .arg(text, px(pad[0]), px(pad[1]), px(pad[2]), px(pad[3]));
        emitChildren(n, out, tables);
        out += QStringLiteral("</div>");
        return;
    }
    if (hasBox && tables < kMaxTableNesting) {
        // A box with padding, background or border: a one-cell table is the only box the
        // subset gives padding and borders to.
        QString tableCss;
        if (s.backgroundColor.alpha() > 0)
            tableCss += QStringLiteral("background-color:%1;").arg(cssColorText(s.backgroundColor));
        if (s.borderWidth[Top] > 0 && s.borderStyle[Top] != BorderStyle::None)
            tableCss += QStringLiteral("border-width:%1;border-style:solid;border-color:%2;")
                            .arg(px(s.borderWidth[Top]), cssColorText(s.borderColor[Top]));
        const QString width
            = lengthPx(s.width) > 0 ? QStringLiteral(" width=\"%1\"").arg(qRound(lengthPx(s.width))) : QString();
        out += QStringLiteral("<table cellspacing=\"0\" cellpadding=\"0\"%1 style=\"%2\"><tr><td style=\"padding:%3 %4 "
                              "%5 %6;%7\">")
                   .arg(width, tableCss, px(pad[0]), px(pad[1]), px(pad[2]), px(pad[3]), text);
        emitChildren(n, out, tables + 1);
        out += QStringLiteral("</td></tr></table>");
        return;
    }
    out += QStringLiteral("<div style=\"%1\">").arg(text);
    emitChildren(n, out, tables);
    out += QStringLiteral("</div>");
}

void collectImages(const Node &n, QTextDocument &doc)
{
    if (n.isImage() && !n.image.isNull())
        doc.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("node:") + n.id), n.image);
    for (const auto &c : n.children)
        collectImages(*c, doc);
}

/// Writes the capitalisation rich text keeps as a font property (CSS text-transform
/// upper/lowercase) into the document's text. Qt applies QFont::capitalization() only
/// when it shapes glyphs, which raster devices do; QSvgGenerator writes a text item's
/// characters as they are in the document, so without this the SVG shows them untransformed.
/// Fragments are rewritten from the end because a case mapping may change their length.
void bakeCapitalization(QTextDocument &doc)
{
    struct Span {
        int position, length;
        QFont::Capitalization caps;
    };
    std::vector<Span> spans;
    for (QTextBlock b = doc.begin(); b.isValid(); b = b.next()) {
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            const QTextFragment f = it.fragment();
            // Image fragments (inline <img>) carry the inherited format too; rewriting
            // their object character would drop the image.
            if (!f.isValid() || f.charFormat().isImageFormat())
                continue;
            const QFont::Capitalization caps = f.charFormat().fontCapitalization();
            if (caps == QFont::AllUppercase || caps == QFont::AllLowercase)
                spans.push_back({f.position(), f.length(), caps});
        }
    }
    for (auto it = spans.rbegin(); it != spans.rend(); ++it) {
        QTextCursor cursor(&doc);
        cursor.setPosition(it->position);
        cursor.setPosition(it->position + it->length, QTextCursor::KeepAnchor);
        QTextCharFormat format = cursor.charFormat();
        format.setFontCapitalization(QFont::MixedCase);
        const QString text = cursor.selectedText();
        cursor.insertText(it->caps == QFont::AllUppercase ? text.toUpper() : text.toLower(), format);
    }
}

struct EmojiSpot {
    int position, length;
    qreal fontPx;
    QString cluster;
};

/// Replaces emoji clusters in the laid-out document by images of the set (or gives them
/// the emoji font). Positions change as clusters shrink to one object character, so the
/// spots are applied from the end.
void replaceEmoji(QTextDocument &doc, EmojiLibrary &library, const HtmlOptions &options, QStringList *warnings)
{
    std::vector<EmojiSpot> spots;
    for (QTextBlock b = doc.begin(); b.isValid(); b = b.next()) {
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            const QTextFragment f = it.fragment();
            if (!f.isValid())
                continue;
            const QString text = f.text();
            for (const EmojiCluster &c : findEmoji(text)) {
                QFont font = f.charFormat().font();
                const qreal size = font.pixelSize() > 0 ? font.pixelSize() : font.pointSizeF() * 96.0 / 72.0;
                spots.push_back({f.position() + int(c.start), int(c.length), size, text.mid(c.start, c.length)});
            }
        }
    }
    QStringList warned;
    auto warn = [&](const QString &w) {
        if (warnings && !warned.contains(w)) {
            warned << w;
            warnings->append(w);
        }
    };
    for (auto it = spots.rbegin(); it != spots.rend(); ++it) {
        QTextCursor cursor(&doc);
        cursor.setPosition(it->position);
        cursor.setPosition(it->position + it->length, QTextCursor::KeepAnchor);
        std::shared_ptr<const EmojiImage> image;
        if (options.emojiSet != EmojiSet::Noto) {
            image = library.image(it->cluster, options.emojiSet);
            if (!image)
                warn(QStringLiteral("emojiType: no %1 image for %2 in %3; drawn with the Noto Color Emoji font")
                         .arg(emojiSetName(options.emojiSet), emojiCodepoints(it->cluster), library.directory()));
        }
        if (!image) {
            QTextCharFormat format;
            format.setFontFamilies(QStringList{emojiFontFamily()});
            cursor.mergeCharFormat(format);
            continue;
        }
        const int size = std::max(1, int(std::lround(it->fontPx)));
        const QString name = QStringLiteral("emoji:%1/%2/%3")
                                 .arg(emojiSetName(options.emojiSet), emojiCodepoints(it->cluster))
                                 .arg(size);
        doc.addResource(QTextDocument::ImageResource, QUrl(name), image->raster(size));
        QTextImageFormat format;
        format.setName(name);
        format.setWidth(size);
        format.setHeight(size);
        format.setVerticalAlignment(QTextCharFormat::AlignMiddle);
        cursor.insertImage(format);
    }
}

} // namespace

QString substituteHtmlVariables(const QString &html, const QHash<QString, QString> &values)
{
    static const QRegularExpression placeholder(QStringLiteral("\\{\\{\\s*([A-Za-z_][A-Za-z0-9_.-]*)\\s*\\}\\}"));
    QString out;
    out.reserve(html.size());
    qsizetype last = 0;
    for (auto it = placeholder.globalMatch(html); it.hasNext();) {
        const auto m = it.next();
        out += QStringView(html).mid(last, m.capturedStart() - last);
        out += values.value(m.captured(1)).toHtmlEscaped();
        last = m.capturedEnd();
    }
    out += QStringView(html).mid(last);
    return out;
}

QString treeToHtml(const Node &root)
{
    QString out;
    out.reserve(4096);
    emitNode(root, out, true, 0);
    return out;
}

void paintHtml(QPainter &painter, const QString &html, QSize size, const PaintResources &resources,
               const HtmlOptions &options, QStringList *warnings)
{
    painter.save();
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
    const QRectF page(QPointF(0, 0), QSizeF(size));
    if (options.tree) {
        const ComputedStyle &s = options.tree->style;
        if (s.backgroundColor.alpha() > 0)
            painter.fillRect(page, s.backgroundColor);
        for (auto it = s.backgroundLayers.rbegin(); it != s.backgroundLayers.rend(); ++it) {
            if (it->gradient)
                painter.fillRect(page, paint_detail::gradientBrush(*it->gradient, page));
        }
    }
    SandboxedDocument doc(resources.images);
    doc.setDocumentMargin(0);
    doc.setUndoRedoEnabled(false);
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPixelSize(16); // a browser's initial font size
    doc.setDefaultFont(font);
    doc.setTextWidth(size.width());
    if (options.tree)
        collectImages(*options.tree, doc);
    doc.setHtml(html);
    // Only where the device keeps text as characters (SVG): raster output stays as Qt
    // shapes it, byte for byte.
    if (painter.device()->devType() != QInternal::Image)
        bakeCapitalization(doc);
    replaceEmoji(doc, resources.emoji, options, warnings);
    painter.setClipRect(page);
    doc.drawContents(&painter, page);
    painter.restore();
}

QImage renderHtmlImage(const QString &html, QSize size, const PaintResources &resources, const HtmlOptions &options,
                       QStringList *warnings)
{
    return paintOnTransparentImage(
        size, [&](QPainter &painter) { paintHtml(painter, html, size, resources, options, warnings); });
}

} // namespace imprint::render
