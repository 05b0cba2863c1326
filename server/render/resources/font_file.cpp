#include "server/render/resources/font_file.h"

#include <QRawFont>
#include <QtEndian>

#include <hb-ot.h>
#include <hb.h>
#include <woff2/decode.h>
#include <woff2/output.h>

#include <algorithm>
#include <map>
#include <memory>
#include <vector>

namespace imprint::render {

namespace {

quint16 be16(const QByteArray &b, qsizetype at)
{
    return qFromBigEndian<quint16>(b.constData() + at);
}
quint32 be32(const QByteArray &b, qsizetype at)
{
    return qFromBigEndian<quint32>(b.constData() + at);
}
void put16(QByteArray &b, quint16 v)
{
    char raw[2];
    qToBigEndian(v, raw);
    b.append(raw, 2);
}
void put32(QByteArray &b, quint32 v)
{
    char raw[4];
    qToBigEndian(v, raw);
    b.append(raw, 4);
}

bool fail(QString *why, const QString &message)
{
    if (why)
        *why = message;
    return false;
}

/// OpenType table checksum: the sum of the table's big-endian uint32s, zero-padded.
quint32 tableChecksum(const QByteArray &data)
{
    quint32 sum = 0;
    QByteArray padded = data;
    padded.append(QByteArray((4 - padded.size() % 4) % 4, '\0'));
    for (qsizetype i = 0; i < padded.size(); i += 4)
        sum += be32(padded, i);
    return sum;
}

/// An sfnt of `tables` (tag → bytes) with `flavor` (0x00010000 or 'OTTO'): the offset
/// table, sorted table records and 4-byte aligned tables (OpenType "Table Directory").
QByteArray buildSfnt(quint32 flavor, const std::map<quint32, QByteArray> &tables)
{
    const quint16 numTables = quint16(tables.size());
    quint16 entrySelector = 0;
    while ((2u << entrySelector) <= numTables)
        ++entrySelector;
    const quint16 searchRange = quint16((1u << entrySelector) * 16);
    QByteArray out;
    put32(out, flavor);
    put16(out, numTables);
    put16(out, searchRange);
    put16(out, entrySelector);
    put16(out, quint16(numTables * 16 - searchRange));
    quint32 offset = 12 + 16 * numTables;
    QByteArray body;
    for (const auto &[tag, data] : tables) {
        put32(out, tag);
        put32(out, tableChecksum(data));
        put32(out, offset + quint32(body.size()));
        put32(out, quint32(data.size()));
        body.append(data);
        body.append(QByteArray((4 - data.size() % 4) % 4, '\0'));
    }
    return out + body;
}

/// The tables of an sfnt, tag → bytes; false when the directory points outside the file.
bool readSfntTables(const QByteArray &sfnt, quint32 *flavor, std::map<quint32, QByteArray> *tables, QString *why)
{
    if (sfnt.size() < 12)
        return fail(why, QStringLiteral("the font file is truncated"));
    *flavor = be32(sfnt, 0);
    const quint16 count = be16(sfnt, 4);
    if (12 + qsizetype(count) * 16 > sfnt.size())
        return fail(why, QStringLiteral("the font's table directory is truncated"));
    for (quint16 i = 0; i < count; ++i) {
        const qsizetype rec = 12 + qsizetype(i) * 16;
        const quint32 offset = be32(sfnt, rec + 8), length = be32(sfnt, rec + 12);
        if (qint64(offset) + length > sfnt.size())
            return fail(why, QStringLiteral("a table of the font lies outside the file"));
        (*tables)[be32(sfnt, rec)] = sfnt.mid(offset, length);
    }
    return true;
}

/// WOFF 1.0 (W3C WOFF File Format 1.0 §3–§5): header, table directory, zlib streams.
std::optional<QByteArray> decodeWoff1(const QByteArray &woff, QString *why)
{
    if (woff.size() < 44)
        return fail(why, QStringLiteral("the WOFF header is truncated")), std::nullopt;
    const quint32 flavor = be32(woff, 4);
    const quint16 count = be16(woff, 12);
    if (be32(woff, 16) > kMaxDecodedFontBytes)
        return fail(why, QStringLiteral("the WOFF font expands past %1 MiB").arg(kMaxDecodedFontBytes >> 20)),
               std::nullopt;
    if (44 + qsizetype(count) * 20 > woff.size())
        return fail(why, QStringLiteral("the WOFF table directory is truncated")), std::nullopt;
    std::map<quint32, QByteArray> tables;
    qint64 total = 0;
    for (quint16 i = 0; i < count; ++i) {
        const qsizetype rec = 44 + qsizetype(i) * 20;
        const quint32 tag = be32(woff, rec), offset = be32(woff, rec + 4);
        const quint32 compLength = be32(woff, rec + 8), origLength = be32(woff, rec + 12);
        total += origLength;
        if (qint64(offset) + compLength > woff.size() || compLength > origLength || total > kMaxDecodedFontBytes)
            return fail(why, QStringLiteral("a WOFF table is truncated or too large")), std::nullopt;
        QByteArray data = woff.mid(offset, compLength);
        if (compLength < origLength) {
            // qUncompress takes zlib data behind its expected size as a big-endian uint32.
            QByteArray framed;
            put32(framed, origLength);
            data = qUncompress(framed + data);
            if (data.size() != qsizetype(origLength))
                return fail(why, QStringLiteral("a WOFF table does not inflate to its stated length")), std::nullopt;
        }
        tables[tag] = data;
    }
    return buildSfnt(flavor, tables);
}

std::optional<QByteArray> decodeWoff2(const QByteArray &woff2, QString *why)
{
    const auto *data = reinterpret_cast<const uint8_t *>(woff2.constData());
    const size_t size = woff2::ComputeWOFF2FinalSize(data, size_t(woff2.size()));
    if (size == 0 || size > size_t(kMaxDecodedFontBytes))
        return fail(why, QStringLiteral("the WOFF2 header is malformed or the font expands past %1 MiB")
                             .arg(kMaxDecodedFontBytes >> 20)),
               std::nullopt;
    std::string out;
    woff2::WOFF2StringOut sink(&out);
    sink.SetMaxSize(size_t(kMaxDecodedFontBytes));
    if (!woff2::ConvertWOFF2ToTTF(data, size_t(woff2.size()), &sink))
        return fail(why, QStringLiteral("the WOFF2 data does not decode")), std::nullopt;
    return QByteArray(out.data(), qsizetype(sink.Size()));
}

/// A UTF-16BE name record string (platform 3, encoding 1).
QByteArray utf16be(const QString &s)
{
    QByteArray out;
    for (QChar c : s)
        put16(out, c.unicode());
    return out;
}

/// A cmap format 12 subtable (OpenType cmap §"Format 12: Segmented coverage"): one group
/// per run of consecutive characters mapped to consecutive glyphs.
QByteArray cmapFormat12(const std::map<quint32, quint32> &map)
{
    QByteArray groups;
    quint32 count = 0, start = 0, end = 0, startGlyph = 0;
    bool open = false;
    for (const auto &[cp, glyph] : map) {
        if (open && cp == end + 1 && glyph == startGlyph + (cp - start)) {
            end = cp;
            continue;
        }
        if (open) {
            put32(groups, start);
            put32(groups, end);
            put32(groups, startGlyph);
            ++count;
        }
        start = end = cp;
        startGlyph = glyph;
        open = true;
    }
    if (open) {
        put32(groups, start);
        put32(groups, end);
        put32(groups, startGlyph);
        ++count;
    }
    QByteArray out;
    put16(out, 12);
    put16(out, 0);
    put32(out, quint32(16 + groups.size()));
    put32(out, 0);
    put32(out, count);
    return out + groups;
}

/// A cmap format 4 subtable (OpenType cmap §"Format 4: Segment mapping to delta values")
/// of the BMP characters of `map`: a segment per run of consecutive characters, with
/// idDelta when its glyphs are consecutive too, else through glyphIdArray. Empty when it
/// would pass the format's 64 KiB.
QByteArray cmapFormat4(const std::map<quint32, quint32> &map)
{
    struct Segment {
        quint16 start, end;
        std::vector<quint16> glyphs;
    };
    std::vector<Segment> segments;
    for (const auto &[cp, glyph] : map) {
        if (cp >= 0xFFFF)
            break;
        if (segments.empty() || cp != quint32(segments.back().end) + 1)
            segments.push_back({quint16(cp), quint16(cp), {}});
        segments.back().end = quint16(cp);
        segments.back().glyphs.push_back(quint16(glyph));
    }
    segments.push_back({0xFFFF, 0xFFFF, {0}}); // the required last segment
    const qsizetype segCount = qsizetype(segments.size());
    std::vector<bool> delta(segments.size());
    qsizetype arrayWords = 0;
    for (size_t i = 0; i < segments.size(); ++i) {
        const Segment &s = segments[i];
        bool consecutive = true;
        for (size_t k = 1; k < s.glyphs.size() && consecutive; ++k)
            consecutive = s.glyphs[k] == quint16(s.glyphs[0] + k);
        delta[i] = consecutive || i + 1 == segments.size();
        if (!delta[i])
            arrayWords += qsizetype(s.glyphs.size());
    }
    const qsizetype length = 16 + segCount * 8 + arrayWords * 2;
    if (length > 0xFFFF)
        return {};
    quint16 entrySelector = 0;
    while ((2 << entrySelector) <= segCount)
        ++entrySelector;
    const quint16 searchRange = quint16(2 * (1 << entrySelector));
    QByteArray out, ends, starts, deltas, offsets, array;
    put16(out, 4);
    put16(out, quint16(length));
    put16(out, 0);
    put16(out, quint16(segCount * 2));
    put16(out, searchRange);
    put16(out, entrySelector);
    put16(out, quint16(segCount * 2 - searchRange));
    qsizetype arrayAt = 0; // words into glyphIdArray
    for (qsizetype i = 0; i < segCount; ++i) {
        const Segment &s = segments[size_t(i)];
        put16(ends, s.end);
        put16(starts, s.start);
        if (delta[size_t(i)]) {
            put16(deltas, i + 1 == segCount ? 1 : quint16(s.glyphs[0] - s.start));
            put16(offsets, 0);
        } else {
            put16(deltas, 0);
            // idRangeOffset: bytes from this idRangeOffset word to the segment's first entry.
            put16(offsets, quint16((segCount - i + arrayAt) * 2));
            for (quint16 g : s.glyphs)
                put16(array, g);
            arrayAt += qsizetype(s.glyphs.size());
        }
    }
    out += ends;
    put16(out, 0); // reservedPad
    return out + starts + deltas + offsets + array;
}

/// The (0,5) format 14 subtable of a cmap table, empty when it has none.
QByteArray variationSequences(const QByteArray &cmap)
{
    if (cmap.size() < 4)
        return {};
    const quint16 count = be16(cmap, 2);
    for (quint16 i = 0; i < count && 4 + qsizetype(i) * 8 + 8 <= cmap.size(); ++i) {
        const qsizetype rec = 4 + qsizetype(i) * 8;
        const quint32 offset = be32(cmap, rec + 4);
        if (be16(cmap, rec) != 0 || be16(cmap, rec + 2) != 5 || qint64(offset) + 6 > cmap.size())
            continue;
        if (be16(cmap, offset) != 14)
            continue;
        const quint32 length = be32(cmap, offset + 2);
        if (qint64(offset) + length > cmap.size())
            return {};
        return cmap.mid(offset, length);
    }
    return {};
}

/// The type of GSUB lookup `index` (OpenType GSUB §"Lookup type"), an extension
/// lookup (type 7) resolved to the type it wraps; 0 when the table does not say.
quint16 gsubLookupType(const QByteArray &gsub, unsigned index)
{
    const auto in = [&](qint64 at, qint64 size) { return at >= 0 && at + size <= gsub.size(); };
    if (!in(0, 10))
        return 0;
    const qint64 lookupList = be16(gsub, 8);
    if (!in(lookupList, 2) || index >= be16(gsub, lookupList) || !in(lookupList + 2 + 2 * qint64(index), 2))
        return 0;
    const qint64 lookup = lookupList + be16(gsub, lookupList + 2 + 2 * qint64(index));
    if (!in(lookup, 6))
        return 0;
    const quint16 type = be16(gsub, lookup);
    if (type != 7)
        return type;
    if (be16(gsub, lookup + 4) == 0 || !in(lookup + 6, 2))
        return 0;
    const qint64 extension = lookup + be16(gsub, lookup + 6);
    return in(extension, 4) ? be16(gsub, extension + 2) : 0;
}

QByteArray tableBytes(hb_face_t *face, hb_tag_t tag)
{
    hb_blob_t *blob = hb_face_reference_table(face, tag);
    unsigned length = 0;
    const char *data = hb_blob_get_data(blob, &length);
    QByteArray out(data, qsizetype(length));
    hb_blob_destroy(blob);
    return out;
}

} // namespace

FontFormat sniffFontFormat(const QByteArray &bytes)
{
    if (bytes.size() < 4)
        return FontFormat::Unknown;
    const QByteArray magic = bytes.left(4);
    if (magic == QByteArrayLiteral("\x00\x01\x00\x00") || magic == "true")
        return FontFormat::Ttf;
    if (magic == "OTTO")
        return FontFormat::Otf;
    if (magic == "wOFF")
        return FontFormat::Woff;
    if (magic == "wOF2")
        return FontFormat::Woff2;
    if (magic == "ttcf")
        return FontFormat::Collection;
    return FontFormat::Unknown;
}

QString fontFormatName(FontFormat format)
{
    switch (format) {
    case FontFormat::Ttf: return QStringLiteral("ttf");
    case FontFormat::Otf: return QStringLiteral("otf");
    case FontFormat::Woff: return QStringLiteral("woff");
    case FontFormat::Woff2: return QStringLiteral("woff2");
    case FontFormat::Collection:
    case FontFormat::Unknown: break;
    }
    return {};
}

/// `value`, or `reason` when there is none: the public functions' result from the
/// steps below, which report through a reason string as they go.
template<typename T>
static common::Expected<T, QString> withReason(std::optional<T> &&value, const QString &reason)
{
    if (!value)
        return reason;
    return std::move(*value);
}

static std::optional<QByteArray> decodeFontToSfntWithReason(const QByteArray &bytes, QString *why)
{
    switch (sniffFontFormat(bytes)) {
    case FontFormat::Ttf:
    case FontFormat::Otf: return bytes;
    case FontFormat::Woff: return decodeWoff1(bytes, why);
    case FontFormat::Woff2: return decodeWoff2(bytes, why);
    case FontFormat::Collection:
        fail(why, QStringLiteral("font collections (TTC) are not supported; upload each face on its own"));
        return std::nullopt;
    case FontFormat::Unknown: break;
    }
    fail(why, QStringLiteral("the file is not a TrueType, OpenType, WOFF or WOFF2 font"));
    return std::nullopt;
}

common::Expected<QByteArray, QString> decodeFontToSfnt(const QByteArray &bytes)
{
    QString reason;
    auto value = decodeFontToSfntWithReason(bytes, &reason);
    return withReason(std::move(value), reason);
}

static std::optional<FontFaceInfo> inspectFontWithReason(const QByteArray &sfnt, QString *why)
{
    const QRawFont raw(sfnt, 16);
    if (!raw.isValid() || raw.familyName().isEmpty()) {
        fail(why, QStringLiteral("FreeType cannot load the font (damaged or not an sfnt font)"));
        return std::nullopt;
    }
    // A face without a single glyph for basic Latin or its own cmap is still a font; one
    // FreeType loads but that maps no character at all is not.
    if (raw.supportedWritingSystems().isEmpty() && !raw.supportsCharacter(QChar(u'A'))) {
        bool any = false;
        for (char32_t c = 0x20; c < 0x3000 && !any; ++c)
            any = raw.supportsCharacter(c);
        if (!any) {
            fail(why, QStringLiteral("the font maps no characters (its cmap table is missing or empty)"));
            return std::nullopt;
        }
    }
    FontFaceInfo info;
    info.family = raw.familyName();
    info.weight = std::clamp(raw.weight(), 1, 1000);
    info.italic = raw.style() != QFont::StyleNormal;
    return info;
}

common::Expected<FontFaceInfo, QString> inspectFont(const QByteArray &sfnt)
{
    QString reason;
    auto value = inspectFontWithReason(sfnt, &reason);
    return withReason(std::move(value), reason);
}

static std::optional<QByteArray> renameSfntFamilyWithReason(const QByteArray &sfnt, const QString &family, QString *why)
{
    quint32 flavor = 0;
    std::map<quint32, QByteArray> tables;
    if (!readSfntTables(sfnt, &flavor, &tables, why))
        return std::nullopt;
    constexpr quint32 kName = 0x6E616D65; // 'name'
    struct Record {
        quint16 platform, encoding, language, nameId;
        QByteArray text;
    };
    std::vector<Record> records;
    if (auto it = tables.find(kName); it != tables.end()) {
        const QByteArray &name = it->second;
        if (name.size() < 6)
            return fail(why, QStringLiteral("the font's name table is truncated")), std::nullopt;
        const quint16 count = be16(name, 2), storage = be16(name, 4);
        if (6 + qsizetype(count) * 12 > name.size())
            return fail(why, QStringLiteral("the font's name table is truncated")), std::nullopt;
        for (quint16 i = 0; i < count; ++i) {
            const qsizetype rec = 6 + qsizetype(i) * 12;
            Record r{be16(name, rec), be16(name, rec + 2), be16(name, rec + 4), be16(name, rec + 6), {}};
            const qsizetype length = be16(name, rec + 8), offset = storage + be16(name, rec + 10);
            if (offset + length > name.size())
                return fail(why, QStringLiteral("a name record lies outside the name table")), std::nullopt;
            static const QList<quint16> replaced = {1, 3, 4, 6, 16, 17, 21, 22};
            if (replaced.contains(r.nameId))
                continue;
            r.text = name.mid(offset, length);
            records.push_back(std::move(r));
        }
    }
    for (quint16 id : {quint16(1), quint16(3), quint16(4), quint16(6)})
        records.push_back(Record{3, 1, 0x409, id, utf16be(family)});
    std::sort(records.begin(), records.end(), [](const Record &a, const Record &b) {
        return std::tie(a.platform, a.encoding, a.language, a.nameId)
               < std::tie(b.platform, b.encoding, b.language, b.nameId);
    });
    QByteArray table, strings;
    put16(table, 0);
    put16(table, quint16(records.size()));
    put16(table, quint16(6 + records.size() * 12));
    for (const Record &r : records) {
        put16(table, r.platform);
        put16(table, r.encoding);
        put16(table, r.language);
        put16(table, r.nameId);
        put16(table, quint16(r.text.size()));
        put16(table, quint16(strings.size()));
        strings.append(r.text);
    }
    if (strings.size() > 0xFFFF)
        return fail(why, QStringLiteral("the font's name table is too large")), std::nullopt;
    tables[kName] = table + strings;
    return buildSfnt(flavor, tables);
}

common::Expected<QByteArray, QString> renameSfntFamily(const QByteArray &sfnt, const QString &family)
{
    QString reason;
    auto value = renameSfntFamilyWithReason(sfnt, family, &reason);
    return withReason(std::move(value), reason);
}

QByteArray fontFileTable(const QByteArray &path, unsigned faceIndex, quint32 tag)
{
    const std::unique_ptr<hb_blob_t, decltype(&hb_blob_destroy)> blob(hb_blob_create_from_file(path.constData()),
                                                                      &hb_blob_destroy);
    const std::unique_ptr<hb_face_t, decltype(&hb_face_destroy)> face(hb_face_create(blob.get(), faceIndex),
                                                                      &hb_face_destroy);
    return tableBytes(face.get(), hb_tag_t(tag));
}

namespace {

/// The cmap of face `face` with the single-glyph substitutions of `features` frozen in
/// (freezeFontFeatures()); empty when no character changes glyph.
QByteArray frozenCmap(hb_face_t *face, const std::vector<std::pair<quint32, quint32>> &features)
{
    const std::unique_ptr<hb_font_t, decltype(&hb_font_destroy)> hbFont(hb_font_create(face), &hb_font_destroy);
    // The lookups of the features, in lookup order (OpenType GSUB applies them so), each
    // with the value of its feature (the alternate to take).
    std::map<unsigned, quint32> lookups;
    for (const auto &[tag, value] : features) {
        if (value == 0)
            continue;
        const hb_tag_t tags[] = {hb_tag_t(tag), HB_TAG_NONE};
        const std::unique_ptr<hb_set_t, decltype(&hb_set_destroy)> set(hb_set_create(), &hb_set_destroy);
        hb_ot_layout_collect_lookups(face, HB_OT_TAG_GSUB, nullptr, nullptr, tags, set.get());
        for (hb_codepoint_t lookup = HB_SET_VALUE_INVALID; hb_set_next(set.get(), &lookup);)
            lookups[lookup] = std::max(lookups[lookup], value);
    }
    if (lookups.empty())
        return {};

    // Every character's default glyph, then what the lookups make of it.
    const std::unique_ptr<hb_set_t, decltype(&hb_set_destroy)> unicodes(hb_set_create(), &hb_set_destroy);
    hb_face_collect_unicodes(face, unicodes.get());
    std::map<quint32, quint32> cmap;
    for (hb_codepoint_t cp = HB_SET_VALUE_INVALID; hb_set_next(unicodes.get(), &cp);) {
        hb_codepoint_t glyph = 0;
        if (hb_font_get_nominal_glyph(hbFont.get(), cp, &glyph))
            cmap[cp] = glyph;
    }
    // What each lookup makes of a glyph. Only single (type 1) and alternate (type 3)
    // substitutions: the others replace several glyphs or depend on their neighbours.
    // HarfBuzz 6 names the alternates of an alternate substitution; a single
    // substitution's one glyph is the lookup's closure of {glyph} less the glyph.
    struct Lookup {
        unsigned index;
        quint32 value;
        std::unique_ptr<hb_set_t, decltype(&hb_set_destroy)> input{hb_set_create(), &hb_set_destroy};
    };
    const QByteArray gsub = tableBytes(face, HB_OT_TAG_GSUB);
    std::vector<Lookup> usable;
    for (const auto &[index, value] : lookups) {
        const quint16 type = gsubLookupType(gsub, index);
        if (type != 1 && type != 3)
            continue;
        Lookup l{index, value};
        hb_ot_layout_lookup_collect_glyphs(face, HB_OT_TAG_GSUB, index, nullptr, l.input.get(), nullptr, nullptr);
        usable.push_back(std::move(l));
    }
    const auto substitute = [&](const Lookup &l, hb_codepoint_t glyph) -> hb_codepoint_t {
        if (!hb_set_has(l.input.get(), glyph))
            return glyph;
        hb_codepoint_t alternates[64];
        unsigned count = 64;
        const unsigned total = hb_ot_layout_lookup_get_glyph_alternates(face, l.index, glyph, 0, &count, alternates);
        if (total > 0) // the value-th alternate (CSS Fonts 4 §6.12), none past the last, as HarfBuzz
            return l.value <= count ? alternates[l.value - 1] : glyph;
        const std::unique_ptr<hb_set_t, decltype(&hb_set_destroy)> closure(hb_set_create(), &hb_set_destroy);
        hb_set_add(closure.get(), glyph);
        hb_ot_layout_lookup_substitute_closure(face, l.index, closure.get());
        hb_set_del(closure.get(), glyph);
        // One glyph: a single substitution; several (a 1→n multiple substitution) or none
        // (a ligature needs its other components) cannot be frozen.
        return hb_set_get_population(closure.get()) == 1 ? hb_set_get_min(closure.get()) : glyph;
    };
    int changed = 0;
    std::map<std::pair<unsigned, hb_codepoint_t>, hb_codepoint_t> memo; // (lookup, glyph) → glyph
    for (auto &[cp, glyph] : cmap) {
        const quint32 original = glyph;
        for (const Lookup &l : usable) {
            const auto key = std::make_pair(l.index, hb_codepoint_t(glyph));
            auto it = memo.find(key);
            if (it == memo.end())
                it = memo.emplace(key, substitute(l, glyph)).first;
            glyph = it->second;
        }
        changed += glyph != original;
    }
    if (changed == 0)
        return {};

    // The new cmap (OpenType cmap: encoding records sorted by platform, then encoding).
    const QByteArray uvs = variationSequences(tableBytes(face, HB_TAG('c', 'm', 'a', 'p')));
    const QByteArray bmp = cmapFormat4(cmap);
    const QByteArray full = cmapFormat12(cmap);
    std::vector<std::pair<std::pair<quint16, quint16>, QByteArray>> subtables;
    if (!uvs.isEmpty())
        subtables.push_back({{0, 5}, uvs});
    if (!bmp.isEmpty())
        subtables.push_back({{3, 1}, bmp});
    subtables.push_back({{3, 10}, full});
    QByteArray cmapTable;
    put16(cmapTable, 0);
    put16(cmapTable, quint16(subtables.size()));
    quint32 offset = 4 + 8 * quint32(subtables.size());
    for (const auto &[id, data] : subtables) {
        put16(cmapTable, id.first);
        put16(cmapTable, id.second);
        put32(cmapTable, offset);
        offset += quint32(data.size());
    }
    for (const auto &[id, data] : subtables)
        cmapTable += data;
    return cmapTable;
}

/// Every table of `face`, tag → bytes.
std::map<quint32, QByteArray> faceTables(hb_face_t *face)
{
    std::map<quint32, QByteArray> tables;
    hb_tag_t tags[64];
    for (unsigned start = 0;;) {
        unsigned count = 64;
        hb_face_get_table_tags(face, start, &count, tags);
        for (unsigned k = 0; k < count; ++k)
            tables[tags[k]] = tableBytes(face, tags[k]);
        if (count < 64)
            break;
        start += count;
    }
    return tables;
}

/// `tables` as an sfnt named `family`: DSIG dropped (it signed the original bytes), the
/// flavor from the outlines.
std::optional<QByteArray> assembleFace(std::map<quint32, QByteArray> tables, const QString &family, QString *why)
{
    tables.erase(HB_TAG('D', 'S', 'I', 'G'));
    const quint32 flavor = tables.count(HB_TAG('C', 'F', 'F', ' ')) || tables.count(HB_TAG('C', 'F', 'F', '2'))
                               ? 0x4F54544F // 'OTTO'
                               : 0x00010000;
    return renameSfntFamilyWithReason(buildSfnt(flavor, tables), family, why);
}


/// The face of `font` at `faceIndex`, or the reason it has none.
using FacePtr = std::unique_ptr<hb_face_t, decltype(&hb_face_destroy)>;
std::optional<FacePtr> openFace(const QByteArray &font, unsigned faceIndex, QString *why)
{
    // HarfBuzz reads the tables in place: the blob borrows `font`, which outlives it.
    const std::unique_ptr<hb_blob_t, decltype(&hb_blob_destroy)> blob(
        hb_blob_create(font.constData(), unsigned(font.size()), HB_MEMORY_MODE_READONLY, nullptr, nullptr),
        &hb_blob_destroy);
    if (faceIndex >= hb_face_count(blob.get()))
        return fail(why, QStringLiteral("the font has no face %1").arg(faceIndex)), std::nullopt;
    FacePtr face(hb_face_create(blob.get(), faceIndex), &hb_face_destroy);
    if (hb_face_get_glyph_count(face.get()) == 0)
        return fail(why, QStringLiteral("the font has no glyphs")), std::nullopt;
    return face;
}

} // namespace

common::Expected<QByteArray, QString> freezeFontFeatures(const QByteArray &font, unsigned faceIndex,
                                                         const std::vector<std::pair<quint32, quint32>> &features,
                                                         const QString &family)
{
    QString reason;
    std::optional<QByteArray> value;
    if (auto face = openFace(font, faceIndex, &reason)) {
        value = QByteArray();
        if (QByteArray cmap = frozenCmap(face->get(), features); !cmap.isEmpty()) {
            std::map<quint32, QByteArray> tables = faceTables(face->get());
            tables[HB_TAG('c', 'm', 'a', 'p')] = std::move(cmap);
            value = assembleFace(std::move(tables), family, &reason);
        }
    }
    return withReason(std::move(value), reason);
}

std::optional<std::vector<quint32>> layoutFeatureTags(const QByteArray &table)
{
    // GSUB/GPOS header (OpenType "GSUB"/"GPOS" §Header): majorVersion 1, minorVersion,
    // scriptList, featureList, lookupList offsets (16-bit; 1.1 adds a 32-bit one).
    if (table.isEmpty())
        return std::vector<quint32>{};
    if (table.size() < 10 || be16(table, 0) != 1)
        return std::nullopt;
    const qint64 featureList = be16(table, 6);
    if (featureList + 2 > table.size())
        return std::nullopt;
    const quint16 count = be16(table, featureList);
    if (featureList + 2 + 6 * qint64(count) > table.size())
        return std::nullopt;
    std::vector<quint32> tags;
    tags.reserve(count);
    for (quint16 i = 0; i < count; ++i)
        tags.push_back(be32(table, featureList + 2 + 6 * qint64(i)));
    return tags;
}

std::optional<QByteArray> renameLayoutFeatures(const QByteArray &table, const std::map<quint32, quint32> &renames)
{
    if (!layoutFeatureTags(table))
        return std::nullopt;
    QByteArray out = table;
    if (out.isEmpty())
        return out;
    const qint64 featureList = be16(out, 6);
    const quint16 count = be16(out, featureList);
    for (quint16 i = 0; i < count; ++i) {
        const qint64 at = featureList + 2 + 6 * qint64(i);
        if (const auto it = renames.find(be32(out, at)); it != renames.end())
            qToBigEndian<quint32>(it->second, out.data() + at);
    }
    return out;
}

namespace {

/// Whether every GSUB lookup of feature `tag` substitutes single glyphs (types 1 and 3),
/// so freezing it into the cmap draws what shaping with it would.
bool singleGlyphFeature(hb_face_t *face, const QByteArray &gsub, quint32 tag)
{
    const hb_tag_t tags[] = {hb_tag_t(tag), HB_TAG_NONE};
    const std::unique_ptr<hb_set_t, decltype(&hb_set_destroy)> set(hb_set_create(), &hb_set_destroy);
    hb_ot_layout_collect_lookups(face, HB_OT_TAG_GSUB, nullptr, nullptr, tags, set.get());
    if (hb_set_is_empty(set.get()))
        return false;
    for (hb_codepoint_t lookup = HB_SET_VALUE_INVALID; hb_set_next(set.get(), &lookup);)
        if (const quint16 type = gsubLookupType(gsub, lookup); type != 1 && type != 3)
            return false;
    return true;
}

bool contains(const std::optional<std::vector<quint32>> &tags, quint32 tag)
{
    return tags && std::find(tags->begin(), tags->end(), tag) != tags->end();
}

} // namespace

static std::optional<DerivedFace> deriveFeatureFaceWithReason(const QByteArray &font, unsigned faceIndex,
                                                              const std::vector<std::pair<quint32, quint32>> &features,
                                                              const QString &family, QString *why)
{
    auto face = openFace(font, faceIndex, why);
    if (!face)
        return std::nullopt;
    const QByteArray gsub = tableBytes(face->get(), HB_OT_TAG_GSUB), gpos = tableBytes(face->get(), HB_OT_TAG_GPOS);
    // A malformed table is left as it is (nullopt tags: nothing found, nothing renamed).
    const auto gsubTags = layoutFeatureTags(gsub), gposTags = layoutFeatureTags(gpos);
    // The tags HarfBuzz enables for every run (hb-ot-shape.cc: 'Harf' and 'HARF' before
    // the script's own features, 'Buzz' and 'BUZZ' after), unless the face uses them.
    std::vector<quint32> freeSlots;
    for (quint32 slot : kEnabledFeatureSlots)
        if (!contains(gsubTags, slot) && !contains(gposTags, slot))
            freeSlots.push_back(slot);
    DerivedFace result;
    std::map<quint32, quint32> gsubRenames, gposRenames;
    std::vector<std::pair<quint32, quint32>> single, shaped; // features to turn on, by kind
    for (const auto &[tag, value] : features) {
        const bool inGsub = contains(gsubTags, tag), inGpos = contains(gposTags, tag);
        if (value == 0) {
            if (inGsub)
                gsubRenames[tag] = kDisabledFeatureTag;
            if (inGpos)
                gposRenames[tag] = kDisabledFeatureTag;
        } else if (!inGsub && !inGpos) {
            result.missing.push_back(tag);
        } else if (inGsub && !inGpos && singleGlyphFeature(face->get(), gsub, tag)) {
            single.emplace_back(tag, value);
        } else {
            shaped.emplace_back(tag, value);
        }
    }
    // Freezing is the faster path, but it substitutes before every lookup: when another
    // feature is shaped, the single-glyph ones are shaped too (while tags remain), so
    // that lookups which read the default glyphs (frac reading digits before tnum makes
    // them tabular) run in the font's order, as in Chromium.
    std::vector<std::pair<quint32, quint32>> frozen;
    if (!shaped.empty())
        shaped.insert(shaped.end(), single.begin(), single.end());
    else
        frozen = single;
    for (const auto &[tag, value] : shaped) {
        if (freeSlots.empty()) {
            if (std::find(single.begin(), single.end(), std::pair{tag, value}) != single.end())
                frozen.emplace_back(tag, value);
            else
                result.dropped.push_back(tag);
            continue;
        }
        if (contains(gsubTags, tag))
            gsubRenames[tag] = freeSlots.back();
        if (contains(gposTags, tag))
            gposRenames[tag] = freeSlots.back();
        freeSlots.pop_back();
    }
    std::map<quint32, QByteArray> tables;
    const auto edit = [&](quint32 tag, const QByteArray &bytes) {
        if (tables.empty())
            tables = faceTables(face->get());
        tables[tag] = bytes;
    };
    if (!frozen.empty())
        if (const QByteArray cmap = frozenCmap(face->get(), frozen); !cmap.isEmpty())
            edit(HB_TAG('c', 'm', 'a', 'p'), cmap);
    if (!gsubRenames.empty())
        if (const auto renamed = renameLayoutFeatures(gsub, gsubRenames))
            edit(HB_OT_TAG_GSUB, *renamed);
    if (!gposRenames.empty())
        if (const auto renamed = renameLayoutFeatures(gpos, gposRenames))
            edit(HB_OT_TAG_GPOS, *renamed);
    if (tables.empty())
        return result;
    auto sfnt = assembleFace(std::move(tables), family, why);
    if (!sfnt)
        return std::nullopt;
    result.sfnt = std::move(*sfnt);
    return result;
}

common::Expected<DerivedFace, QString> deriveFeatureFace(const QByteArray &font, unsigned faceIndex,
                                                         const std::vector<std::pair<quint32, quint32>> &features,
                                                         const QString &family)
{
    QString reason;
    auto value = deriveFeatureFaceWithReason(font, faceIndex, features, family, &reason);
    return withReason(std::move(value), reason);
}

} // namespace imprint::render
