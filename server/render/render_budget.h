#pragma once
// The render budget (docs/architecture.md, "Render budget"): limits that keep one
// render's cost proportional to what its plan allows, checked between layout and paint
// (and, for the html engine, before Qt's rich-text layout), so an over-budget render is
// refused with code `render_budget_exceeded` (HTTP 422) instead of exhausting memory.

#include "server/common/expected.h"
#include "server/render/document/template.h"
#include "server/render/error.h"
#include "server/render/layout/layout.h"
#include "server/render/style/computed_style.h"

#include <QHash>
#include <QImage>
#include <QSize>
#include <QString>

#include <optional>

namespace imprint::render {

/// Cost limits of one render.
struct RenderBudget {
    /// Blurred shadow layers (box-shadow and text-shadow entries, each drawn on its own
    /// layer and, in the SVG engine, embedded as its own image).
    int maxEffectLayers = 2000;
    /// Total area of those layers in px: `blurredAreaPerCanvas` × the image area plus
    /// `blurredAreaBase`, so small images still allow a few generous shadows.
    double blurredAreaPerCanvas = 4.0;
    qint64 blurredAreaBase = 4'000'000;
    /// Effect layers (filter, clip-path, mask-image, mix-blend-mode, backdrop-filter) open
    /// at once: each holds an offscreen image until its subtree is painted.
    int maxEffectNesting = 16;
    /// Nested <table>s in html engine input (Qt's rich-text layout is exponential in it).
    int maxHtmlTableNesting = 10;
    /// Offscreen layers open at once: opacity groups (opacity < 1 around children) and
    /// effect layers. Each holds an image and a painter until its subtree is painted.
    int maxLayerNesting = 32;
    /// Bytes of the offscreen layers open at once (ARGB32, each layer's device rect as
    /// the raster player sizes it): `layerBytesPerCanvas` × the image's bytes plus
    /// `layerBytesBase`. 8 canvases is twice what effect layers alone may reach
    /// (blurredAreaPerCanvas), so the bound bites on opacity groups stacked over the whole
    /// image, not on designs that nest a few translucent cards.
    double layerBytesPerCanvas = 8.0;
    qint64 layerBytesBase = 64LL * 1024 * 1024;
    /// Bytes of the images one render decodes (img sources once per URL, background
    /// images once per box that paints them): `imageBytesPerCanvas` × the image's bytes
    /// plus `imageBytesBase`. The base holds one image at the decoder's own limit (8192 ×
    /// 4096 px, 128 MiB), so any single image that decodes at all still fits.
    double imageBytesPerCanvas = 4.0;
    qint64 imageBytesBase = 128LL * 1024 * 1024;
};

/// How the painter of a render composites opacity groups, which decides which of them
/// take an offscreen layer.
enum class GroupLayers : quint8 {
    /// Every opacity group around children is a layer: the raster player on an image
    /// (takumi PNG, WebP, JPEG, AVIF).
    Always,
    /// Only groups inside an effect layer, or replayed onto an image for a backdrop or a
    /// blend mode: the SVG writer (satori) and QSvgGenerator (takumi SVG) draw the rest
    /// as `<g opacity>` or per-shape opacity.
    InRasterScopes,
};

/// Counts the shadow layers the painters will blur and the effect layers they will
/// composite (filters, clip paths, masks, blend modes, backdrops: one layer each, its area
/// counted once per blur it runs) for the laid-out tree `root` on a `canvas` px image
/// (layer rects as the painters size them, clipped to the canvas grown by the effect's
/// own extent), and how deep effect layers nest. Returns the error (field `effects`, code
/// `render_budget_exceeded`) when a limit of `budget` is exceeded, nullopt otherwise.
std::optional<RenderError> checkEffectBudget(const LayoutBox &root, QSize canvas, const RenderBudget &budget);

/// Counts the offscreen layers the painters will hold open at once for the laid-out tree
/// `root` on a `canvas` px image drawn at `scale` device px per px: opacity groups (as
/// `groups` says) and effect layers (filter, clipPath, maskImage, mixBlendMode), each
/// sized as the raster player sizes it (its ink bounds through the transforms above it,
/// cut to the enclosing layer or the canvas, 4 bytes a pixel). Returns the error (field
/// `opacity` when an opacity group is among the layers open at the worst point, else
/// `effects`; code `render_budget_exceeded`) when their bytes exceed
/// budget.layerBytesPerCanvas × the canvas's bytes + budget.layerBytesBase or they nest
/// deeper than budget.maxLayerNesting; nullopt otherwise.
std::optional<RenderError> checkLayerBudget(const LayoutBox &root, QSize canvas, qreal scale, GroupLayers groups,
                                            const RenderBudget &budget);

/// The most bytes of decoded images one render may hold for an image of `canvas` px at
/// `scale` device px per px: budget.imageBytesPerCanvas × its ARGB32 bytes +
/// budget.imageBytesBase.
qint64 imageByteLimit(QSize canvas, qreal scale, const RenderBudget &budget);

/// The decoded image bytes of one render, counted as images load, so a template that
/// names more image pixels than its canvas warrants is refused before they are all
/// decoded. Not thread-safe: one render, one thread.
class RenderImageBudget
{
public:
    /// `maxBytes`: imageByteLimit(); `canvas` and `scale` go into the error message.
    RenderImageBudget(qint64 maxBytes, QSize canvas, qreal scale);

