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
// kBlendContrast apart (isEdge in snapAndPack()), is snapped (SnapTargets): to the nearest colour
// the image already has within kSnapTolerance (8/255) in every channel, else to its
// point on a grid of 16 levels per channel (at most 8/255 off). Flat fills and text
// interiors are common colours and stay exact; smooth gradients and blurred shadows
// change by a few levels between neighbours, fail the edge test and stay exact too, so
// nothing bands. Photos with more than kMaxHistogramColours distinct colours are left
// alone.
constexpr int kRareColourPerMillion = 300; // 0.03 %: 226 px on a 1200×630 card
constexpr int kFrequentColourPerMillion = 100; // 0.01 %: see snapAndPack()
constexpr int kEdgeContrast = 12;
constexpr int kBlendContrast = 8;
constexpr int kSnapStep = 17; // 0, 17, …, 255: 16 levels
constexpr int kSnapTolerance = kSnapStep / 2; // the most a snapped channel moves
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

/// Counts the pixels of each colour of an ARGB32 image into `keys`/`counts` (open
/// addressing; count 0 = empty slot). Returns false when a pixel is not opaque or the
/// image has more than kMaxHistogramColours colours.
bool colourHistogram(const QImage &image, std::vector<quint32> *keys, std::vector<quint32> *counts,
                     std::vector<quint32> *usedSlots, quint32 *distinctColours)
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
        const auto *row = reinterpret_cast<const quint32 *>(image.constScanLine(y));
        int x = 0;
        while (x < w) {
            const quint32 c = row[x];
            if ((c >> 24) != 0xff)
                return false;
            int end = x + 1;
            while (end < w && row[end] == c) // a run of one colour: one table update
                ++end;
            const quint32 slot = histogramSlotOf(*keys, *counts, c);
            if ((*counts)[slot] == 0) {
                if (++distinct > kMaxHistogramColours)
                    return false;
                (*keys)[slot] = c;
                usedSlots->push_back(slot);
            }
            (*counts)[slot] += quint32(end - x);
            x = end;
        }
    }
    *distinctColours = distinct;
    return true;
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
/// grid point (16 levels per channel) a snap needed. targetOf() picks the nearest within
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

    /// The colour `c` (opaque ARGB) snaps to; adds its grid point when nothing is near.
    quint32 targetOf(quint32 c)
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
        if (best == 0) {
            best = 0xff000000u | snapChannel(quint32(r)) << 16 | snapChannel(quint32(g)) << 8 | snapChannel(quint32(b));
            add(best);
        }
        return best;
    }

private:
    static constexpr int kCells = 16 * 16 * 16;
    static int cellOf(int r, int g, int b) { return (r >> 4) << 8 | (g >> 4) << 4 | (b >> 4); }
    std::vector<qint32> *m_cells;
    std::vector<std::pair<quint32, qint32>> *m_nodes;
};

} // namespace


