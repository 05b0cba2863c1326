#include "server/render/resources/font_file.h"

#include <QRawFont>
#include <QtEndian>

#include <woff2/decode.h>
#include <woff2/output.h>

#include <algorithm>
#include <map>
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

std::optional<QByteArray> decodeFontToSfnt(const QByteArray &bytes, QString *why)
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

std::optional<FontFaceInfo> inspectFont(const QByteArray &sfnt, QString *why)
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

std::optional<QByteArray> renameSfntFamily(const QByteArray &sfnt, const QString &family, QString *why)
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

} // namespace imprint::render
