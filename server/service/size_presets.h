#pragma once
// Size presets (docs/templates.md, "Sizes"): the seven built-in named sizes of the social
// networks, a template's own `sizes`, and the one resolution of a render's `size=NAME`
// that every transport and the render jobs share: resolveSize().

#include "server/store/errors.h"

#include <QJsonObject>
#include <QList>
#include <QSize>
#include <QString>

#include <optional>

namespace imprint::service {

/// One named output size, px.
struct NamedSize {
    QString name;
    QSize size;
};

/// The built-in presets, in this order: og 1200×630, twitter 1200×675, linkedin
/// 1200×627, square 1080×1080, portrait 1080×1350, story 1080×1920, pinterest 1000×1500.
const QList<NamedSize> &builtinSizes();

/// Checks a template document's `sizes` when it is saved: absent, a list of built-in
/// names, or an object of own names (1–40 of [a-z0-9_-], up to 32 entries) to
/// {"width": W, "height": H} (whole px, 1–16384). Invalid "invalid_template" naming
/// "document.sizes", "document.sizes.N" (a list entry) or "document.sizes.NAME.width"
/// (".height"); std::nullopt when valid.
std::optional<store::ServiceError> checkTemplateSizes(const QJsonObject &document);

/// The sizes a template declares it is designed for (its `sizes`, in order: a list's
/// order, an object's by name), empty when it declares none. What "every size of a page"
/// means (render jobs, the console's preview, the meta route's default stays `og`).
QList<NamedSize> declaredSizes(const QJsonObject &document);

/// Every name a render of this template may ask for: the built-ins, then the template's
/// own names (an own entry named like a built-in replaces it for this template).
QList<NamedSize> availableSizes(const QJsonObject &document);

/// The pixel size of preset `name` for the template `document` (a stored template's, a
/// version's or an inline one's; checkTemplateSizes() already passed). Names compare
/// case-insensitively. Unknown: ServiceError UnknownSize (422), field "size", naming
/// every allowed name. Render jobs call this to resolve an item's `size`.
store::Result<QSize> resolveSize(const QJsonObject &document, const QString &name);

/// The precedence rule of one render: `size` (may be empty) together with an explicit
/// `width` or `height` (> 0) is SizeConflict (422, field "size"); else resolveSize(), or
/// QSize(width, height) unchanged (0 = the template's) when no size is named.
store::Result<QSize> resolveRenderSize(const QJsonObject &document, const QString &size, int width, int height);

} // namespace imprint::service
