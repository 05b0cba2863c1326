#pragma once
// Templates (docs/templates.md): a JSON document with size, renderer, variables and either a
// React-element tree (`root`, the shape satori takes), HTML `markup` with inline styles,
// and optionally `html` for the html engine. This module parses them, resolves variable
// values and builds the styled document tree.

#include "server/common/expected.h"
#include "server/render/document/node.h"
#include "server/render/document/tailwind.h"
#include "server/render/engine.h"
#include "server/render/error.h"
#include "server/render/resources/image_decoder.h"
#include "server/render/style/computed_style.h"

#include <QHash>
#include <QJsonObject>
#include <QJsonValue>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace imprint::render {

/// A declared template variable. Values are always inserted as text, never as markup.
struct TemplateVariable {
    enum class Type : quint8 { Text, Color, Number, Image };
    QString name;
    Type type = Type::Text;
    QString defaultValue;
};

/// A parsed, validated template.
struct Template {
    QString name;
    /// Output size in px, rounded up from the template's; 0 when the template leaves it out
    /// (the image is then as big as the root's content, see render::layOut()).
    int width = 0, height = 0;
    QString rendererType = engineName(kDefaultEngine);
    QString emojiType = QStringLiteral("twemoji");
    /// The PNG compression tier renders of this template use unless a request names one:
    /// "fast", "default", "lossless" or "small" (docs/api.md, "PNG compression"); empty = default.
    QString compression;
    /// The three names above as parsed once by parseTemplate(): the engine the template
    /// names (nullopt when it names none), its emoji set and its PNG tier (nullopt: none).
    std::optional<Engine> engine;
    EmojiSet emojiSet = EmojiSet::Twemoji;
    std::optional<PngCompression> pngCompression;
    std::vector<TemplateVariable> variables;
    QJsonValue root; ///< React-element tree (object), or undefined when markup is used
    QString markup; ///< HTML with inline styles (parsed with gumbo), alternative to root
    QString html; ///< html-engine source, optional
    /// Author style sheets (CSS texts) matched against `className`/`class`, `id` and the
    /// tree (style/stylesheet.h; docs/templates.md "Stylesheets").
    QStringList stylesheets;
    /// The content language of the whole card (`"lang": "ja"`, a BCP 47 tag), as
    /// `<html lang>` gives it: the root's `lang` unless the root sets its own. Empty = none.
    QString lang;
    /// The `tailwind` theme extension the `tw` props of `root` use (parseTailwindConfig()).
    TailwindTheme tailwind;
    QJsonObject source; ///< the document as given (for storage/snapshots)
};

/// Limits that keep one request from exhausting the server (docs/architecture.md).
struct TemplateLimits {
    int maxDepth = 64;
    int maxNodes = 2000;
    int maxValueLength = 10000; ///< characters per variable value
    int maxStylesheets = 16; ///< entries of a template's `stylesheets`
    int maxStylesheetChars = 200000; ///< characters per style sheet
};

/// Parses a template document, or a bare React-element tree (`{"type":"div","props":{...}}`,
/// size from the root style's width/height). The error (field + message) when the
/// document is not a valid template.
common::Expected<Template, RenderError> parseTemplate(const QJsonObject &document, const TemplateLimits &limits = {});

/// The image's side `side` ("width" or "height") in whole px as parseTemplate() reads it
/// from a valid `document` (its member, else the root style's; a fractional or "1200px"
/// value rounded up); nullopt when the template is as big as its content on that side
/// or the value is not a size.
std::optional<int> templateImageSide(const QJsonObject &document, QLatin1StringView side);

/// True when `tag` is a well-formed language tag as a `lang` attribute takes it (BCP 47's
/// shape: 2–8 letters, then subtags of 1–8 letters or digits, separated by '-'; at most
/// 35 characters). The empty string is the "unknown" language and is accepted.
bool isLanguageTag(const QString &tag);

/// Resolves the value of every declared variable: its default, overridden by
/// `pageValues`, overridden by `tweaks` (each a JSON object name → string/number).
/// Errors (field `tweaks.NAME` or `variables.NAME`): unknown name, wrong type (colour that
/// does not parse, number that is not one), value longer than limits.maxValueLength.
common::Expected<QHash<QString, QString>, RenderError> resolveVariables(const Template &tmpl,
                                                                        const QJsonObject &pageValues,
                                                                        const QJsonObject &tweaks,
                                                                        const TemplateLimits &limits = {});

/// ImageLoader (resources/image_decoder.h) loads the images of `img` sources and url()s.

/// Builds the styled document tree of `tmpl` with `{{name}}` placeholders in text and
/// style values replaced by `values` (as text; placeholders naming no variable stay as
/// written, so a typo shows). Element ids count every rendered child, text runs included,
/// after React's flattening (arrays flattened, null/booleans dropped, adjacent strings
/// merged); `markup` is parsed with gumbo into the same tree first. Enforces limits (depth,
/// node count): the error when exceeded or when the tree is malformed.
/// Unsupported CSS and unloadable images are not errors: they go to `warnings`.
/// `viewport` is the image size in px that vw/vh/vmin/vmax resolve against (CSS Values 4
/// §6.1.2); a side of 0 (content-sized, or not known) leaves those units invalid.
common::Expected<std::unique_ptr<Node>, RenderError> buildDocument(const Template &tmpl,
                                                                   const QHash<QString, QString> &values,
                                                                   QStringList *warnings = nullptr,
                                                                   const ImageLoader &loader = {},
                                                                   const TemplateLimits &limits = {},
                                                                   QSizeF viewport = {});

/// `text` with every `{{name}}` naming a variable replaced by its value as written (no
/// escaping: the caller escapes for where it puts the text); other placeholders stay.
QString substituteVariables(const QString &text, const QHash<QString, QString> &values);

} // namespace imprint::render
