#pragma once
// Emoji (docs/templates.md): finding emoji clusters in text (UAX #29 grapheme
// clusters, UTS #51 emoji sequences), the image sets twemoji and openmoji (SVG files
// unpacked by scripts/fetch-emoji) and the Noto Color Emoji font fallback. Every engine
// shapes emoji clusters with the Noto Color Emoji font (one glyph per cluster, so the
// layout reserves the same advance whatever the set) and then, for twemoji/openmoji,
// draws the set's image in that glyph's place.

#include "server/common/render_enums.h"
#include "server/render/resources/cache_stats.h"

#include <QByteArray>
#include <QFont>
#include <QHash>
#include <QImage>
#include <QList>
#include <QMutex>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <QStringView>
#include <QTextLayout>

#include <memory>
#include <optional>
#include <vector>

class QGlyphRun;
class QPainter;

namespace imprint::render {

/// The set named `name` in kEmojiSetNames (server/common/render_enums.h; any case,
/// trimmed); nullopt otherwise.
std::optional<EmojiSet> parseEmojiSet(const QString &name);
/// The wire name of `set` (kEmojiSetNames).
QString emojiSetName(EmojiSet set);
/// Every set's name in enum order: the one list the template parser, the request
/// validation and the error messages use.
QStringList emojiSetNames();

/// The family name of the colour emoji font every engine shapes emoji clusters with.
QString emojiFontFamily();

/// One emoji cluster of a string: `length` UTF-16 units from `start`.
struct EmojiCluster {
    qsizetype start = 0;
    qsizetype length = 0;
};

/// True when the grapheme cluster `cluster` is an emoji (UTS #51 §1.4): a code point with
/// default emoji presentation (the pictograph blocks U+1F000–U+1FAFF and the BMP ones of
/// Emoji_Presentation), any Extended_Pictographic code point followed by VS16 (U+FE0F),
/// a skin-tone modifier sequence, a ZWJ sequence, a regional-indicator pair (flag) or a
/// keycap sequence ([0-9#*] FE0F? U+20E3). VS15 (U+FE0E) asks for text presentation: false.
bool isEmojiCluster(QStringView cluster);

/// The emoji clusters of `text` in logical order, found on grapheme boundaries
/// (QTextBoundaryFinder, UAX #29 extended grapheme clusters).
std::vector<EmojiCluster> findEmoji(QStringView text);

/// Format ranges that shape every emoji cluster of `text` with the colour emoji font at
/// `base`'s size and weight, for QTextLayout::setFormats(): Qt 6.4 picks fallback fonts
/// per code point, so without them 😀 would come from DejaVu Sans (monochrome) and a
/// keycap would split over two fonts. Each emoji advances by the font's own advance width
/// (hmtx), as in Chromium; see emojiAdvanceCorrection(). Empty when `text` has no emoji.
QList<QTextLayout::FormatRange> emojiFormatRanges(QStringView text, const QFont &base);

/// Px to add to the advance Qt 6.4 shapes an emoji glyph with at `pixelSize` px so that it
/// is the advance in the emoji font's `hmtx` table, the one HarfBuzz and Chromium use: Qt
/// scales the bitmap strike of Noto Color Emoji by the wrong ppem (1.0625 em instead of
/// 1.245 em). 0 when the font is missing or Qt already agrees.
qreal emojiAdvanceCorrection(qreal pixelSize);

/// Sets `format`'s letter-spacing so that each colour emoji glyph it draws at `pixelSize`
/// px advances by the emoji font's hmtx width: `base`'s absolute letter-spacing plus
/// emojiAdvanceCorrection(). Leaves `format` as it is when Qt already agrees.
void setEmojiAdvance(QTextCharFormat &format, const QFont &base, qreal pixelSize);

/// The factor a colour emoji glyph Qt advances by `advance` px at `fontSize` px is drawn
/// scaled by, about its origin, so that it fills the advance it is laid out with.
qreal emojiGlyphScale(qreal advance, qreal fontSize);

/// `text` with U+FE0F removed inside keycap and ZWJ emoji clusters: Qt 6.4 gives a
/// variation selector its own font item, which splits the colour font's ligature for the
/// sequence into pieces; without it the font forms the one glyph (the set file names
/// with FE0F are still found, see emojiFileCandidates()). Other text is unchanged.
QString normalizeEmojiForShaping(const QString &text);

/// The lower-case hex code points of `cluster` joined by '-' ("1f44d-1f3fd"), for
/// warnings and file names.
QString emojiCodepoints(QStringView cluster);

/// The directory holding `twemoji/` and `openmoji/` for a server whose data directory
/// is `dataDir` (may be empty): $IMPRINT_EMOJI_DIR, else DATA/emoji when that folder
/// exists, else ~/.local/share/imprint/emoji (where scripts/fetch-emoji unpacks by default).
QString emojiDirectoryFor(const QString &dataDir);

/// The file names (without directory) a set may use for `cluster`, most likely first:
/// twemoji names are lower-case hex joined by '-' with FE0F dropped outside ZWJ
/// sequences ("23-20e3", "2764", "1f3f3-fe0f-200d-1f308"); OpenMoji names are upper-case,
/// zero-padded to four digits, FE0F kept ("0023-FE0F-20E3"). Both spellings are tried
/// with and without FE0F.
QStringList emojiFileCandidates(QStringView cluster, EmojiSet set);

/// One emoji image of a set, parsed once and shared (immutable).
struct EmojiImage {
    QString path; ///< the SVG file it came from
    QByteArray source; ///< the SVG document as read
    QRectF viewBox; ///< user units of the image (e.g. 0 0 36 36)
    QString fragment; ///< the document's content as an SVG fragment: one <g> in the
        ///< viewBox's units, ids prefixed with `idPrefix`, ready to
        ///< place in <defs> (QtSvg 6.4 has no nested <svg>/<symbol>)
    QString idPrefix;
    /// The image drawn into a `px`×`px` square (ARGB32 premultiplied), cached.
    QImage raster(int px) const;

private:
    mutable QMutex m_rasterMutex;
    mutable QHash<int, QImage> m_rasters; // px → image, a few sizes per emoji
};

/// The emoji image sets of one render context (server/render/render_context.h): the
/// directory they are read from and a bounded cache of the images read (misses
/// included, so 20 emoji cost one file read each, once). Thread-safe.
class EmojiLibrary
{
public:
    static constexpr int kDefaultCapacity = 2048; ///< images; a set has ~4000, a card uses a handful

