// The satori engine's SVG writer: plays a display list (paint/display_list.h) as one
// standalone SVG document.
//
// Two facts of Qt 6.4's QtSvg (SVG Tiny 1.2) shape this file, because PNG/WebP come from
// QSvgRenderer and must look like what a browser or resvg shows for the same document:
// - it implements neither <filter> (feGaussianBlur) nor <clipPath>/<mask>/<symbol>
//   (all arrive in Qt 6.7). So blurred shadows are drawn blurred into a PNG that the
//   document embeds, and clipping (overflow: hidden, rounded images) is applied to the
//   geometry itself: shapes are intersected with the clip path, glyphs that cross it
//   become clipped paths, images are cut out into a PNG with the clip baked in. Every
//   renderer then shows the same pixels without needing those features.
// - <use> of a <g> in <defs> works, so glyphs and emoji are defined once and reused.

#include "server/render/backends/svg.h"
#include "server/render/backends/svg_glyph_shapes.h"
#include "server/render/backends/svg_gradient_stops.h"
#include "server/render/backends/svg_inline_raster.h"
#include "server/render/backends/svg_syntax.h"
#include "server/render/cancellation.h"
#include "server/render/resources/image_decoder.h"
#include "server/render/resources/svg_viewport.h"
#include "server/render/text/font_fallback.h"

#include "server/render/backends/raster.h"
#include "server/render/encode/encode.h"
#include "server/render/paint/geometry.h"
#include "server/render/paint/recorder.h"
#include "server/render/text/text_engine.h"

#include <QBuffer>
#include <QCache>
#include <QFileInfo>
#include <QGlyphRun>
#include <QHash>
#include <QLinearGradient>
#include <QPainter>
#include <QPainterPathStroker>
#include <QRadialGradient>
#include <QRawFont>
#include <QRegularExpression>
#include <QSet>
#include <QSvgRenderer>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>

