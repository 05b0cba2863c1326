// Default's visually lossless snap for PNG: see png_snap.h.

#include "server/render/encode/png_snap.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace imprint::render::pngsnap {

namespace {

// Default's visually lossless step (docs/performance.md, "PNG bytes against takumi"):
// antialiased edges carry most of a card's distinct colours, each on a handful of
// pixels, and every one of them costs deflate a literal. A colour on fewer than
// kRareColourPerMillion of the pixels, on a pixel that differs from a 4-neighbour by at
// least kEdgeContrast in some channel or lies between two neighbouring fills at least
// kBlendContrast apart (isEdge()), is snapped (SnapTargets): to the nearest colour
// the image already has within kSnapTolerance (8/255) in every channel, else to its
// point on a grid of 16 levels per channel (at most 8/255 off). Flat fills and text
// interiors are common colours and stay exact; smooth gradients and blurred shadows
// change by a few levels between neighbours, fail the edge test and stay exact too, so
// nothing bands. Photos with more than kMaxHistogramColours distinct colours are left
// alone. On a card of few fills (kMaxBlendFills), a rare edge colour with no colour of the
// card near it goes to the nearest quantised blend of two fills (BlendTargets) before the
// grid, so one text colour on one background needs at most 16 colours.
constexpr int kRareColourPerMillion = 300; // 0.03 %: 226 px on a 1200×630 card
constexpr int kFrequentColourPerMillion = 100; // 0.01 %: see snapAndPack()
constexpr int kEdgeContrast = 12;
constexpr int kBlendContrast = 8;
constexpr int kSnapStep = 17; // 0, 17, …, 255: 16 levels
constexpr int kSnapTolerance = kSnapStep / 2; // the most a snapped channel moves
// The card's fills: colours on at least 0.3 % of the pixels (backgrounds, text, panels).
// With at most kMaxBlendFills of them, a rare edge colour with no colour of the card near
// it snaps along the blend between two fills (BlendTargets), at most 16 colours a pair: a
// text card then needs at most 16 colours (docs/performance.md, "Coverage levels on the blend").
constexpr int kFillPerMillion = 3000;
constexpr int kMaxBlendFills = 4; // 6 made f-image (6 fills, RGB) 2 % larger
constexpr int kHistogramBits = 15;
constexpr quint32 kHistogramSlots = 1u << kHistogramBits;
constexpr quint32 kMaxHistogramColours = kHistogramSlots / 2; // load factor ≤ 0.5

inline quint32 histogramSlot(quint32 rgb)
{
    return (rgb * 2654435761u) >> (32 - kHistogramBits); // Knuth multiplicative hash
}

/// The histogram slot holding `c`, or the empty slot where it goes.
inline quint32 histogramSlotOf(const std::vector<quint32> &keys, const std::vector<quint32> &counts, quint32 c)
{
    quint32 slot = histogramSlot(c);
    while (counts[slot] != 0 && keys[slot] != c)
        slot = (slot + 1) & (kHistogramSlots - 1);
    return slot;
}

/// The end of the run of pixels equal to `c` that starts at `x` of `row` (`w` wide): the
/// first x' > x with row[x'] != c, or w. Four pixels a step: the passes of the snap spend
/// most of their time walking the long runs of a card's fills.
inline int runEnd(const quint32 *row, int x, int w, quint32 c)
{
    int end = x + 1;
#if defined(__SSE2__)
    const __m128i mine = _mm_set1_epi32(int(c));
    for (; end + 4 <= w; end += 4) {
        const int equal
            = _mm_movemask_epi8(_mm_cmpeq_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i *>(row + end)), mine));
        if (equal != 0xffff)
            return end + __builtin_ctz(unsigned(~equal)) / 4;
    }
#endif
    while (end < w && row[end] == c)
        ++end;
    return end;
}

