#pragma once
// Used values of CSS paint geometry, computed once for every backend: corner radii,
// transforms, object-fit, background tiles; and the effects (gradients, blur, shadows)
// the raster painter and the SVG writer's embedded images draw alike.

#include "server/render/layout/layout.h"
#include "server/render/paint/transform_matrix.h"
#include "server/render/resources/image_cache.h"
#include "server/render/style/computed_style.h"

#include <QImage>
#include <QTransform>

#include <QBrush>
#include <QPainter>
#include <QPainterPath>
#include <QRectF>

#include <array>
#include <functional>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace imprint::render::paint_detail {

/// Used corner radii in px, top-left, top-right, bottom-right, bottom-left; each a
/// (horizontal, vertical) pair.
using Radii = std::array<QSizeF, 4>;

/// Resolves border-radius against a `size` px border box and scales all radii down
/// together when adjacent ones overlap (CSS Backgrounds 3 §5.5 "Overlapping Curves").
Radii resolveRadii(const ComputedStyle &style, QSizeF size);
/// Radii of a box inset by `insets` px (the padding edge inside a border, CSS
/// Backgrounds 3 §5.2: outer radius minus border width, floored at 0). Negative insets
/// grow non-zero radii (box-shadow spread, §7.1.1).
Radii insetRadii(const Radii &radii, const QMarginsF &insets);
bool isZero(const Radii &radii);
/// The dash and gap (px) Chromium strokes a `dashed` border side of `length` px and
/// `width` px with (Blink's StrokeData::SetupPaintDashPathEffect and SelectBestDashGap):
/// dashes of 2 widths and gaps of 1 (3 and 2 below 3 px), the gap stretched or shrunk so
/// that the side starts and ends with a whole dash. nullopt: no room for two dashes, so
/// Chromium draws the side solid.
std::optional<std::pair<qreal, qreal>> dashPattern(qreal length, qreal width);
/// The dash and gap (px) for a closed dashed ring (a rounded border or outline) `length`
/// px around and `width` px thick: Blink's nominal dash, the gap fitted so whole dashes
/// close the loop.
std::pair<qreal, qreal> closedDashPattern(qreal length, qreal width);
/// The distance (px) between the dots' centres of a closed dotted ring `length` px around
/// and `width` px thick: about two widths, fitted so the dots close the loop evenly.
qreal closedDotSpacing(qreal length, qreal width);
/// Blink's dash and gap (px) for a dashed line `width` px thick before fitting
/// (DashLengthRatio, DashGapRatio): 2 and 1 widths, or 3 and 2 below 3 px.
std::pair<qreal, qreal> nominalDash(qreal width);
/// Blink's SelectBestDashGap for an open line of `length` px: of the two dash counts
/// around length / (dash + gap), the gap (px) between `dash`-long dashes that is nearer
/// `gap` and leaves a whole dash at both ends.
qreal bestDashGap(qreal length, qreal dash, qreal gap);
/// A closed path of `rect` with elliptical corners `radii`.
QPainterPath roundedPath(const QRectF &rect, const Radii &radii);

/// `v` (device px) on the nearest whole device pixel as Blink rounds a LayoutUnit: at its
/// 1/64 px precision first, then halves up, so an edge or baseline laid out at 86.5 rounds
/// to 87 even when float arithmetic made it 86.49999.
qreal roundedToDevicePixel(qreal v);

/// `rect` (page px) with each edge on the nearest whole device pixel at `deviceScale`
/// device px a page px: how Blink paints box decorations (PhysicalRect's
/// ToPixelSnappedRect(): left and right rounded, the width their difference), so a box
/// laid out at y = 40.5 gets crisp edges on row 41 rather than two half-covered rows.
QRectF pixelSnapped(const QRectF &rect, qreal deviceScale = 1);

/// The edges and curves of a box every paint step starts from (page px): the border box
/// with its radii (CSS Backgrounds 3 §5.5) and the padding box with the inner radii
/// (§5.2), which clip overflow and inset shadows. Both boxes are pixelSnapped() at
/// `deviceScale` (backgrounds, borders, shadows, outlines and overflow clips are painted on
/// whole device pixels, as Chromium paints them; the layout's own boxes stay fractional).
struct BoxGeometry {
    QRectF borderBox;
    QRectF paddingBox;
    Radii outer; ///< radii of the border box
    Radii inner; ///< radii of the padding box
};
BoxGeometry boxGeometry(const LayoutBox &box, qreal deviceScale = 1);

/// A brush painting `gradient` over the background positioning area `area` (page px):
/// linear gradients per CSS Images 3 §3.1 (angle, gradient line length
/// |w sin a| + |h cos a|), radial per §3.2 (shape, extent keywords, centre), colour stops
/// per §3.5.3 fixup. Repeating gradients repeat.
QBrush gradientBrush(const Gradient &gradient, const QRectF &area);

