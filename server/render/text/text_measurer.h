#pragma once
// The text module's contract with layout: layout asks how large a text run is at a given
// width and never sees fonts or glyphs (the "measure callback" of Yoga and Taffy). The
// TextEngine (text_engine.h) implements it; tests use fixed-advance fakes.

#include "server/render/document/node.h"

#include <QSizeF>

#include <limits>

namespace imprint::render {

/// Size of a text run laid out within a width (CSS Text 3 line breaking).
struct TextMetrics {
    QSizeF size; ///< px: width of the widest line, height of all lines
    qreal firstBaseline = 0; ///< px from the top of the first line box to its baseline
};

/// The layout engine's view of the text module (the "measure callback").
class TextMeasurer
{
public:
    virtual ~TextMeasurer() = default;
    /// Lays `textRun` (a Node of Kind::Text, with its inherited style) out in lines no
    /// wider than `maxWidth` px. maxWidth = infinity gives the max-content size, 0 the
    /// min-content size (widest unbreakable piece). Must be thread-safe and give the same
    /// lines the painter will draw for the same width.
    virtual TextMetrics measure(const Node &textRun, qreal maxWidth) = 0;
};

inline constexpr qreal kMaxContent = std::numeric_limits<qreal>::infinity();

} // namespace imprint::render