/// Counts the pixels of each colour of an ARGB32 image into `keys`/`counts` (open
/// addressing; count 0 = empty slot). Returns false when a pixel is not opaque or the
/// image has more than kMaxHistogramColours colours.
bool colourHistogram(const QImage &image, const std::vector<quint8> &sameAsAbove, std::vector<quint32> *keys,
                     std::vector<quint32> *counts, std::vector<quint32> *usedSlots,
                     std::vector<std::pair<quint32, quint32>> *rowRuns, quint32 *distinctColours)
{
    // Only the slots the last image used are cleared: zeroing all 32 768 was 4 % of a
    // small card's encode.
    if (counts->size() != kHistogramSlots) {
        keys->resize(kHistogramSlots);
        counts->assign(kHistogramSlots, 0);
    } else {
        for (quint32 slot : *usedSlots)
            (*counts)[slot] = 0;
    }
    usedSlots->clear();
    quint32 distinct = 0;
    const int w = image.width();
    for (int y = 0; y < image.height(); ++y) {
        if (sameAsAbove[size_t(y)]) {
            // The row above again (a fill's rows): its runs count once more.
            for (const auto &[slot, length] : *rowRuns)
                (*counts)[slot] += length;
            continue;
        }
        // Its runs are kept only for a row the next row repeats (a gradient's rows each
        // have a run a pixel and repeat nothing).
        const bool repeated = y + 1 < image.height() && sameAsAbove[size_t(y + 1)];
        rowRuns->clear();
        const auto *row = reinterpret_cast<const quint32 *>(image.constScanLine(y));
        int x = 0;
        while (x < w) {
            const quint32 c = row[x];
            if ((c >> 24) != 0xff)
                return false;
            const int end = runEnd(row, x, w, c); // a run of one colour: one table update
            const quint32 slot = histogramSlotOf(*keys, *counts, c);
            if ((*counts)[slot] == 0) {
                if (++distinct > kMaxHistogramColours)
                    return false;
                (*keys)[slot] = c;
                usedSlots->push_back(slot);
            }
            (*counts)[slot] += quint32(end - x);
            if (repeated)
                rowRuns->emplace_back(slot, quint32(end - x));
            x = end;
        }
    }
    *distinctColours = distinct;
    return true;
}

/// Sets `(*sameAsAbove)[y]` when row y of `image` equals row y − 1 (never for row 0): most
/// rows of a card repeat the one above, and the passes below reuse its work.
void markRowsEqualToTheRowAbove(const QImage &image, std::vector<quint8> *sameAsAbove)
{
    const int h = image.height();
    const size_t rowBytes = size_t(image.width()) * sizeof(quint32);
    sameAsAbove->assign(size_t(h), 0);
    for (int y = 1; y < h; ++y)
        (*sameAsAbove)[size_t(y)] = std::memcmp(image.constScanLine(y), image.constScanLine(y - 1), rowBytes) == 0;
}

/// The largest difference between a channel of `a` and the same channel of `b`.
inline int contrastOf(quint32 a, quint32 b)
{
    const int dr = int((a >> 16) & 0xff) - int((b >> 16) & 0xff);
    const int dg = int((a >> 8) & 0xff) - int((b >> 8) & 0xff);
    const int db = int(a & 0xff) - int(b & 0xff);
    return std::max({std::abs(dr), std::abs(dg), std::abs(db)});
}

/// True when every channel of `c` lies between those of `a` and `b` (±1 for rounding).
inline bool isBetween(quint32 c, quint32 a, quint32 b)
{
    for (int shift : {16, 8, 0}) {
        const int v = int((c >> shift) & 0xff), va = int((a >> shift) & 0xff), vb = int((b >> shift) & 0xff);
        if (v < std::min(va, vb) - 1 || v > std::max(va, vb) + 1)
            return false;
    }
    return true;
}

inline quint32 snapChannel(quint32 v)
{
    return (v + kSnapStep / 2) / kSnapStep * kSnapStep;
}

