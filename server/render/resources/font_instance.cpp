#include "server/render/resources/font_instance.h"

#include "server/render/resources/font_file.h"

#include <QtEndian>

#include <hb-ot.h>
#include <hb-subset.h>
#include <hb.h>

#include <algorithm>
#include <cmath>
#include <memory>

namespace imprint::render {

namespace {

template<typename T, void (*Destroy)(T *)>
struct HbDeleter {
    void operator()(T *p) const { Destroy(p); }
};
using Blob = std::unique_ptr<hb_blob_t, HbDeleter<hb_blob_t, hb_blob_destroy>>;
using Face = std::unique_ptr<hb_face_t, HbDeleter<hb_face_t, hb_face_destroy>>;
using SubsetInput = std::unique_ptr<hb_subset_input_t, HbDeleter<hb_subset_input_t, hb_subset_input_destroy>>;

constexpr quint32 kWght = HB_TAG('w', 'g', 'h', 't');
constexpr quint32 kWdth = HB_TAG('w', 'd', 't', 'h');

/// A HarfBuzz face over `font`'s bytes; HarfBuzz does not copy them, so `font` must
/// outlive it.
Face faceOf(const QByteArray &font, unsigned faceIndex)
{
    const Blob blob(hb_blob_create(font.constData(), unsigned(font.size()), HB_MEMORY_MODE_READONLY, nullptr, nullptr));
    return Face(hb_face_create(blob.get(), faceIndex));
}

/// The English (else first) text of name `id` of `face`.
QString nameText(hb_face_t *face, hb_ot_name_id_t id)
{
    unsigned size = 0;
    const hb_language_t english = hb_language_from_string("en", -1);
    size = hb_ot_name_get_utf16(face, id, english, nullptr, nullptr);
    const hb_language_t language = size ? english : HB_LANGUAGE_INVALID;
    size = hb_ot_name_get_utf16(face, id, language, nullptr, nullptr);
    if (size == 0)
        return {};
    std::vector<uint16_t> text(size + 1);
    unsigned length = unsigned(text.size());
    hb_ot_name_get_utf16(face, id, language, &length, text.data());
    return QString::fromUtf16(reinterpret_cast<const char16_t *>(text.data()), length);
}

/// Writes the OS/2 usWeightClass and usWidthClass of `sfnt` in place (OpenType OS/2
/// table, offsets 4 and 6); the checksums are rebuilt by renameSfntFamily() afterwards.
void setWeightAndWidthClass(QByteArray &sfnt, std::optional<float> weight, std::optional<float> width)
{
    if (sfnt.size() < 12)
        return;
    const quint16 count = qFromBigEndian<quint16>(sfnt.constData() + 4);
    for (quint16 i = 0; i < count && 12 + qsizetype(i + 1) * 16 <= sfnt.size(); ++i) {
        const char *record = sfnt.constData() + 12 + i * 16;
        if (qFromBigEndian<quint32>(record) != HB_TAG('O', 'S', '/', '2'))
            continue;
        const quint32 offset = qFromBigEndian<quint32>(record + 8), length = qFromBigEndian<quint32>(record + 12);
        if (length < 8 || qint64(offset) + length > sfnt.size())
            return;
        if (weight)
            qToBigEndian(quint16(std::clamp(std::lround(*weight), 1L, 1000L)), sfnt.data() + offset + 4);
        if (width) {
            // OS/2 usWidthClass 1–9 stands for 50 %, 62.5 %, 75 %, 87.5 %, 100 %, 112.5 %,
            // 125 %, 150 %, 200 % (OpenType OS/2 §usWidthClass).
            static constexpr float kClasses[] = {50, 62.5f, 75, 87.5f, 100, 112.5f, 125, 150, 200};
            const auto nearest = std::min_element(std::begin(kClasses), std::end(kClasses), [&](float a, float b) {
                return std::abs(a - *width) < std::abs(b - *width);
            });
            qToBigEndian(quint16(1 + (nearest - std::begin(kClasses))), sfnt.data() + offset + 6);
        }
        return;
    }
}

} // namespace

QString axisTagName(quint32 tag)
{
    QString name;
    for (int shift = 24; shift >= 0; shift -= 8) {
        const char c = char((tag >> shift) & 0xff);
        name += (c >= 0x20 && c < 0x7f) ? QChar::fromLatin1(c) : QChar(u'?');
    }
    return name;
}

quint32 axisTagFromName(const QString &name)
{
    if (name.size() != 4)
        return 0;
    quint32 tag = 0;
    for (QChar c : name) {
        if (c.unicode() < 0x20 || c.unicode() >= 0x7f)
            return 0;
        tag = (tag << 8) | c.unicode();
    }
    return tag;
}

FontVariations fontVariations(const QByteArray &font, unsigned faceIndex)
{
    FontVariations out;
    if (font.isEmpty())
        return out;
    const Face face = faceOf(font, faceIndex);
    if (!hb_ot_var_has_data(face.get()))
        return out;
    const unsigned axisCount = hb_ot_var_get_axis_count(face.get());
    std::vector<hb_ot_var_axis_info_t> infos(axisCount);
    unsigned count = axisCount;
    hb_ot_var_get_axis_infos(face.get(), 0, &count, infos.data());
    for (unsigned i = 0; i < count; ++i)
        out.axes.push_back(FontAxis{infos[i].tag, infos[i].min_value, infos[i].default_value, infos[i].max_value});
    const unsigned instanceCount = hb_ot_var_get_named_instance_count(face.get());
    for (unsigned i = 0; i < instanceCount; ++i) {
        std::vector<float> coords(axisCount);
        unsigned n = axisCount;
        hb_ot_var_named_instance_get_design_coords(face.get(), i, &n, coords.data());
        FontNamedInstance instance;
        instance.name = nameText(face.get(), hb_ot_var_named_instance_get_subfamily_name_id(face.get(), i));
        for (unsigned a = 0; a < n && a < out.axes.size(); ++a)
            instance.coords.emplace_back(out.axes[a].tag, coords[a]);
        out.instances.push_back(std::move(instance));
    }
    return out;
}

std::vector<AxisValue> resolveAxisValues(const FontVariations &variations, const std::vector<AxisValue> &coords)
{
    std::vector<AxisValue> out;
    for (const FontAxis &axis : variations.axes) {
        float value = axis.defaultValue;
        for (const auto &[tag, v] : coords)
            if (tag == axis.tag && std::isfinite(v))
                value = v;
        out.emplace_back(axis.tag, std::clamp(value, axis.min, axis.max));
    }
    return out;
}

common::Expected<QByteArray, QString> instanceFont(const QByteArray &font, unsigned faceIndex,
                                                    const std::vector<AxisValue> &coords, const QString &family,
                                                    int weightClass)
{
    if (font.size() > kMaxInstancedFontBytes)
        return QStringLiteral("the font is larger than %1 MiB").arg(kMaxInstancedFontBytes >> 20);
    const Face face = faceOf(font, faceIndex);
    if (!hb_ot_var_has_data(face.get()))
        return QStringLiteral("the font has no variation axes");
    const SubsetInput input(hb_subset_input_create_or_fail());
    if (!input)
        return QStringLiteral("out of memory");
    // Keep everything an instance of the whole face has: every glyph (at its own id, so
    // the layout tables still apply), every character, layout feature, script, name and
    // name language. An empty set inverted is the set of everything.
    hb_set_add_range(hb_subset_input_set(input.get(), HB_SUBSET_SETS_GLYPH_INDEX), 0,
                     hb_face_get_glyph_count(face.get()) - 1);
    for (hb_subset_sets_t set : {HB_SUBSET_SETS_UNICODE, HB_SUBSET_SETS_LAYOUT_FEATURE_TAG,
                                 HB_SUBSET_SETS_LAYOUT_SCRIPT_TAG, HB_SUBSET_SETS_NAME_ID,
                                 HB_SUBSET_SETS_NAME_LANG_ID}) {
        hb_set_t *all = hb_subset_input_set(input.get(), set);
        hb_set_clear(all);
        hb_set_invert(all);
    }
    hb_set_clear(hb_subset_input_set(input.get(), HB_SUBSET_SETS_DROP_TABLE_TAG));
    for (hb_tag_t dropped : {HB_TAG('D', 'S', 'I', 'G'), HB_TAG('S', 'T', 'A', 'T')})
        hb_set_add(hb_subset_input_set(input.get(), HB_SUBSET_SETS_DROP_TABLE_TAG), dropped);
    hb_subset_input_set_flags(input.get(), HB_SUBSET_FLAGS_RETAIN_GIDS | HB_SUBSET_FLAGS_NO_HINTING
                                               | HB_SUBSET_FLAGS_NAME_LEGACY | HB_SUBSET_FLAGS_NOTDEF_OUTLINE
                                               | HB_SUBSET_FLAGS_GLYPH_NAMES | HB_SUBSET_FLAGS_NO_PRUNE_UNICODE_RANGES
                                               | HB_SUBSET_FLAGS_PASSTHROUGH_UNRECOGNIZED);
    const FontVariations variations = fontVariations(font, faceIndex);
    std::optional<float> weight, width;
    for (const auto &[tag, value] : resolveAxisValues(variations, coords)) {
        if (!hb_subset_input_pin_axis_location(input.get(), face.get(), tag, value))
            return QStringLiteral("HarfBuzz cannot pin axis \"%1\"").arg(axisTagName(tag));
        if (tag == kWght)
            weight = value;
        else if (tag == kWdth)
            width = value;
    }
    const Face instance(hb_subset_or_fail(face.get(), input.get()));
    if (!instance)
        return QStringLiteral("HarfBuzz cannot make an instance of the font");
    const Blob blob(hb_face_reference_blob(instance.get()));
    unsigned length = 0;
    const char *data = hb_blob_get_data(blob.get(), &length);
    if (!data || length == 0)
        return QStringLiteral("HarfBuzz made an empty instance of the font");
    QByteArray sfnt(data, qsizetype(length));
    setWeightAndWidthClass(sfnt, weightClass > 0 ? std::optional<float>(float(weightClass)) : weight, width);
    return renameSfntFamily(sfnt, family);
}

} // namespace imprint::render
