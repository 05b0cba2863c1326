#include "server/render/backends/svg_glyph_shapes.h"

#include "server/render/backends/svg_syntax.h"
#include "server/render/text/font_fallback.h"

#include <QCache>

#include <memory>

namespace imprint::render::svg_glyphs {

GlyphShape &cachedGlyphShape(const QRawFont &font, quint32 glyph, const QString &key)
{
    thread_local QCache<QString, GlyphShape> cache(2 << 20);
    thread_local GlyphShape uncached; // a glyph whose outline alone is over the budget
    if (GlyphShape *shape = cache.object(key))
        return *shape;
    auto shape = std::make_unique<GlyphShape>(GlyphShape{svg_syntax::pathData(glyphOutline(font, glyph)), std::nullopt});
    shape->pathData.squeeze(); // pathData() reserves a guess
    const qsizetype cost = (shape->pathData.size() + key.size()) * qsizetype(sizeof(QChar)) + 64;
    if (cost > cache.maxCost())
        return uncached = std::move(*shape);
    GlyphShape *kept = shape.get();
    cache.insert(key, shape.release(), cost); // QCache owns it from here
    return *kept;
}

QRectF glyphBox(const QRawFont &font, quint32 glyph, GlyphShape &shape)
{
    if (!shape.box)
        shape.box = font.boundingRect(glyph);
    return *shape.box;
}

} // namespace imprint::render::svg_glyphs