/// The colours Default snaps rare edge colours to: the image's common colours, then each
/// grid point (16 levels per channel) a snap needed. nearestOf() picks the nearest within
/// kSnapTolerance in every channel, so an antialiased pixel next to a fill becomes the
/// fill's own colour or a colour other edges already use: fewer colours (more cards keep
/// to a 256-colour palette) and longer repeats for deflate than the grid alone gave
/// (docs/performance.md, "Snapping to colours the card has"). Colours are found through
/// 16 × 16 × 16 cells of 16 levels per channel, so a look-up reads at most 8 cells.
/// Deterministic: colours are added in the order the image presents them.
class SnapTargets
{
public:
    SnapTargets(std::vector<qint32> *cells, std::vector<std::pair<quint32, qint32>> *nodes)
        : m_cells(cells)
        , m_nodes(nodes)
    {
        cells->assign(kCells, -1);
        nodes->clear();
    }

    void add(quint32 c)
    {
        qint32 &head = (*m_cells)[size_t(cellOf(int((c >> 16) & 0xff), int((c >> 8) & 0xff), int(c & 0xff)))];
        m_nodes->push_back({c, head});
        head = qint32(m_nodes->size() - 1);
    }

    /// The grid point of `c` (opaque ARGB), added as a target: for a colour that
    /// nearestOf() found nothing near.
    quint32 addGridPointOf(quint32 c)
    {
        const quint32 point = 0xff000000u | snapChannel((c >> 16) & 0xff) << 16 | snapChannel((c >> 8) & 0xff) << 8
                              | snapChannel(c & 0xff);
        add(point);
        return point;
    }

    /// The nearest colour to `c` within kSnapTolerance in every channel, else 0.
    quint32 nearestOf(quint32 c) const
    {
        const int r = int((c >> 16) & 0xff), g = int((c >> 8) & 0xff), b = int(c & 0xff);
        int bestDistance = kSnapTolerance + 1;
        quint32 best = 0;
        // A colour within kSnapTolerance lies in at most 2 cells per channel.
        auto first = [](int v) { return std::max(v - kSnapTolerance, 0) >> 4; };
        auto last = [](int v) { return std::min(v + kSnapTolerance, 255) >> 4; };
        for (int cr = first(r); cr <= last(r); ++cr) {
            for (int cg = first(g); cg <= last(g); ++cg) {
                for (int cb = first(b); cb <= last(b); ++cb) {
                    for (qint32 n = (*m_cells)[size_t(cr << 8 | cg << 4 | cb)]; n >= 0;
                         n = (*m_nodes)[size_t(n)].second) {
                        const quint32 k = (*m_nodes)[size_t(n)].first;
                        const int d = contrastOf(c, k);
                        if (d < bestDistance || (d == bestDistance && k < best)) {
                            bestDistance = d;
                            best = k;
                        }
                    }
                }
            }
        }
        return best;
    }

private:
    static constexpr int kCells = 16 * 16 * 16;
    static int cellOf(int r, int g, int b) { return (r >> 4) << 8 | (g >> 4) << 4 | (b >> 4); }
    std::vector<qint32> *m_cells;
    std::vector<std::pair<quint32, qint32>> *m_nodes;
};


/// The antialiased blends between the card's fills, quantised: an edge pixel that lies
/// within kSnapTolerance (every channel) of a point a + (b − a)·k/n between two fills a
/// and b becomes that point. n = ⌈largest channel difference / kSnapStep⌉ (15 for black on
/// white), so the points are at most kSnapStep apart and a pair gives at most 16 colours,
/// whatever the glyphs' 256 coverage levels were. Deterministic: pairs in the order the
/// fills were first met, the first of equally near points wins.
class BlendTargets
{
public:
    explicit BlendTargets(const std::vector<quint32> &fills)
    {
        for (size_t i = 0; i < fills.size(); ++i) {
            for (size_t j = i + 1; j < fills.size(); ++j)
                addPair(fills[i], fills[j]);
        }
    }

    bool empty() const { return m_pairs.empty(); }

