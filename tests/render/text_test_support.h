#pragma once
// Helpers shared by the text suites (tst_text, tst_text_breaks): styles of one family.

#include "server/render/style/computed_style.h"

#include <QString>

namespace imprint::render::test {

/// A style of the font family `family` at `size` px.
inline ComputedStyle familyStyle(const QString &family, float size)
{
    ComputedStyle s;
    s.fontFamily = {family};
    s.fontSize = size;
    return s;
}

/// DejaVu Sans at `size` px, the suites' default text.
inline ComputedStyle dejaVu(float size = 20)
{
    return familyStyle(QStringLiteral("DejaVu Sans"), size);
}

} // namespace imprint::render::test
