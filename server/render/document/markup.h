#pragma once
// Internal to the template module: HTML `markup` (inline `style` attributes) → the same
// React-element-shaped JSON tree a template's `root` holds, parsed with libgumbo
// (an HTML5-conformant parser, https://html.spec.whatwg.org/#parsing).

#include "server/render/document/template.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace imprint::render {

/// Parses `markup` and returns the element tree: each element becomes
/// `{"type": tag, "props": {"style": {camelCase: "value"}, "children": [...]}}` (img also
/// `src`, `width`, `height`), text nodes become strings, `<br>` a U+2028 LINE SEPARATOR
/// (a forced line break whatever the white-space mode);
/// script/style/head/template content and comments are dropped, whitespace-only text
/// between elements too (a flex container ignores it). The body's single element is the
/// root; several top-level nodes are wrapped in a `div`. Placeholders are left as written
/// (substitution happens on this tree, never on the markup string). Errors (field
/// `markup`): deeper than limits.maxDepth (`too_deep`), more than limits.maxNodes nodes
/// (`too_many_nodes`), no content (`invalid_template`).
common::Expected<QJsonObject, RenderError> markupToTree(const QString &markup, const TemplateLimits &limits,
                                                        QStringList *warnings);

/// Number of start tags in `html` (a `<` followed by an ASCII letter): an upper bound of
/// the elements an HTML parser will create from it, counted in one pass without parsing,
/// so that input over the node limit is refused before the parser's memory and time grow
/// with it (libgumbo's are quadratic in nesting depth).
qsizetype countStartTags(QStringView html);

/// How deep an HTML document nests as an HTML5 parser builds it.
struct HtmlNesting {
    int depth = 0; ///< deepest element (body's children at 1)
    int tables = 0; ///< most <table> elements on one path from body
};

/// The nesting of `html`, or nullopt when it has more than `maxElements` start tags
/// (then it is not parsed at all).
std::optional<HtmlNesting> htmlNesting(const QString &html, int maxElements);

/// Parses the declarations of an inline `style` attribute (`color: red; font-size: 12px`,
/// CSS Syntax 3 §5.3.8 "parse a list of declarations") into camelCase properties with
/// string values, as React's style prop spells them (`-webkit-line-clamp` →
/// `WebkitLineClamp`, css::parseDeclarationList()); `!important` is dropped, custom
/// properties keep their name as written.
QJsonObject parseStyleAttribute(const QString &style);

} // namespace imprint::render