/// `brush` (a gradientBrush()) seen through the affine `map` (its user space to the page's,
/// e.g. a border image's slice stretched onto its tile). A linear gradient comes back as a
/// linear gradient in page px with no brush transform, the map folded into its start and
/// end points (any affine map keeps a linear gradient linear), so players that drop brush
/// transforms (QSvgGenerator) still draw it; other gradients carry the map as their brush
/// transform.
QBrush mappedGradientBrush(const QBrush &brush, const QTransform &map);

/// Draws what `draw` paints (page px) blurred with a Gaussian of standard deviation
/// `sigma` px: rendered at reduced resolution when sigma is large (the result is smooth
/// anyway), blurred separably, and scaled back up. `inkBounds` must contain the unblurred
/// drawing; the blurred result spreads 3 sigma beyond it.
void drawBlurred(QPainter &painter, const QRectF &inkBounds, qreal sigma, const std::function<void(QPainter &)> &draw);

/// Paints the outer box shadows among `shadows` (CSS Backgrounds 3 §7.1; first listed
/// on top) of a border box `borderBox` with corners `radii`, page px. They show only
/// outside the border box; `opaqueBackground` says the box's own background hides the
/// inside anyway, so no cut-out is needed (which keeps the edge antialiased).
void paintOuterShadows(QPainter &painter, const std::vector<Shadow> &shadows, bool opaqueBackground,
                       const QRectF &borderBox, const Radii &radii);
/// Paints the inset box shadows among `shadows` (§7.1) inside the padding box
/// `paddingBox` with corners `paddingRadii`, page px.
void paintInsetShadows(QPainter &painter, const std::vector<Shadow> &shadows, const QRectF &paddingBox,
                       const Radii &paddingRadii);

/// How far (px, each side) `filters` may move ink beyond what they are given: 3 standard
/// deviations of every blur and drop-shadow plus the shadow offsets (CSS Filter Effects 1
/// §5); 0 for the colour functions.
qreal filterReach(const std::vector<FilterOp> &filters);

/// Runs `image` (Format_ARGB32_Premultiplied) through `filters` in order (CSS Filter
/// Effects 1 §5, https://www.w3.org/TR/filter-effects-1/#filter-functions): colour
/// functions per pixel on unpremultiplied sRGB values as the §8 shorthand equivalents
/// define them, blur and drop-shadow with the shadows' Gaussian. `scale` is the image's
/// px per CSS px (lengths are multiplied by it).
void applyFilters(QImage &image, const std::vector<FilterOp> &filters, qreal scale = 1);

/// The clip-path `shape` (CSS Shapes 1 §3.1) of a border box `borderBox` (page px) as a
/// path: percentages of inset()/polygon() against the box's width and height, circle()
/// radii against sqrt(w² + h²)/√2, the default centre the box centre. An empty path for
/// path() shapes, which the players rasterise from the SVG data.
QPainterPath clipShapePath(const ClipShape &shape, const QRectF &borderBox);

} // namespace imprint::render::paint_detail

