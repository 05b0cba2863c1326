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
};

/// Counts the shadow layers the painters will blur and the effect layers they will
/// composite (filters, clip paths, masks, blend modes, backdrops: one layer each, its area
/// counted once per blur it runs) for the laid-out tree `root` on a `canvas` px image
/// (layer rects as the painters size them, clipped to the canvas grown by the effect's
/// own extent), and how deep effect layers nest. Returns the error (field `effects`, code
/// `render_budget_exceeded`) when a limit of `budget` is exceeded, nullopt otherwise.
std::optional<RenderError> checkEffectBudget(const LayoutBox &root, QSize canvas, const RenderBudget &budget);

/// Checks html engine input before it reaches QTextDocument: at most `maxElements`
/// start tags, element nesting at most `maxDepth`, table nesting at most
/// budget.maxHtmlTableNesting. Error field `html`, code `render_budget_exceeded`.
std::optional<RenderError> checkHtmlBudget(const QString &html, int maxElements, int maxDepth,
                                           const RenderBudget &budget);

} // namespace imprint::render