namespace imprint::render {

using namespace paint_detail;
using namespace svg_syntax;
using namespace svg_glyphs;

namespace {

constexpr qint64 kMaxRasterPixels = 16LL * 1024 * 1024;

/// At most this many rectangles known to lie inside the clip are kept (SvgPlayer's
/// m_clipSafe): a nested clip pairs each of its own with each of its parent's, so
/// without a bound the list doubled with every level (63 nested rounded boxes: 2^63).
constexpr qsizetype kMaxClipSafeRects = 8;

/// `rects` without the empty ones and those inside another, the largest kMaxClipSafeRects
/// of the rest. Dropping one only makes the cheap inside-the-clip test answer "ask the
/// path" more often, never wrongly "inside".
QList<QRectF> prunedSafeRects(QList<QRectF> rects)
{
    rects.removeIf([](const QRectF &r) { return r.isEmpty(); });
    std::sort(rects.begin(), rects.end(), [](const QRectF &a, const QRectF &b) {
        return a.width() * a.height() > b.width() * b.height();
    });
    QList<QRectF> kept;
    for (const QRectF &r : rects) {
        if (kept.size() == kMaxClipSafeRects)
            break;
        if (std::none_of(kept.begin(), kept.end(), [&](const QRectF &k) { return k.contains(r); }))
            kept.append(r);
    }
    return kept;
}

/// `image` as a data: URL of a PNG. Embedded images are decoded once per render and kept
/// exact: the Fast tier (ISA-L level 1, its fastest level with Huffman-coded matches, see
/// encode.cpp). An image that does not encode gives an empty payload.
QString pngDataUrl(const QImage &image)
{
    PngOptions o;
    o.compression = PngCompression::Fast;
    return QStringLiteral("data:image/png;base64,")
           + QString::fromLatin1(encodePng(image, o).value_or(QByteArray()).toBase64());
}

/// `image` scaled down to `device` px (area-averaged, Qt::SmoothTransformation) when that
/// is at most half its size both ways; nullopt when it is drawn at or near its natural
/// size, where it is embedded as it is (SvgOptions::largeImagesAtDevicePixels).
std::optional<QImage> shrunkToDevice(const QImage &image, QSizeF device)
{
    const QSize px(std::max(1, int(std::ceil(device.width()))), std::max(1, int(std::ceil(device.height()))));
    if (image.isNull() || 2 * px.width() > image.width() || 2 * px.height() > image.height())
        return std::nullopt;
    return image.scaled(px, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
}

QPainterPath rectPath(const QRectF &r)
{
    QPainterPath p;
    p.addRect(r);
    return p;
}

/// Plays display commands as SVG elements: m_body collects the drawing, m_defs the
/// gradients, glyph outlines and emoji each command needs once. Clips are tracked as a
/// path in the current user space and cut into the geometry (see the file comment).
class SvgPlayer
{
public:
    SvgPlayer(const SvgOptions &options, EmojiLibrary &emoji, QStringList *warnings,
              const RenderCancellation *cancellation = nullptr)
        : m_options(options)
        , m_emojiLibrary(emoji)
        , m_warnings(warnings)
        , m_cancellation(cancellation)
    { }

    QByteArray document(const DisplayList &list, QSize size)
    {
        m_canvas = QRect(QPoint(0, 0), size);
        play(list);
        QString out;
        out.reserve(m_defs.size() + m_body.size() + 512);
        out += QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
                              "version=\"1.1\" width=\"%1\" height=\"%2\" viewBox=\"0 0 %1 %2\">")
                   .arg(size.width())
                   .arg(size.height());
        if (!m_options.title.isEmpty())
            out += QStringLiteral("<title>") + m_options.title.toHtmlEscaped() + QStringLiteral("</title>");
        if (!m_defs.isEmpty())
            out += QStringLiteral("<defs>") + m_defs + QStringLiteral("</defs>");
        out += m_body;
        out += QStringLiteral("</svg>\n");
        return out.toUtf8();
    }

    void operator()(const display::PushTransform &c);
    void operator()(const display::PopTransform &);
    void operator()(const display::PushLayer &c)
    {
        m_body += QStringLiteral("<g opacity=\"%1\">").arg(frac(c.opacity));
    }
    void operator()(const display::PopLayer &) { m_body += QStringLiteral("</g>"); }
    void operator()(const display::PushClip &c);
    void operator()(const display::PopClip &) { popClip(); }
    void operator()(const display::FillRect &c) { fillPath(rectPath(c.rect), fillAttrs(c.color)); }
    void operator()(const display::FillPath &c)
    {
        if (bakedConic(c.path, c.brush))
            return;
        fillPath(c.path, c.brush.gradient() ? gradientRef(c.brush) : fillAttrs(c.brush.color()));
    }
    // Effect scopes and backdrops are played by play() itself: they need the list.
    void operator()(const display::PushEffects &) { }
    void operator()(const display::PopEffects &) { }
    void operator()(const display::BackdropFilter &) { }
    void operator()(const display::StrokeBorder &c);
    void operator()(const display::OuterBoxShadows &c);
    void operator()(const display::InsetBoxShadows &c)
    {
        emitRaster(c.paddingBox, 1.0, [&](QPainter &p) { paintInsetShadows(p, c.shadows, c.paddingBox, c.radii); });
    }
    void operator()(const display::BackgroundTiles &c);
    void operator()(const display::DrawImage &c);
    void operator()(const display::DrawGlyphs &c);
    void operator()(const display::TextShadow &c);
    void operator()(const display::DecorationBar &c)
    {
        fillPath(decorationPath(c.rect, c.style, c.line, c.skipInk), fillAttrs(c.color));
    }

private:
    void play(const DisplayList &list);
    /// SVG 1.1 has no conic gradient: a conic fill becomes an embedded image.
    bool bakedConic(const QPainterPath &path, const QBrush &brush)
    {
        if (!brush.gradient() || brush.gradient()->type() != QGradient::ConicalGradient)
            return false;
        emitRaster(path.boundingRect(), 1.0, [&](QPainter &p) { p.fillPath(path, brush); });
        return true;
    }
    /// The index of the command that closes the scope `list[push]` opens.
    static size_t scopeEnd(const DisplayList &list, size_t push);
    /// Embeds the scope list[push] opens as the raster player paints it over `area`; its pop.
    size_t rasterScope(const DisplayList &list, size_t push, const QRectF &area);
    /// Embeds the effect scope list[push] opens (filters, clip, mask, blend); its pop.
    size_t effectScope(const DisplayList &list, size_t push);
    void backdrop(const DisplayList &list, size_t index, const display::BackdropFilter &c);
    /// Paints list[0, end) (page px) over `pageRect`; the image of what lies there after it.
    QImage paintPrefix(const DisplayList &list, size_t end, const QRect &pageRect);
    /// Embeds `image` at `pageRect` (page px), whatever transform the current group has.
    void emitPageImage(const QRect &pageRect, const QImage &image);
    void paintGlyphs(const TextBlock &block, QPointF origin, const QColor &color, const EmojiGlyphMap *emoji,
                     qreal fontSize, bool drawEmoji, const QString &label);

    /// Fills `path` (current user space), clipped by the active clip.
    void fillPath(QPainterPath path, const QString &paint);
    /// Draws what `draw` paints within `area` (user px) into an embedded PNG at 1/`scale`
    /// resolution, clipped by the active clip.
    void emitRaster(QRectF area, qreal scale, const std::function<void(QPainter &)> &draw);
    void emitImage(const QRectF &dest, const QString &href);
    QString gradientRef(const QBrush &brush);
    /// The cache key of `glyph` in `font`: family, style, weight and style asked (they decide
    /// the synthetic bold and italic, font_fallback.h), pixel size and glyph index.
    static QString glyphKey(const QRawFont &font, quint32 glyph);
    /// The id of `glyph`'s outline in this document's defs (added on first use), or empty
    /// for a glyph with no outline; `key` is glyphKey()'s.
    QString glyphRef(const QString &key, GlyphShape &shape);
    QString emojiRef(const EmojiImage &image);
    void warnOnce(const QString &warning)
    {
        if (m_warnings && !m_warned.contains(warning)) {
            m_warned.insert(warning);
            m_warnings->append(warning);
        }
    }

    const SvgOptions &m_options;
    EmojiLibrary &m_emojiLibrary;
    QStringList *m_warnings;
    QSet<QString> m_warned;
    QString m_defs, m_body;
    QHash<QString, QString> m_gradients, m_glyphs, m_emoji;
    std::optional<QPainterPath> m_clip; // in the current user space
    // Rectangles known to lie inside m_clip: a cheap first test before QPainterPath's.
    QList<QRectF> m_clipSafe;
    bool clipContains(const QRectF &r) const
    {
        if (!m_clip)
            return true;
        for (const QRectF &safe : m_clipSafe) {
            if (safe.contains(r))
                return true;
        }
        return m_clip->contains(r);
    }
    /// The clip in force outside each open PushTransform or PushClip scope.
    struct SavedClip {
        std::optional<QPainterPath> clip;
        QList<QRectF> safe;
    };
    std::vector<SavedClip> m_savedClips;
    void pushClipState() { m_savedClips.push_back({m_clip, m_clipSafe}); }
    void popClip()
    {
        m_clip = std::move(m_savedClips.back().clip);
        m_clipSafe = std::move(m_savedClips.back().safe);
        m_savedClips.pop_back();
    }
    int m_transforms = 0; // enclosing transformed groups
    QTransform m_userToPage; // the current user space → page px
    std::vector<QTransform> m_savedUserToPage;
    QRect m_canvas;
    int m_skipTransforms = 0; // > 0 inside a transform that collapses everything
    const RenderCancellation *m_cancellation;
};

void SvgPlayer::play(const DisplayList &list)
{
    CancelledPlayback cancelled(m_cancellation);
    for (size_t i = 0; i < list.size(); ++i) {
        const DisplayCommand &command = list[i];
        if (cancelled.skip(command))
            continue;
        if (m_skipTransforms > 0) {
            if (std::holds_alternative<display::PushTransform>(command))
                ++m_skipTransforms;
            else if (std::holds_alternative<display::PopTransform>(command))
                --m_skipTransforms;
            continue;
        }
        if (std::holds_alternative<display::PushEffects>(command)) {
            i = effectScope(list, i);
            continue;
        }
        const auto *layer = std::get_if<display::PushLayer>(&command);
        if (layer && layer->isolated) { // a blend inside blends with the group alone
            i = rasterScope(list, i, layer->bounds);
            continue;
        }
        if (layer && m_options.groupOpacityAsPixels && layer->group && layer->opacity < 1) {
            // See SvgOptions::groupOpacityAsPixels: a group of one drawing is exact as
            // <g opacity>; one of several is composited by the raster player.
            const size_t pop = scopeEnd(list, i);
            int drawings = 0;
            for (size_t k = i + 1; k < pop && drawings < 2; ++k)
                drawings += scopeChange(list[k]) == 0 ? 1 : 0;
            if (drawings > 1) {
                i = rasterScope(list, i, layer->bounds);
                continue;
            }
        }
        if (const auto *t = std::get_if<display::PushTransform>(&command);
            t && t->transform.type() == QTransform::TxProject) {
            // SVG transforms are affine: painted by QPainterPlayer::projectiveScope().
            i = rasterScope(list, i, t->transform.mapRect(t->bounds.adjusted(-1, -1, 1, 1)));
            continue;
        }
        if (const auto *b = std::get_if<display::BackdropFilter>(&command)) {
            backdrop(list, i, *b);
            continue;
        }
        std::visit(*this, command);
    }
}

size_t SvgPlayer::rasterScope(const DisplayList &list, size_t push, const QRectF &area)
{
    const size_t pop = scopeEnd(list, push);
    emitRaster(area, 1 / std::max<qreal>(1, m_options.deviceScale), [&](QPainter &p) {
        playDisplayList(p, list, push, pop + 1, m_emojiLibrary, m_warnings, m_cancellation);
    });
    return pop;
}

size_t SvgPlayer::scopeEnd(const DisplayList &list, size_t push)
{
    return std::min(render::scopeEnd(list, push, list.size()), list.size() - 1);
}

size_t SvgPlayer::effectScope(const DisplayList &list, size_t push)
{
    const size_t pop = scopeEnd(list, push);
    // QtSvg 6.4 draws neither filters nor clip paths nor masks, so the scope is painted
    // by the raster player (the takumi engine's own effect code) into an embedded image:
    // browsers, resvg and our PNG path then show the same pixels.
    const auto &c = std::get<display::PushEffects>(list[push]);
    if (c.blend == BlendMode::Normal) {
        emitRaster(c.bounds, 1.0, [&](QPainter &p) {
            playDisplayList(p, list, push, pop + 1, m_emojiLibrary, m_warnings, m_cancellation);
        });
        return pop;
    }
    // A blend mode mixes with what lies beneath: bake the backdrop and the blended scope
    // together over the element's bounds.
    const QRect page = m_userToPage.mapRect(c.bounds).toAlignedRect() & m_canvas;
    if (page.isEmpty() || qint64(page.width()) * page.height() > kMaxRasterPixels)
        return pop;
    emitPageImage(page, paintPrefix(list, pop + 1, page));
    return pop;
}

QImage SvgPlayer::paintPrefix(const DisplayList &list, size_t end, const QRect &pageRect)
{
    QImage image(pageRect.size(), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter p(&image);
    p.setRenderHints(QPainter::Antialiasing | QPainter::SmoothPixmapTransform | QPainter::TextAntialiasing);
    p.setPen(Qt::NoPen);
    p.translate(-pageRect.topLeft());
    playDisplayList(p, list, 0, end, m_emojiLibrary, nullptr, m_cancellation);
    return image;
}

void SvgPlayer::emitPageImage(const QRect &pageRect, const QImage &image)
{
    const bool transformed = !m_userToPage.isIdentity();
    if (transformed)
        m_body += QStringLiteral("<g") + matrixAttr(m_userToPage.inverted()) + u'>';
    emitImage(QRectF(pageRect), pngDataUrl(image));
    if (transformed)
        m_body += QStringLiteral("</g>");
}

void SvgPlayer::backdrop(const DisplayList &list, size_t index, const display::BackdropFilter &c)
{
    const qreal scale = std::sqrt(std::abs(m_userToPage.determinant()));
    if (scale <= 0)
        return;
    const int reach = int(std::ceil(filterReach(c.filters) * scale));
    const QRect target = m_userToPage.mapRect(c.rect).toAlignedRect();
    const QRect source = target.adjusted(-reach, -reach, reach, reach) & m_canvas;
    if (source.isEmpty() || qint64(source.width()) * source.height() > kMaxRasterPixels)
        return;
    QImage filtered = paintPrefix(list, index, source);
    applyFilters(filtered, c.filters, scale);
    const QPainterPath clip = m_clip ? m_userToPage.map(*m_clip) : QPainterPath();
    emitPageImage(source,
                  shapedBackdrop(filtered, source.topLeft(), m_userToPage.map(c.shape), m_clip ? &clip : nullptr));
}

void SvgPlayer::operator()(const display::PushTransform &c)
{
    // A singular matrix paints nothing, and the clip could not follow it into the group.
    if (!c.transform.isInvertible()) {
        m_skipTransforms = 1;
        return;
    }
    pushClipState();
    m_body += QStringLiteral("<g") + matrixAttr(c.transform) + u'>';
    ++m_transforms;
    m_savedUserToPage.push_back(m_userToPage);
    m_userToPage = c.transform * m_userToPage;
    if (m_clip)
        m_clip = c.transform.inverted().map(*m_clip);
    m_clipSafe.clear();
}

void SvgPlayer::operator()(const display::PopTransform &)
{
    m_body += QStringLiteral("</g>");
    --m_transforms;
    m_userToPage = m_savedUserToPage.back();
    m_savedUserToPage.pop_back();
    popClip();
}

void SvgPlayer::operator()(const display::PushClip &c)
{
    pushClipState();
    const QPainterPath clip = c.path.isEmpty() ? roundedPath(c.rect, c.radii) : c.path;
    qreal rx = 0, ry = 0;
    for (const QSizeF &r : c.radii)
        rx = std::max(rx, r.width()), ry = std::max(ry, r.height());
    const QList<QRectF> safe{c.rect.adjusted(rx, 0, -rx, 0), c.rect.adjusted(0, ry, 0, -ry)};
    QList<QRectF> combined;
    if (!m_clip) {
        combined = safe;
    } else {
        for (const QRectF &a : m_clipSafe)
            for (const QRectF &b : safe)
                combined << (a & b);
    }
    m_clip = m_clip ? m_clip->intersected(clip) : clip;
    m_clipSafe = prunedSafeRects(std::move(combined));
}

void SvgPlayer::operator()(const display::OuterBoxShadows &c)
{
    // Blurred detail is no finer than the blur, so blurred shadows go into a coarser
    // embedded image; sharp ones (Tailwind's rings: spread, no blur) keep the page's
    // resolution. The list is cut into runs of either kind, drawn bottom (last) first, so
    // a ring over a soft shadow stays crisp without reordering anything.
    const auto blurred = [](const Shadow &sh) { return sh.blur > 0; };
    qsizetype end = c.shadows.size();
    while (end > 0) {
        qsizetype begin = end - 1;
        while (begin > 0 && blurred(c.shadows[begin - 1]) == blurred(c.shadows[end - 1]))
            --begin;
        const std::vector<Shadow> run(c.shadows.begin() + begin, c.shadows.begin() + end);
        qreal maxBlur = 0, extent = 0;
        for (const Shadow &sh : run) {
            if (sh.color.alpha() == 0)
                continue;
            maxBlur = std::max<qreal>(maxBlur, sh.blur);
            extent = std::max<qreal>(extent, std::abs(sh.offsetX) + std::abs(sh.offsetY) + sh.spread + 1.5 * sh.blur + 2);
        }
        if (extent > 0) {
            const qreal shadowScale = std::clamp(maxBlur / 8, 1.0, 4.0);
            emitRaster(c.borderBox.adjusted(-extent, -extent, extent, extent), c.opaqueBackground ? shadowScale : 1.0,
                       [&](QPainter &p) { paintOuterShadows(p, run, c.opaqueBackground, c.borderBox, c.radii); });
        }
        end = begin;
    }
}

void SvgPlayer::operator()(const display::BackgroundTiles &c)
{
    const QRectF &tile = c.tile;
    const bool gradient = c.image.isNull();
    if (gradient && !c.gradient.gradient())
        return; // neither an image nor a gradient: nothing to draw
    if (gradient && (tile.contains(c.area) || !c.repeat)) {
        const QPainterPath area = c.repeat ? c.clip : c.clip.intersected(rectPath(tile));
        if (!bakedConic(area, c.gradient))
            fillPath(area, gradientRef(c.gradient));
        return;
    }
    if (!gradient && !c.repeat && m_clip == std::nullopt && c.clip.contains(tile) && isEmbeddableRasterDataUrl(c.url)) {
        emitImage(tile, c.url);
        return;
    }
    // Tiled images and gradients: drawn once into an embedded image; an SVG image at the
    // resolution of the final bitmap.
    const bool vector = !gradient && !svgSource(c.image).isEmpty();
    const qreal deviceScale = vector ? std::max<qreal>(1, m_options.deviceScale) : 1;
    emitRaster(c.clip.boundingRect(), 1 / deviceScale, [&](QPainter &p) {
        p.setClipPath(c.clip, Qt::IntersectClip);
        const QImage image = vector ? imageAtDeviceSize(c.image, (tile.size() * deviceScale).toSize()) : c.image;
        drawImageTiles(p, gradient ? gradientTileImage(c) : image, c);
    });
}

void SvgPlayer::operator()(const display::StrokeBorder &c)
{
    // Dash pattern in user units, the raster pen's: (almost) 0 on / 2 off in widths for dots,
    // a side's own dash and gap, else 3 on / 3 off; a dot of exactly zero length vanishes in
    // Qt's SVG renderer as in its stroker.
    const QString on = c.dotted       ? QString::number(display::StrokeBorder::kDotLength * c.width, 'g', 3)
                       : c.dash > 0 ? num(c.dash)
                                    : num(3 * c.width);
    const QString off = c.dotted       ? num(c.gap > 0 ? c.gap : (2 - display::StrokeBorder::kDotLength) * c.width)
                        : c.dash > 0 ? num(c.gap)
                                     : num(3 * c.width);
    QString attrs = QStringLiteral(" fill=\"none\" stroke=\"%1\" stroke-width=\"%2\" stroke-dasharray=\"%3 %4\"%5")
                        .arg(hexColor(c.color), num(c.width), on, off,
                             c.dotted ? QStringLiteral(" stroke-linecap=\"round\"") : QString());
    if (c.color.alpha() < 255)
        attrs += QStringLiteral(" stroke-opacity=\"%1\"").arg(frac(c.color.alphaF()));
    const QString d = c.isLine ? QStringLiteral("M%1 %2L%3 %4")
                                     .arg(num(c.line.x1()), num(c.line.y1()), num(c.line.x2()), num(c.line.y2()))
                               : pathData(c.path);
    m_body += QStringLiteral("<path d=\"") + d + u'"' + attrs + QStringLiteral("/>");
}

void SvgPlayer::operator()(const display::DrawImage &c)
{
    if (m_options.inlineSvgAsVector && isInlineSvgImage(c.image) && !c.shape && clipContains(c.dest)) {
        // An inline <svg> stays vector: its content as a group mapped onto its box.
        const QByteArray source = svgSource(c.image);
        const QRectF box = inlineSvgSnappedBox(c.dest, m_transforms ? 1 : std::max<qreal>(1, m_options.deviceScale));
        if (isPlainVector(source, box)) {
            const QString group = svgAsGroup(source, box);
            if (!group.isEmpty()) {
                m_body += group;
                return;
            }
        }
    }
    if (!m_options.inlineSvgAsVector && isInlineSvgImage(c.image) && !c.shape && clipContains(c.dest) && !m_transforms)
        if (const auto aligned = inlineSvgOnPixelGrid(c.image, c.dest, std::max<qreal>(1, m_options.deviceScale)))
            return emitImage(aligned->rect, pngDataUrl(aligned->image));
    // Under a CSS transform: drawn through it onto the device's pixels (not magnified or
    // turned by QtSvg from a raster of the untransformed box), placed in page space.
    if (!m_options.inlineSvgAsVector && isInlineSvgImage(c.image) && !c.shape && clipContains(c.dest) && m_transforms) {
        const qreal deviceScale = std::max<qreal>(1, m_options.deviceScale);
        if (const auto drawn = inlineSvgOnDevice(c.image, c.dest, m_userToPage * QTransform::fromScale(deviceScale, deviceScale))) {
            m_body += QStringLiteral("<g") + matrixAttr(m_userToPage.inverted()) + u'>';
            emitImage(QRectF(drawn->rect.topLeft() / deviceScale, drawn->rect.size() / deviceScale),
                      pngDataUrl(drawn->image));
            m_body += QStringLiteral("</g>");
            return;
        }
    }
    // An SVG image is embedded drawn at the pixels it covers in the final bitmap.
    const bool vector = !svgSource(c.image).isEmpty();
    const qreal deviceScale = vector ? std::max<qreal>(1, m_options.deviceScale) : 1;
    const QImage image = vector ? imageAtDeviceSize(c.image, (c.dest.size() * deviceScale).toSize()) : c.image;
    if (!c.shape && clipContains(c.dest)) {
        if (m_options.largeImagesAtDevicePixels && !vector && !m_transforms)
            if (const auto shrunk = shrunkToDevice(image, c.dest.size() * std::max<qreal>(1, m_options.deviceScale)))
                return emitImage(c.dest, pngDataUrl(*shrunk));
        // Only raster bytes go in as they came: an SVG (or a mislabelled one) would be
        // decoded again by QtSvg's image plugin, outside the resource policy.
        return emitImage(c.dest, isEmbeddableRasterDataUrl(c.source) ? c.source : pngDataUrl(image));
    }
    // Rounded or cropped: the clip is baked into the embedded pixels (see the file comment).
    const QPainterPath shape = c.shape ? *c.shape : rectPath(c.contentBox).intersected(rectPath(c.dest));
    emitRaster(shape.boundingRect(), 1 / deviceScale, [&](QPainter &p) {
        QBrush brush(image);
        QTransform t = QTransform::fromTranslate(c.dest.left(), c.dest.top());
        t.scale(c.dest.width() / image.width(), c.dest.height() / image.height());
        brush.setTransform(t);
        p.fillPath(shape, brush);
    });
}

void SvgPlayer::operator()(const display::TextShadow &c)
{
    const TextBlock &block = *c.block;
    if (c.blur <= 0.2) {
        paintGlyphs(block, c.origin + c.offset, c.color, nullptr, c.fontSize, false, QString());
        return;
    }
    const QRectF box(c.origin + c.offset, block.size);
    const qreal e = c.fontSize + 1.5 * c.blur;
    emitRaster(box.adjusted(-e, -e, e, e), std::clamp<qreal>(c.blur / 8, 1, 4), [&](QPainter &p) {
        const qreal ie = c.fontSize;
        drawBlurred(p, box.adjusted(-ie, -ie, ie, ie), c.blur / 2.0, [&](QPainter &sp) {
            sp.setPen(c.color);
            // The glyphs as this player draws the text, as outlines (paintGlyphs()): a hinted
            // glyph image sits a third of a pixel off them, and the shadow with it.
            for (const TextLine &line : block.lines)
                for (const QGlyphRun &run : line.glyphRuns) {
                    if (EmojiGlyphMap::isEmojiRun(run))
                        paintGlyphRun(sp, c.origin + c.offset, run);
                    else
                        sp.fillPath(glyphRunOutline(run, c.origin + c.offset), c.color);
                }
        });
    });
}

void SvgPlayer::operator()(const display::DrawGlyphs &c)
{
    if (c.emoji) {
        const QString dir = m_emojiLibrary.directory() + u'/' + emojiSetName(c.emojiSet);
        if (!QFileInfo::exists(dir))
            warnOnce(QStringLiteral("emojiType: the %1 set is not installed in %2 (scripts/fetch-emoji); emoji drawn "
                                    "with the Noto Color Emoji font")
                         .arg(emojiSetName(c.emojiSet), dir));
    }
    paintGlyphs(*c.block, c.origin, c.color, c.emoji.get(), c.fontSize, true, c.label);
    if (c.strokeWidth > 0 && c.strokeColor.alpha() > 0) {
        // The stroke is written as the filled outline of the stroked glyph paths, so every
        // SVG reader draws the same pen without font or stroke-join support.
        QPainterPath outline;
        for (const TextLine &line : c.block->lines) {
            QPointF origin = c.origin; // on the whole-pixel baseline paintGlyphs() used
            if (m_transforms == 0) {
                const qreal y = c.origin.y() + line.baseline;
                origin.ry() += roundedToDevicePixel(y) - y;
            }
            for (const QGlyphRun &run : line.glyphRuns)
                if (!(c.emoji && EmojiGlyphMap::isEmojiRun(run)))
                    outline.addPath(glyphRunOutline(run, origin));
        }
        QPainterPathStroker stroker;
        stroker.setWidth(c.strokeWidth);
        stroker.setJoinStyle(Qt::MiterJoin);
        QPainterPath stroke = stroker.createStroke(outline);
        stroke.setFillRule(Qt::WindingFill);
        fillPath(stroke, fillAttrs(c.strokeColor));
    }
}

void SvgPlayer::fillPath(QPainterPath path, const QString &paint)
{
    if (!clipContains(path.boundingRect())) {
        if (!m_clip->intersects(path.boundingRect()))
            return;
        path = path.intersected(*m_clip);
    }
    if (path.isEmpty())
        return;
    const QRectF r = path.boundingRect();
    if (path.elementCount() == 5 && path.elementAt(0).type == QPainterPath::MoveToElement && path == rectPath(r)) {
        m_body += QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\"%5/>")
                      .arg(num(r.x()), num(r.y()), num(r.width()), num(r.height()), paint);
        return;
    }
    m_body += QStringLiteral("<path d=\"") + pathData(path) + u'"';
    if (path.fillRule() == Qt::OddEvenFill)
        m_body += QStringLiteral(" fill-rule=\"evenodd\"");
    m_body += paint + QStringLiteral("/>");
}

void SvgPlayer::emitImage(const QRectF &dest, const QString &href)
{
    m_body += QStringLiteral(
                  "<image x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" preserveAspectRatio=\"none\" xlink:href=\"")
                  .arg(num(dest.x()), num(dest.y()), num(dest.width()), num(dest.height()));
    m_body += href.toHtmlEscaped();
    m_body += QStringLiteral("\"/>");
}

void SvgPlayer::emitRaster(QRectF area, qreal scale, const std::function<void(QPainter &)> &draw)
{
    if (m_clip)
        area &= m_clip->boundingRect();
    area = QRectF(QPointF(std::floor(area.left()), std::floor(area.top())),
                  QPointF(std::ceil(area.right()), std::ceil(area.bottom())));
    if (area.isEmpty())
        return;
    const QSize px(std::max(1, int(std::ceil(area.width() / scale))),
                   std::max(1, int(std::ceil(area.height() / scale))));
    if (qint64(px.width()) * px.height() > kMaxRasterPixels)
        return;
    QImage image(px, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    {
        QPainter p(&image);
        p.setRenderHints(QPainter::Antialiasing | QPainter::SmoothPixmapTransform | QPainter::TextAntialiasing);
        p.setPen(Qt::NoPen);
        p.scale(1 / scale, 1 / scale);
        p.translate(-area.topLeft());
        if (m_clip)
            p.setClipPath(*m_clip);
        draw(p);
    }
    // Nothing drawn (all clipped away): no image.
    bool any = false;
    for (int y = 0; y < image.height() && !any; ++y) {
        const auto *row = reinterpret_cast<const QRgb *>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x) {
            if (qAlpha(row[x])) {
                any = true;
                break;
            }
        }
    }
    if (!any)
        return;
    emitImage(QRectF(area.topLeft(), QSizeF(px) * scale), pngDataUrl(image));
}

QString SvgPlayer::gradientRef(const QBrush &brush)
{
    const QGradient *g = brush.gradient();
    QString def;
    QGradientStops stops = g->stops();
    // SVG 1.1 has no focal radius: a radial line that starts out from the centre (CSS
    // stops beyond 0) maps its stops onto [fr/r, 1] instead, the inner part padded —
    // or, repeating, rotated onto a period that starts at the centre.
    qreal lo = 0;
    if (g->type() == QGradient::LinearGradient) {
        const auto *lg = static_cast<const QLinearGradient *>(g);
        def = QStringLiteral(
                  "<linearGradient id=\"@\" gradientUnits=\"userSpaceOnUse\" x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%4\"")
                  .arg(fineNum(lg->start().x()), fineNum(lg->start().y()), fineNum(lg->finalStop().x()),
                       fineNum(lg->finalStop().y()));
    } else {
        const auto *rg = static_cast<const QRadialGradient *>(g);
        qreal r = rg->centerRadius();
        if (r > 0 && rg->focalRadius() > 0 && rg->focalRadius() < r) {
            if (g->spread() == QGradient::RepeatSpread) {
                stops = rotatedRepeatStops(stops, rg->focalRadius(), r);
                r -= rg->focalRadius();
            } else {
                lo = rg->focalRadius() / r;
            }
        }
        def = QStringLiteral("<radialGradient id=\"@\" gradientUnits=\"userSpaceOnUse\" cx=\"%1\" cy=\"%2\" r=\"%3\"")
                  .arg(fineNum(rg->center().x()), fineNum(rg->center().y()), fineNum(r));
    }
    // An elliptical radial gradient, or a border image's slice stretched onto its tile.
    if (!brush.transform().isIdentity())
        def += matrixAttr(brush.transform()).replace(QLatin1String(" transform="), QLatin1String(" gradientTransform="));
    if (g->spread() == QGradient::RepeatSpread)
        def += QStringLiteral(" spreadMethod=\"repeat\"");
    def += u'>';
    for (const auto &[pos, color] : stops) {
        def += QStringLiteral("<stop offset=\"%1\" stop-color=\"%2\"").arg(frac(lo + pos * (1 - lo)), hexColor(color));
        if (color.alpha() < 255)
            def += QStringLiteral(" stop-opacity=\"%1\"").arg(frac(color.alphaF()));
        def += QStringLiteral("/>");
    }
    def += g->type() == QGradient::LinearGradient ? QStringLiteral("</linearGradient>")
                                                  : QStringLiteral("</radialGradient>");
    auto it = m_gradients.constFind(def);
    if (it == m_gradients.constEnd()) {
        const QString id = QStringLiteral("d%1").arg(m_gradients.size());
        m_defs += QString(def).replace(QLatin1String("id=\"@\""), QStringLiteral("id=\"%1\"").arg(id));
        it = m_gradients.insert(def, id);
    }
    return QStringLiteral(" fill=\"url(#%1)\"").arg(*it);
}

QString SvgPlayer::glyphKey(const QRawFont &font, quint32 glyph)
{
    return font.familyName() + u'|' + font.styleName() + u'|' + QString::number(font.weight()) + u'|'
           + QString::number(int(font.style())) + u'|' + QString::number(font.pixelSize()) + u'|'
           + QString::number(glyph);
}

QString SvgPlayer::glyphRef(const QString &key, GlyphShape &shape)
{
    auto it = m_glyphs.constFind(key);
    if (it != m_glyphs.constEnd())
        return *it;
    QString id;
    if (!shape.pathData.isEmpty()) {
        id = QStringLiteral("g%1").arg(m_glyphs.size());
        m_defs += QStringLiteral("<path id=\"%1\" d=\"%2\"/>").arg(id, shape.pathData);
    }
    m_glyphs.insert(key, id);
    return id;
}

QString SvgPlayer::emojiRef(const EmojiImage &image)
{
    auto it = m_emoji.constFind(image.path);
    if (it != m_emoji.constEnd())
        return *it;
    const QString id = QStringLiteral("e%1").arg(m_emoji.size());
    // Reset what the text group around the <use> would otherwise pass on to the image.
    m_defs += QStringLiteral("<g id=\"%1\" fill=\"#000\" stroke=\"none\">").arg(id) + image.fragment
              + QStringLiteral("</g>");
    m_emoji.insert(image.path, id);
    return id;
}

void SvgPlayer::paintGlyphs(const TextBlock &block, QPointF origin, const QColor &color, const EmojiGlyphMap *emoji,
                            qreal fontSize, bool drawEmoji, const QString &label)
{
    m_body += QStringLiteral("<g") + fillAttrs(color);
    if (!label.isEmpty())
        m_body += QStringLiteral(" aria-label=\"") + label.toHtmlEscaped() + u'"';
    m_body += u'>';
    const QPointF blockOrigin = origin;
    for (const TextLine &line : block.lines) {
        // Baselines on whole pixels when nothing transforms the text, as Chromium (and the
        // raster painter) draw them.
        QPointF origin = blockOrigin;
        if (m_transforms == 0) {
            const qreal y = blockOrigin.y() + line.baseline;
            origin.ry() += roundedToDevicePixel(y) - y;
        }
        for (const QGlyphRun &run : line.glyphRuns) {
            const QRawFont font = run.rawFont();
            const QList<quint32> glyphs = run.glyphIndexes();
            const QList<QPointF> positions = run.positions();
            if (EmojiGlyphMap::isEmojiRun(run)) {
                if (!drawEmoji)
                    continue;
                const QList<QPointF> advances = font.advancesForGlyphIndexes(glyphs);
                for (qsizetype i = 0; i < glyphs.size(); ++i) {
                    const QPointF pos = origin + positions[i];
                    const QString cluster = emoji ? emoji->clusterFor(glyphs[i]) : QString();
                    std::shared_ptr<const EmojiImage> image;
                    if (m_options.emojiSet != EmojiSet::Noto && !cluster.isEmpty()) {
                        image = m_emojiLibrary.image(cluster, m_options.emojiSet);
                        if (!image)
                            warnOnce(QStringLiteral(
                                         "emojiType: no %1 image for %2 in %3; drawn with the Noto Color Emoji font")
                                         .arg(emojiSetName(m_options.emojiSet), emojiCodepoints(cluster),
                                              m_emojiLibrary.directory()));
                    }
                    const QRectF rect
                        = emojiImageRect(pos, advances[i].x() + emojiAdvanceCorrection(fontSize), fontSize);
                    if (image && clipContains(rect)) {
                        const qreal k = rect.width() / image->viewBox.width();
                        const QTransform t(k, 0, 0, k, rect.left() - image->viewBox.left() * k,
                                           rect.top() - image->viewBox.top() * k);
                        m_body += QStringLiteral("<use xlink:href=\"#%1\"").arg(emojiRef(*image)) + matrixAttr(t)
                                  + QStringLiteral("/>");
                        continue;
                    }
                    // Colour bitmap glyphs have no outline: embed them as pixels.
                    QGlyphRun single = run;
                    single.setGlyphIndexes({glyphs[i]});
                    single.setPositions({QPointF(0, 0)});
                    const qreal k = emojiGlyphScale(advances[i].x(), fontSize);
                    emitRaster(QRectF(pos.x(), pos.y() - 1.4 * fontSize, advances[i].x() * k + 1, 1.9 * fontSize), 1.0,
                               [&](QPainter &p) {
                                   if (image) {
                                       p.drawImage(rect, image->raster(int(std::ceil(rect.width()))));
                                       return;
                                   }
                                   p.save();
                                   p.translate(pos);
                                   p.scale(k, k);
                                   p.drawGlyphRun(QPointF(0, 0), single);
                                   p.restore();
                               });
                }
                continue;
            }
            for (qsizetype i = 0; i < glyphs.size(); ++i) {
                const QString key = glyphKey(font, glyphs[i]);
                GlyphShape &shape = cachedGlyphShape(font, glyphs[i], key);
                const QString id = glyphRef(key, shape);
                if (id.isEmpty())
                    continue;
                const QPointF pos = origin + positions[i];
                if (m_clip && !clipContains(glyphBox(font, glyphs[i], shape).translated(pos))) {
                    const QPainterPath outline = glyphOutline(font, glyphs[i]).translated(pos);
                    const QPainterPath clipped = outline.intersected(*m_clip);
                    if (!clipped.isEmpty())
                        m_body += QStringLiteral("<path d=\"") + pathData(clipped) + QStringLiteral("\"/>");
                    continue;
                }
                m_body += QStringLiteral("<use xlink:href=\"#%1\" x=\"%2\" y=\"%3\"/>")
                              .arg(id, num(pos.x()), num(pos.y()));
            }
        }
    }
    m_body += QStringLiteral("</g>");
}

} // namespace

QByteArray renderSvgDocument(const LayoutBox &root, QSize size, const PaintResources &resources,
                             const SvgOptions &options, QStringList *warnings)
{
    RecordOptions record;
    record.emojiSet = options.emojiSet;
    record.textLabels = true;
    return SvgPlayer(options, resources.emoji, warnings, resources.cancellation)
        .document(recordDisplayList(root, resources, record), size);
}

QImage rasteriseSvg(const QByteArray &svg, QSize size)
{
    QImage image(size.expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QSvgRenderer renderer(svg);
    if (!renderer.isValid())
        return image;
    QPainter painter(&image);
    painter.setRenderHints(QPainter::Antialiasing | QPainter::SmoothPixmapTransform);
    renderer.render(&painter, QRectF(QPointF(0, 0), QSizeF(size)));
    painter.end();
    return image;
}

} // namespace imprint::render
