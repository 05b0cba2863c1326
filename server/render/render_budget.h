#pragma once
// The render budget (docs/architecture.md, "Render budget"): limits that keep one
// render's cost proportional to what its plan allows, checked between layout and paint
// (and, for the html engine, before Qt's rich-text layout), so an over-budget render is
// refused with code `render_budget_exceeded` (HTTP 422) instead of exhausting memory.

#include "server/render/error.h"
#include "server/render/layout/layout.h"
#include "server/render/style/computed_style.h"

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

/// Checks html engine input before it reaches QTextDocument: at most `maxElements`
/// start tags, element nesting at most `maxDepth`, table nesting at most
/// budget.maxHtmlTableNesting. Error field `html`, code `render_budget_exceeded`.
std::optional<RenderError> checkHtmlBudget(const QString &html, int maxElements, int maxDepth,
                                           const RenderBudget &budget);

} // namespace imprint::render