    /// Reads the sets from `directory` (see emojiDirectoryFor()).
    explicit EmojiLibrary(QString directory, int capacity = kDefaultCapacity);

    QString directory() const { return m_directory; }

    /// The image of `cluster` in `set` (not Noto), or nullptr when the set's directory or
    /// file is missing or does not parse.
    std::shared_ptr<const EmojiImage> image(QStringView cluster, EmojiSet set);

    /// hits, misses, entries (capacity in entries).
    CacheStats stats() const { return m_cache.stats(); }
    /// Drops the cached images (tests); the counters stay.
    void clear() { m_cache.clear(); }

private:
    const QString m_directory;
    CountedCache<std::shared_ptr<const EmojiImage>> m_cache; // null image: a known miss
};

/// Maps the colour-emoji-font glyphs of one text run back to the clusters they draw:
/// built from the run's text, each emoji cluster shaped alone with the emoji font (one
/// glyph per supported sequence). Per-thread cache of cluster → glyph.
class EmojiGlyphMap
{
public:
    /// No emoji mapped to images: every glyph is drawn from the font (EmojiSet::Noto).
    EmojiGlyphMap() = default;
    /// `text` is the run's processed text (TextEngine::processText), `base` its font.
    EmojiGlyphMap(QStringView text, const QFont &base);
    bool isEmpty() const { return m_clusters.isEmpty(); }
    /// The cluster glyph `glyph` of the emoji font draws, or an empty string.
    QString clusterFor(quint32 glyph) const { return m_clusters.value(glyph); }
    /// True when `run` was shaped with the colour emoji font.
    static bool isEmojiRun(const QGlyphRun &run);

private:
    QHash<quint32, QString> m_clusters;
};

/// Where an emoji image sits for a glyph at baseline point `pos` with advance `advance`
/// px in text of `fontSize` px: a fontSize square centred on the advance, its bottom
/// 0.1 em below the baseline (the way twemoji's own CSS places its images).
QRectF emojiImageRect(QPointF pos, qreal advance, qreal fontSize);

/// Draws `run` (shaped with the emoji font, see EmojiGlyphMap::isEmojiRun) at `origin`
/// onto `painter` with each glyph replaced by its image of `set` from `library`, sized by `fontSize` px
/// (emojiImageRect()). Glyphs without an image, and all of them for EmojiSet::Noto, are
/// drawn from the font; a missing set or file adds a line to `warnings` (once per text).
void drawEmojiRun(QPainter &painter, QPointF origin, const QGlyphRun &run, const EmojiGlyphMap &map,
                  EmojiLibrary &library, EmojiSet set, qreal fontSize, QStringList *warnings);

} // namespace imprint::render
