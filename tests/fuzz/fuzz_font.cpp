// libFuzzer harness: font tables as an upload brings them. The bytes are decoded as a font
// file (WOFF, WOFF2 or sfnt), read as a GSUB/GPOS table whose feature records get renamed
// (resources/font_file.h renameLayoutFeatures()), and given to deriveFeatureFace() with
// features to shape, freeze and turn off: a malformed table must be rejected, never read
// out of bounds.
#include "server/render/resources/font_file.h"
#include "tests/fuzz/fuzz_harness.h"

void imprint::fuzz::fuzzOne(QByteArrayView input)
{
    using namespace imprint::render;
    const QByteArray bytes = input.toByteArray();
    if (const auto renamed = renameLayoutFeatures(bytes, {{0x6C696761 /*liga*/, kDisabledFeatureTag}}))
        Q_ASSERT(renamed->size() == bytes.size());
    const auto sfnt = decodeFontToSfnt(bytes);
    if (!sfnt)
        return;
    const std::vector<std::pair<quint32, quint32>> features{
        {0x646C6967 /*dlig*/, 1}, {0x6C696761 /*liga*/, 0}, {0x746E756D /*tnum*/, 1}, {0x66726163 /*frac*/, 1}};
    (void)deriveFeatureFace(*sfnt, 0, features, QStringLiteral("imprint-f-fuzz"));
}
