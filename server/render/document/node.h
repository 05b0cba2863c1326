#pragma once
// The document tree a render works on: elements with computed styles and text runs,
// built from a template by buildDocument() (template.h), laid out by layout.h, painted
// by the engines. Owned top-down through unique_ptr; immutable once built, so several
// threads may read one tree.

#include "server/render/style/computed_style.h"

#include <QImage>
#include <QString>

#include <memory>
#include <vector>

namespace imprint::render {

/// One node of the document tree: an element (`div`, `img`, `span`, `p`, ...) or a
/// text run (the characters of a string child, style inherited from its element).
struct Node {
    enum class Kind : quint8 { Element, Text };
    Kind kind = Kind::Element;
    QString tag; ///< element name, lower case; empty for text runs
    QString id; ///< element's child-index path ("0", "0.2.1"), as in the fixtures'
        ///< layout.json; text runs carry their parent's id
    ComputedStyle style;
    QString text; ///< text run: the characters as written (after variable substitution);
        ///< white-space processing and text-transform are the text module's job
    QString src; ///< img: the source URL as written
    QString srcField; ///< img: where `src` is in the template (`root.props.children[0].props.src`)
    QImage image; ///< img: the decoded image (null when it could not be loaded); svg: its
        ///< subtree drawn as an SVG image (decodeInlineSvg(), inline_svg.h)
    /// A replaced element with a natural aspect ratio but neither a natural width nor a
    /// natural height (CSS Images 3 §4.1; an inline svg with a viewBox alone): it fills
    /// its container's width (`width: stretch`, set where the node is built) and, being
    /// compressible, keeps no content-based minimum size (CSS Sizing 3 §5.2.2).
    bool ratioOnly = false;
    std::vector<std::unique_ptr<Node>> children;

    bool isText() const { return kind == Kind::Text; }
    /// A replaced element drawn from `image`: an img, or an inline svg (whose subtree is
    /// its image, not child nodes).
    bool isImage() const { return tag == QLatin1String("img") || tag == QLatin1String("svg"); }
};

} // namespace imprint::render
