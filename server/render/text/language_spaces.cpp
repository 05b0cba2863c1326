#include "server/render/text/language_spaces.h"

#include <QHash>

#include <hb-ot.h>
#include <hb.h>

#include <array>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>

namespace imprint::render {

namespace {

/// A table of `face` for HarfBuzz (hb_face_create_for_tables()), copied out of Qt.
hb_blob_t *faceTable(hb_face_t *, hb_tag_t tag, void *userData)
{
    const auto *face = static_cast<const QRawFont *>(userData);
    char name[5] = {char(tag >> 24), char(tag >> 16), char(tag >> 8), char(tag), 0};
    const QByteArray table = face->fontTable(name);
    if (table.isEmpty())
        return nullptr;
    return hb_blob_create(table.constData(), unsigned(table.size()), HB_MEMORY_MODE_DUPLICATE, nullptr, nullptr);
}

/// The characters whose language forms are looked at: the space, then the digits.
constexpr char kCharacters[] = " 0123456789";
constexpr int kCount = sizeof kCharacters - 1;
using Deltas = std::array<float, kCount>; // em, indexed like kCharacters

/// The advance of `c` in `font` shaped for `language` (an empty one: none), in font units.
std::optional<int> shapedAdvance(hb_font_t *font, char c, const QByteArray &language)
{
    const std::unique_ptr<hb_buffer_t, decltype(&hb_buffer_destroy)> buffer(hb_buffer_create(), &hb_buffer_destroy);
    hb_buffer_add_utf8(buffer.get(), &c, 1, 0, 1);
    hb_buffer_set_direction(buffer.get(), HB_DIRECTION_LTR);
    hb_buffer_set_script(buffer.get(), HB_SCRIPT_LATIN);
    if (!language.isEmpty())
        hb_buffer_set_language(buffer.get(), hb_language_from_string(language.constData(), int(language.size())));
    hb_shape(font, buffer.get(), nullptr, 0);
    unsigned count = 0;
    const hb_glyph_position_t *positions = hb_buffer_get_glyph_positions(buffer.get(), &count);
    if (count != 1)
        return std::nullopt;
    return positions[0].x_advance;
}

/// The deltas of `face` in `language`, or nullopt when the language changes none.
std::optional<Deltas> languageDeltas(const QRawFont &face, const QByteArray &language)
{
    const std::unique_ptr<hb_face_t, decltype(&hb_face_destroy)> hbFace(
        hb_face_create_for_tables(&faceTable, const_cast<QRawFont *>(&face), nullptr), &hb_face_destroy);
    // Only a face with a GSUB has language forms (and reading one is cheap).
    if (!hb_ot_layout_has_substitution(hbFace.get()))
        return std::nullopt;
    const unsigned upem = hb_face_get_upem(hbFace.get());
    const std::unique_ptr<hb_font_t, decltype(&hb_font_destroy)> font(hb_font_create(hbFace.get()), &hb_font_destroy);
    Deltas deltas{};
    bool any = false;
    for (int k = 0; k < kCount && upem > 0; ++k) {
        const std::optional<int> own = shapedAdvance(font.get(), kCharacters[k], QByteArray());
        const std::optional<int> localized = shapedAdvance(font.get(), kCharacters[k], language);
        if (own && localized && *own != *localized) {
            deltas[size_t(k)] = float(*localized - *own) / float(upem);
            any = true;
        }
    }
    return any ? std::optional<Deltas>(deltas) : std::nullopt;
}

} // namespace

qreal languageAdvanceDelta(const QRawFont &face, const QString &lang, char32_t c, qreal pixelSize)
{
    const char *at = c < 0x80 && c != 0 ? std::strchr(kCharacters, int(c)) : nullptr;
    const QByteArray tag = lang.trimmed().toLatin1();
    if (!at || tag.isEmpty() || !face.isValid())
        return 0;
    // The OpenType language system the language selects: only those a face may have
    // (a few hundred) are worth reading its tables for, however many tags templates use.
    hb_tag_t system = HB_TAG_NONE;
    unsigned scripts = 0, systems = 1;
    hb_ot_tags_from_script_and_language(HB_SCRIPT_LATIN, hb_language_from_string(tag.constData(), int(tag.size())),
                                        &scripts, nullptr, &systems, &system);
    if (systems == 0 || system == HB_TAG_NONE)
        return 0;
    static std::mutex mutex;
    // "family|style|weight|system"; at most 1024 entries.
    static QHash<QString, std::optional<Deltas>> cache;
    const QString key = face.familyName() + u'|' + face.styleName() + u'|' + QString::number(face.weight()) + u'|'
                        + QString::number(system);
    const std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.constFind(key);
    if (it == cache.constEnd()) {
        if (cache.size() >= 1024)
            cache.clear();
        it = cache.insert(key, languageDeltas(face, tag));
    }
    return *it ? qreal((**it)[size_t(at - kCharacters)]) * pixelSize : 0;
}

} // namespace imprint::render