std::optional<bool> snapAndPack(const QImage &image, SnapScratch *scratch, std::vector<unsigned char> *rgb,
                                std::vector<unsigned char> *indices, std::vector<quint32> *colors)
{
    const int w = image.width(), h = image.height();
    const quint64 pixels = quint64(w) * quint64(h);
    // A colour is rare below this count; images under 6 667 px have none.
    const quint64 rareBelow = pixels * kRareColourPerMillion / 1000000;
    quint32 distinct = 0;
    if (rareBelow < 2 || !colourHistogram(image, &scratch->histogramKeys, &scratch->histogramCounts,
                                          &scratch->histogramUsedSlots, &distinct))
        return std::nullopt;
    const auto &keys = scratch->histogramKeys;
    const auto &counts = scratch->histogramCounts;
    auto &targets = scratch->histogramTargets;
    targets.resize(kHistogramSlots);
    SnapTargets snapTargets(&scratch->targetCells, &scratch->targetNodes);
    // Colours on 0.01 % of the pixels or more: over 256 of them is a gradient card, which
    // keeps them (the snap moves edge pixels only) and cannot fit a palette.
    const quint64 frequentFrom = pixels * kFrequentColourPerMillion / 1000000;
    int frequentColours = 0;
    for (quint32 slot : scratch->histogramUsedSlots) {
        targets[slot] = 0;
        if (counts[slot] >= rareBelow)
            snapTargets.add(keys[slot]);
        if (counts[slot] >= frequentFrom)
            ++frequentColours;
    }
    std::vector<quint32> &snapped = scratch->snappedRow;
    snapped.resize(size_t(w));
    auto isCommon = [&](quint32 c) { return counts[histogramSlotOf(keys, counts, c)] >= rareBelow; };
    // An edge pixel: a contrast of kEdgeContrast against a 4-neighbour, or a blend between
    // two 4-neighbours of distinct common colours at least kBlendContrast apart (the
    // antialiased rim of a pale panel on white, whose steps are small).
    auto isEdge = [&](const quint32 *row, const quint32 *up, const quint32 *down, int x, quint32 c) {
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
    };
    auto snapRow = [&](int y) {
        const auto *row = reinterpret_cast<const quint32 *>(image.constScanLine(y));
        const auto *up = y > 0 ? reinterpret_cast<const quint32 *>(image.constScanLine(y - 1)) : row;
        const auto *down = y + 1 < h ? reinterpret_cast<const quint32 *>(image.constScanLine(y + 1)) : row;
        // Most pixels are common colours in runs: copy the row, then look each run's
        // colour up once and test its pixels for edges only when the colour is rare.
        quint32 *out = snapped.data();
        const int width = w;
        std::memcpy(out, row, size_t(width) * sizeof(quint32));
        int x = 0;
        while (x < width) {
            const quint32 c = row[x];
            int end = x + 1;
            while (end < width && row[end] == c)
                ++end;
            const quint32 slot = histogramSlotOf(keys, counts, c);
            if (counts[slot] < rareBelow) {
                // Per pixel: a colour of a shadow or gradient that also touches an edge
                // somewhere keeps its exact value away from it, so nothing bands.
                for (int i = x; i < end; ++i) {
                    if (isEdge(row, up, down, i, c)) {
                        if (targets[slot] == 0)
                            targets[slot] = snapTargets.targetOf(c);
                        out[i] = targets[slot];
                    }
                }
            }
            x = end;
        }
    };
    const size_t rgbRowBytes = size_t(w) * 3 + 1, indexRowBytes = size_t(w) + 1;
    auto packRgbRow = [&](int y) { packRgbScanline(snapped.data(), w, rgb->data() + size_t(y) * rgbRowBytes); };
    // Straight to RGB: trying the palette first would pack and repack most rows.
    if (frequentColours > 256) {
        rgb->resize(rgbRowBytes * size_t(h));
        for (int y = 0; y < h; ++y) {
            snapRow(y);
            packRgbRow(y);
        }
        return false;
    }
    // Palette indices first, as in paletteOf(); at the 257th colour, RGB from the top.
    PaletteIndex palette(colors);
    indices->resize(indexRowBytes * size_t(h));
    for (int y = 0; y < h; ++y) {
        snapRow(y);
        quint8 *out = indices->data() + size_t(y) * indexRowBytes;
        *out++ = 0;
        quint32 last = 0;
        int lastIndex = -1;
        for (int x = 0; x < w; ++x) {
            const quint32 c = snapped[size_t(x)];
            if (c != last || lastIndex < 0) {
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
                    for (int rest = y + 1; rest < h; ++rest) {
                        snapRow(rest);
                        packRgbRow(rest);
                    }
                    return false;
                }
                last = c;
                lastIndex = index;
            }
            out[x] = quint8(lastIndex);
        }
    }
    return true;
}

} // namespace imprint::render::pngsnap