    /// The quantised blend nearest to `c` (opaque ARGB) within kSnapTolerance, else 0.
    quint32 targetOf(quint32 c) const
    {
        const int v[3] = {int((c >> 16) & 0xff), int((c >> 8) & 0xff), int(c & 0xff)};
        int bestError = kSnapTolerance + 1;
        quint32 best = 0;
        for (const Pair &pair : m_pairs) {
            // The step k nearest to the projection of c on the segment, rounded.
            qint64 dot = 0;
            for (int ch = 0; ch < 3; ++ch)
                dot += qint64(v[ch] - pair.a[ch]) * pair.d[ch];
            const qint64 nearest = std::clamp<qint64>((2 * dot * pair.n + pair.dd) / (2 * pair.dd), 0, pair.n);
            // The projection is nearest in Euclid's measure; the promise is per channel.
            for (int k = int(std::max<qint64>(nearest - 1, 0)); k <= int(std::min<qint64>(nearest + 1, pair.n)); ++k) {
                int error = 0, level[3];
                for (int ch = 0; ch < 3; ++ch) {
                    const int scaled = pair.d[ch] * k;
                    level[ch] = pair.a[ch] + (scaled >= 0 ? (2 * scaled + pair.n) / (2 * pair.n)
                                                          : -((-2 * scaled + pair.n) / (2 * pair.n)));
                    error = std::max(error, std::abs(level[ch] - v[ch]));
                }
                if (error < bestError) {
                    bestError = error;
                    best = 0xff000000u | quint32(level[0]) << 16 | quint32(level[1]) << 8 | quint32(level[2]);
                }
            }
        }
        return best;
    }

private:
    struct Pair {
        int a[3], d[3], n;
        qint64 dd; // |d|², > 0
    };
    void addPair(quint32 a, quint32 b)
    {
        Pair pair;
        int most = 0;
        pair.dd = 0;
        for (int ch = 0; ch < 3; ++ch) {
            const int shift = 16 - 8 * ch;
            pair.a[ch] = int((a >> shift) & 0xff);
            pair.d[ch] = int((b >> shift) & 0xff) - pair.a[ch];
            pair.dd += qint64(pair.d[ch]) * pair.d[ch];
            most = std::max(most, std::abs(pair.d[ch]));
        }
        pair.n = (most + kSnapStep - 1) / kSnapStep;
        if (pair.dd > 0)
            m_pairs.push_back(pair);
    }
    std::vector<Pair> m_pairs;
};

/// True when the pixel `c` at `x` of `row` (between `up` and `down`, `w` wide) is an edge:
/// a contrast of kEdgeContrast against a 4-neighbour, or a blend between two 4-neighbours
/// of distinct common colours (`isCommon`) at least kBlendContrast apart (the antialiased
/// rim of a pale panel on white, whose steps are small).
template<typename IsCommon>
bool isEdge(const quint32 *row, const quint32 *up, const quint32 *down, int x, int w, quint32 c,
            const IsCommon &isCommon)
{
    const quint32 left = x > 0 ? row[x - 1] : c, right = x + 1 < w ? row[x + 1] : c;
    const quint32 neighbours[4] = {up[x], down[x], left, right};
    // A blend lies at least kNearBlend from one end, so nearer neighbours rule it out.
    constexpr int kNearBlend = kBlendContrast / 2 - 1;
#if defined(__SSE2__)
    // The four contrasts at once: most rare pixels are a gradient's or a shadow's, and
    // this test runs on each of them (5 % of a gradient card's encode done one by one).
    const __m128i mine = _mm_set1_epi32(int(c));
    const __m128i theirs = _mm_loadu_si128(reinterpret_cast<const __m128i *>(neighbours));
    const __m128i diff = _mm_sub_epi8(_mm_max_epu8(mine, theirs), _mm_min_epu8(mine, theirs));
    const __m128i zero = _mm_setzero_si128();
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_subs_epu8(diff, _mm_set1_epi8(kEdgeContrast - 1)), zero)) != 0xffff)
        return true; // some channel differs by kEdgeContrast or more
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_subs_epu8(diff, _mm_set1_epi8(kNearBlend - 1)), zero)) == 0xffff)
        return false; // every channel within kNearBlend - 1
