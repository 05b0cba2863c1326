#include "server/render/text/glyph_rendering.h"

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_DRIVER_H
#include FT_MODULE_H

// QtGui's FreeType library of the calling thread (qfontengine_ft.cpp, exported from
// libQt6Gui, declared in its private header qfontengine_ft_p.h); made on first use.
FT_Library qt_getFreetype();

namespace imprint::render {

void useChromiumGlyphMasks()
{
    // Asked each time, not remembered per thread: a library Qt makes again may reuse the
    // old one's address.
    const FT_Library library = qt_getFreetype();
    FT_Bool noStemDarkening = 0;
    if (!library || (FT_Property_Get(library, "cff", "no-stem-darkening", &noStemDarkening) == FT_Err_Ok && noStemDarkening))
        return;
    noStemDarkening = 1;
    FT_Property_Set(library, "cff", "no-stem-darkening", &noStemDarkening);
}

} // namespace imprint::render