    /// `loader`'s image for `url`, once per URL for this render (later calls share the
    /// pixels). Before `loader` runs, a data: URL's PNG/JPEG/GIF/WebP header gives the
    /// pixel size and an image that would exceed the limit is never decoded; anything
    /// else counts once decoded (one image at most over: the decoder bounds each). An
    /// image over the limit gives the reason, and refused() from then on; later loads are
    /// refused without decoding. An image the loader cannot make gives the loader's reason.
    common::Expected<QImage, QString> load(const QString &url, const ImageLoader &loader);

    /// Counts a background image `url` painted by one more box (the painter decodes it
    /// per box: it is not shared as img sources are) without keeping its pixels, sized
    /// from its header or, failing that, by `loader`. The reason when it does not fit
    /// (empty once an earlier image was refused); an image that does not decode counts
    /// nothing (paint drops it).
    common::Expected<common::Done, QString> addBackground(const QString &url, const ImageLoader &loader);

    /// The URL of the first image refused, empty while none was.
    const QString &refusedUrl() const { return m_refusedUrl; }
    /// The refusal as an error at template field `field` (code render_budget_exceeded).
    RenderError error(const QString &field) const;
    bool refused() const { return !m_refusedUrl.isEmpty(); }
    /// Bytes counted so far.
    qint64 usedBytes() const { return m_used; }

private:
    /// Counts `bytes` for `url` (`size` px); the refusal, also recorded, when over.
    common::Expected<common::Done, QString> add(const QString &url, QSize size, qint64 bytes);

    qint64 m_max;
    QSize m_canvas;
    qreal m_scale;
    qint64 m_used = 0;
    QHash<QString, QImage> m_loaded; // img sources of this render, by URL
    QHash<QString, QSize> m_backgroundSizes; // decoded sizes of background URLs seen
    QString m_refusedUrl;
    QString m_refusal; // the message of the refusal
};

/// After the tree of a render is built with `budget.load()` as its image loader: the
/// error for the img source it refused (field: that img's `src` in the template), else
/// counts the background and mask images of every element (decoded once per box that
/// paints one, sized from their headers, `loader` decoding those whose header tells no
/// size) and returns the error for the first that does not fit (field `backgroundImage`
/// or `maskImage`, the element's id in the message); nullopt when everything fits.
std::optional<RenderError> checkImageBudget(const Node &root, RenderImageBudget &budget, const ImageLoader &loader);

/// Checks html engine input before it reaches QTextDocument: at most `maxElements`
/// start tags, element nesting at most `maxDepth`, table nesting at most
/// budget.maxHtmlTableNesting. Error field `html`, code `render_budget_exceeded`.
std::optional<RenderError> checkHtmlBudget(const QString &html, int maxElements, int maxDepth,
                                           const RenderBudget &budget);

} // namespace imprint::render