#else
    int most = 0;
    for (quint32 n : neighbours)
        most = std::max(most, contrastOf(c, n));
    if (most >= kEdgeContrast)
        return true;
    if (most < kNearBlend)
        return false;
#endif
    for (int a = 0; a < 4; ++a) {
        for (int b = a + 1; b < 4; ++b) {
            const quint32 na = neighbours[a], nb = neighbours[b];
            if (contrastOf(na, nb) >= kBlendContrast && isBetween(c, na, nb) && isCommon(na) && isCommon(nb))
                return true;
        }
    }
    return false;
}

} // namespace


std::optional<bool> snapAndPack(const QImage &image, SnapScratch *scratch, std::vector<unsigned char> *rgb,
                                std::vector<unsigned char> *indices, std::vector<quint32> *colors)
{
    const int w = image.width(), h = image.height();
    const quint64 pixels = quint64(w) * quint64(h);
    // A colour is rare below this count; images under 6 667 px have none.
    const quint64 rareBelow = pixels * kRareColourPerMillion / 1000000;
    quint32 distinct = 0;
    if (rareBelow < 2)
        return std::nullopt;
    std::vector<quint8> &sameAsAbove = scratch->sameAsAbove;
    markRowsEqualToTheRowAbove(image, &sameAsAbove);
    if (!colourHistogram(image, sameAsAbove, &scratch->histogramKeys, &scratch->histogramCounts,
                         &scratch->histogramUsedSlots, &scratch->rowRuns, &distinct))
        return std::nullopt;
    // Row y snaps as row y − 1 did when the rows from y − 2 to y + 1 are equal (the snap
    // of a pixel reads its row and the rows above and below; the first and last rows are
    // their own neighbour beyond the edge): its output row is the one above, copied.
    auto snapsAsTheRowAbove = [&](int y) {
        return y > 0 && sameAsAbove[size_t(y)] && (y + 1 >= h || sameAsAbove[size_t(y + 1)])
               && (y < 2 || sameAsAbove[size_t(y - 1)]);
    };
    const auto &keys = scratch->histogramKeys;
    const auto &counts = scratch->histogramCounts;
    auto &targets = scratch->histogramTargets;
    targets.resize(kHistogramSlots);
    SnapTargets snapTargets(&scratch->targetCells, &scratch->targetNodes);
    // Colours on 0.01 % of the pixels or more: over 256 of them is a gradient card, which
    // keeps them (the snap moves edge pixels only) and cannot fit a palette.
    const quint64 frequentFrom = pixels * kFrequentColourPerMillion / 1000000;
    const quint64 fillFrom = pixels * kFillPerMillion / 1000000;
    int frequentColours = 0;
    std::vector<quint32> &fills = scratch->fills;
    fills.clear();
    for (quint32 slot : scratch->histogramUsedSlots) {
        targets[slot] = 0;
        if (counts[slot] >= rareBelow)
            snapTargets.add(keys[slot]);
        if (counts[slot] >= frequentFrom)
            ++frequentColours;
        if (counts[slot] >= fillFrom)
            fills.push_back(keys[slot]);
    }
    // Few fills: a rare edge colour may move onto a blend of two of them. (Common colours
    // stay: moving their edge pixels onto blends made j-align-baseline-stretch 4 % larger,
    // the colour stays in the palette for its other pixels.)
    const BlendTargets blends(fills.size() <= size_t(kMaxBlendFills) ? fills : std::vector<quint32>());
    // A rare edge colour becomes the nearest colour the card has (or an earlier target),
    // else the nearest quantised blend of two fills, else its grid point. Blends after
    // the card's own colours: taking a blend first (with up to 6 fills) made
    // g-wrap-align 5 % larger.
    auto targetOf = [&](quint32 c) {
        if (const quint32 nearest = snapTargets.nearestOf(c))
            return nearest;
        if (const quint32 blend = blends.empty() ? 0 : blends.targetOf(c)) {
            snapTargets.add(blend); // later rare colours reuse it
            return blend;
        }
        return snapTargets.addGridPointOf(c);
    };
    std::vector<quint32> &snapped = scratch->snappedRow;
    snapped.resize(size_t(w));
    auto isCommon = [&](quint32 c) { return counts[histogramSlotOf(keys, counts, c)] >= rareBelow; };
    auto snapRow = [&](int y) {
        const auto *row = reinterpret_cast<const quint32 *>(image.constScanLine(y));
        const auto *up = y > 0 ? reinterpret_cast<const quint32 *>(image.constScanLine(y - 1)) : row;
        const auto *down = y + 1 < h ? reinterpret_cast<const quint32 *>(image.constScanLine(y + 1)) : row;
        // Most pixels are common colours in runs: copy the row, then look each run's colour
        // up once and test its pixels for edges only when the colour is rare.
        quint32 *out = snapped.data();
        std::memcpy(out, row, size_t(w) * sizeof(quint32));
        int x = 0;
        while (x < w) {
            const quint32 c = row[x];
            const int end = runEnd(row, x, w, c);
            const quint32 slot = histogramSlotOf(keys, counts, c);
            if (counts[slot] < rareBelow) {
                // Per pixel: a colour of a shadow or gradient that also touches an edge
                // somewhere keeps its exact value away from it, so nothing bands.
                for (int i = x; i < end; ++i) {
                    if (isEdge(row, up, down, i, w, c, isCommon)) {
                        if (targets[slot] == 0)
                            targets[slot] = targetOf(c);
                        out[i] = targets[slot];
                    }
                }
            }
            x = end;
        }
    };
    const size_t rgbRowBytes = size_t(w) * 3 + 1, indexRowBytes = size_t(w) + 1;
    auto packRgbRow = [&](int y) { packRgbScanline(snapped.data(), w, rgb->data() + size_t(y) * rgbRowBytes); };
    auto snapAndPackRgbRow = [&](int y) {
        if (snapsAsTheRowAbove(y)) {
            std::memcpy(rgb->data() + size_t(y) * rgbRowBytes, rgb->data() + size_t(y - 1) * rgbRowBytes, rgbRowBytes);
            return;
        }
        snapRow(y);
        packRgbRow(y);
    };
    // Straight to RGB: trying the palette first would pack and repack most rows.
    if (frequentColours > 256) {
        rgb->resize(rgbRowBytes * size_t(h));
        for (int y = 0; y < h; ++y)
            snapAndPackRgbRow(y);
        return false;
    }
    // Palette indices first, as in paletteOf(); at the 257th colour, RGB from the top.
    PaletteIndex palette(colors);
    indices->resize(indexRowBytes * size_t(h));
    for (int y = 0; y < h; ++y) {
        quint8 *out = indices->data() + size_t(y) * indexRowBytes;
        if (snapsAsTheRowAbove(y)) {
            std::memcpy(out, out - indexRowBytes, indexRowBytes);
            continue;
        }
        snapRow(y);
        *out++ = 0;
        for (int x = 0; x < w;) {
            const quint32 c = snapped[size_t(x)];
            const int end = runEnd(snapped.data(), x, w, c);
            const int index = palette.indexOf(c);
            if (index < 0) {
                if (distinct <= 256)
                    return std::nullopt; // snapped edges beside exact ones: the exact palette is smaller
                rgb->resize(rgbRowBytes * size_t(h));
                packRgbRow(y);
                // The rows above are snapped already: their indices give the colours.
                for (int done = 0; done < y; ++done) {
                    const quint8 *in = indices->data() + size_t(done) * indexRowBytes + 1;
                    for (int i = 0; i < w; ++i)
                        snapped[size_t(i)] = (*colors)[in[i]];
                    packRgbRow(done);
                }
                for (int rest = y + 1; rest < h; ++rest)
                    snapAndPackRgbRow(rest);
                return false;
            }
            std::memset(out + x, index, size_t(end - x));
            x = end;
        }
    }
    return true;
}

} // namespace imprint::render::pngsnap