namespace imprint::render {

/// The 4×4 transformation matrix of `box` (CSS Transforms 2 §6, page px): its transform
/// functions (the translate, rotate and scale properties first) applied in order around
/// transform-origin, which resolves against its border box, after the perspective of
/// `parent` (the box it is laid out in, null for the root) when that has one (§7.1,
/// around perspective-origin in the parent's border box). Identity when `box` has no
/// transform, whatever the parent's perspective.
TransformMatrix transformMatrix(const LayoutBox &box, const LayoutBox *parent);

/// The transform a painter applies to draw `box` (its scope's PushTransform), given the
/// matrix `box` accumulates from the root of its 3D rendering context (CSS Transforms 2
/// §8: its transformMatrix(), after its parent's accumulated one when the parent
/// preserves 3D) and, when it joins its parent's context, the parent's accumulated matrix
/// (`context`, else null): the flattened matrix, relative to the parent's flattened one
/// the painter already holds.
QTransform transformInContext(const TransformMatrix &accumulated, const TransformMatrix *context);

/// inkBounds() of `box`, whose matrix from the root of its 3D rendering context is
/// `accumulated`, with the children that join its context (when it preserves 3D) where
/// transformInContext() draws them rather than where their own transforms alone would.
QRectF inkBoundsInContext(const LayoutBox &box, const TransformMatrix &accumulated);

/// transformMatrix() flattened onto the page (TransformMatrix::toQTransform()): what a
/// painter applies to draw `box` and its subtree. Identity when there is no transform;
/// may be singular (scale(0), rotateY(90deg)) or projective (a perspective).
QTransform cssTransform(const LayoutBox &box, const LayoutBox *parent);

/// The two images a player paints a scope seen in perspective with (a 3D transform whose
/// matrix is projective): the scope drawn flat into a layer, then the layer mapped onto an
/// image of the device rect it covers. The raster player draws them and the layer budget
/// counts them from this one description.
struct ProjectiveLayer {
    QRectF source; ///< the user-space rect the layer covers: the ink and a rim of 2 layer px
    QSize size; ///< the layer, px
    qreal scale = 0; ///< layer px per user px
    QRect target; ///< the device rect the mapped image covers, cut to the device
    bool isEmpty() const { return scale <= 0 || target.isEmpty(); }
};

/// The ProjectiveLayer of a scope whose ink is `bounds` (user px) and whose user space
/// reaches the device `device` (px) through the projective `toDevice`: the layer's
/// resolution is the largest magnification along the edges of `bounds`, doubled, kept
/// within 1–4 and lowered until the layer has at most `maxPixels`; the transparent rim
/// lets the ink's edges be sampled smoothly rather than cut at the texture's edge. Empty
/// when `bounds` is empty or maps outside the device.
ProjectiveLayer projectiveLayer(const QRectF &bounds, const QTransform &toDevice, const QRect &device,
                                qint64 maxPixels);

/// Where a replaced element's image of `natural` px goes in its `contentBox` (page px):
/// sized by object-fit (CSS Images 3 §5.5) and placed by object-position (§5.6). The
/// result may overflow the content box (cover, none); the caller clips.
QRectF objectFitRect(const ComputedStyle &style, QSizeF natural, const QRectF &contentBox);

/// One background layer with its used values (CSS Backgrounds 3 §3).
struct ResolvedBackgroundLayer {
    const BackgroundLayer *layer = nullptr; ///< the gradient or URL and background-repeat
    QImage image; ///< the decoded image; null for a gradient
    /// The tile placed by background-position (§3.6) at the size background-size
    /// gives it (§3.9), page px; with background-repeat it repeats in both axes.
    QRectF tile;
};

/// A box's background with every layer's geometry resolved, bottom layer first (the
/// order they paint in).
struct ResolvedBackground {
    QColor color; ///< background-color, painted beneath the layers
    QRectF positioningArea; ///< the padding box (background-origin initial value, §3.7)
    std::vector<ResolvedBackgroundLayer> layers;
};

/// Resolves image `layers` (background or mask layers, topmost first) in the positioning
/// `area` (page px): each image decoded through `images` (a data: URL) or `loader` (any
/// other URL, when given), sized (CSS Backgrounds 3 §3.9)
/// and placed (§3.6); bottom layer first. Layers whose image does not decode or whose
/// tile is empty are dropped. Mask layers (CSS Masking 1 §7) follow the same rules.
std::vector<ResolvedBackgroundLayer>
resolveImageLayers(std::span<const BackgroundLayer> layers, const QRectF &area, ImageCache &images,
                   const ImageLoader &loader = {});

/// Resolves `style`'s background layers for a box whose background positioning area is
/// `paddingBox` (page px); the painting area is the border box (background-clip initial
/// value, §3.8). Layers whose image does not decode or whose tile is empty are dropped.
ResolvedBackground resolveBackgroundLayers(const ComputedStyle &style, const QRectF &paddingBox, ImageCache &images,
                                           const ImageLoader &loader = {});

/// Page-px bounds of everything `box`'s subtree may paint: boxes, outer shadows, text
/// with its overhang and shadows; children transformed, cut at the border box under
/// overflow: hidden. An opacity group needs no more pixels than this.
QRectF inkBounds(const LayoutBox &box);

/// Blurs `image` in place with a Gaussian of standard deviation `sigma` px, approximated
/// by three successive box blurs per axis (separable, cost independent of sigma).
/// `image` must be Format_ARGB32_Premultiplied.
void blurImage(QImage &image, qreal sigma);

/// A transparent `size` px canvas (at least 1 × 1, Format_ARGB32_Premultiplied) with
/// `paint` run on a QPainter over it: the one way a backend paints into a new image.
QImage paintOnTransparentImage(QSize size, const std::function<void(QPainter &)> &paint);

/// The pool of canvas pixel buffers paintOnTransparentImage() reuses (process-wide,
/// bounded in bytes): hits = canvases that reused a buffer, misses = buffers allocated,
/// entries and bytes = buffers free now, capacity = the bound in bytes.
CacheStats canvasPoolStats();

/// The area to fill for a text decoration `line` of `style` (CSS Text Decoration 3 §2.3)
/// whose solid form is `bar` (thickness t = bar height, page px), drawn as Blink's
/// DecorationLinePainter does: `solid` and `double` snapped to whole pixels (height
/// max(1, floor t)), the second line t + 1 below an underline (above an overline, floor(t
/// + 1) below a line-through); `dotted` and `dashed` stroked from whole-pixel ends along a
/// pixel-centred line, with square dots of round(t) (round dots above 3 px) and Blink's
/// dashes (dashPattern()), solid where two do not fit; `wavy` Blink's wave of cubic curves
/// (MakeWave: wavelength 1 + 2·round(2t + 0.5), control points 0.5 + round(3t + 0.5) off a
/// midline t + 1.5 below an underline's top), cut at the bar's ends.
/// The x ranges of `skipInk` (page px) are cut out of every line (text-decoration-skip-ink,
/// CSS Text Decoration 4 §4.2), their ends on whole pixels (Blink clips them out unantialiased).
QPainterPath decorationPath(const QRectF &bar, DecorationStyle style, DecorationLine line,
                            const std::vector<std::pair<qreal, qreal>> &skipInk = {});

} // namespace imprint::render
