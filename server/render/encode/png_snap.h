// Default's visually lossless snap for PNG (docs/performance.md, "PNG bytes against
// takumi" and "Snapping to colours the card has"), kept apart from the encoder's container
// and deflate code in encode.cpp.
#pragma once

#include <QImage>

#include <optional>
#include <utility>
#include <vector>

namespace imprint::render::pngsnap {

/// Per-thread buffers of the snap, kept between renders by the encoder's scratch.
struct SnapScratch {
    std::vector<quint32> histogramKeys, histogramCounts, histogramUsedSlots, snappedRow;
    std::vector<quint32> histogramTargets; // a rare colour's snap target, 0 = not chosen yet
    std::vector<qint32> targetCells; // SnapTargets' grid of cells
    std::vector<std::pair<quint32, qint32>> targetNodes; // SnapTargets' colours
    std::vector<quint32> fills; // the colours on 0.3 % of the pixels or more
    std::vector<quint8> sameAsAbove; // per row: equal to the row above
    std::vector<std::pair<quint32, quint32>> rowRuns; // the histogram's slot and length of each run of a row
};

/// The palette of an indexed PNG as it is collected: up to 256 ARGB colours in `colors`,
/// found through a small open-addressing table (most cards exceed 256 colours within the
/// first rows, so the palette stops early).
class PaletteIndex
{
public:
    explicit PaletteIndex(std::vector<quint32> *colors)
        : m_colors(colors)
    {
        std::fill(std::begin(m_values), std::end(m_values), qint16(-1));
        colors->clear();
    }

    /// The palette index of `c`, added when it is new; -1 when it is new and the palette
    /// already holds 256 colours.
    int indexOf(quint32 c)
    {
        quint32 slot = (c * 2654435761u) >> 22; // Knuth multiplicative hash, 10 bits
        while (m_values[slot] >= 0 && m_keys[slot] != c)
            slot = (slot + 1) & (kSlots - 1);
        if (m_values[slot] < 0) {
            if (m_colors->size() == 256)
                return -1;
            m_keys[slot] = c;
            m_values[slot] = qint16(m_colors->size());
            m_colors->push_back(c);
        }
        return m_values[slot];
    }

private:
    static constexpr int kSlots = 1024; // power of two, 4× the most colours kept
    quint32 m_keys[kSlots];
    qint16 m_values[kSlots];
    std::vector<quint32> *m_colors;
};

/// Writes one RGB scanline of `width` opaque ARGB32 pixels to `out`: the filter byte 0,
/// then 3 bytes a pixel (1 + 3 × `width` bytes).
inline void packRgbScanline(const quint32 *pixels, int width, unsigned char *out)
{
    *out++ = 0;
    for (int x = 0; x < width; ++x, out += 3) {
        const quint32 c = pixels[x];
        out[0] = static_cast<unsigned char>(c >> 16);
        out[1] = static_cast<unsigned char>(c >> 8);
        out[2] = static_cast<unsigned char>(c);
    }
}

/// Default's snap (the rules are in png_snap.cpp) fused with packing, so the image is read twice in all (the
/// histogram, then this): writes the snapped pixels as palette indices into `indices`
/// with the colours in `colors` while they have at most 256 colours (8 bits an index:
/// see encodePng() on why never fewer), else as RGB
/// scanlines into `rgb` (filter byte 0 before each row). Returns nullopt when the image is
/// translucent or has too many colours to count, or when the snap left more than 256
/// colours where the source had at most 256 (the caller then encodes it exactly), else
/// whether the palette held. Deterministic: each pixel's fate depends only on the source.
std::optional<bool> snapAndPack(const QImage &image, SnapScratch *scratch, std::vector<unsigned char> *rgb,
                                std::vector<unsigned char> *indices, std::vector<quint32> *colors);

} // namespace imprint::render::pngsnap
