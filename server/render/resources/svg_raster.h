#pragma once
// Drawing one sanitised SVG document into pixels with QtSvg, and the byte format in which
// a job and its answer cross the pipe to the sandboxed helper (svg_sandbox.h, issue 34
// item 8). drawSvgJob() draws untrusted SVG in this process when the sandbox is off; the
// helper (server/svg_raster/) draws the same jobs with librsvg instead (rsvg_draw.h: the
// same sizes and placement, plus the clipPath, mask and filter QtSvg 6.4 ignores), so
// librsvg is never loaded into the server.
//
// Why a byte format of our own: the job is a mode, two sizes and the document; the answer
// is a size and raw premultiplied ARGB32 rows. QDataStream frames the few numbers; the
// pixels follow as they are (a PNG would cost an encode and a decode per image).

#include "server/common/expected.h"

#include <QByteArray>
#include <QImage>
#include <QList>
#include <QRectF>
#include <QSize>
#include <QString>

#include <optional>

namespace imprint::render {

/// The pipe's framing (svg_raster_protocol.cpp writes it, decodeSvgRasterAnswer() reads it).
namespace svg_raster_format {
constexpr quint32 kJobMagic = 0x49535232; // "ISR2": with fonts
constexpr quint32 kAnswerMagic = 0x49534131; // "ISA1"
constexpr qint64 kMaxErrorBytes = 4096;
constexpr qint64 kAnswerHeaderBytes = 4 + 1 + 4 + 4; ///< magic, status, width, height
} // namespace svg_raster_format

/// How the document is sized and placed.
enum class SvgRasterMode : quint8 {
    Natural = 1, ///< at its intrinsic size (width/height, else viewBox, else 300×150), QSvgRenderer's own mapping
    NaturalViewport, ///< intrinsic size, the viewBox placed by preserveAspectRatio (inline `<svg>`)
    Stretch, ///< into `size` px, the viewBox stretched to it (an `img` drawn at device size)
    Viewport, ///< into `size` px, the viewBox placed by preserveAspectRatio
};

/// An affine map from the target's coordinates to the image's pixels, as QTransform's
/// (x' = m11·x + m21·y + dx, y' = m12·x + m22·y + dy). Plain numbers: the helper reads them
/// without Qt GUI.
struct SvgRasterMatrix {
    double m11 = 1, m12 = 0, m21 = 0, m22 = 1, dx = 0, dy = 0;
    bool isIdentity() const { return m11 == 1 && m12 == 0 && m21 == 0 && m22 == 1 && dx == 0 && dy == 0; }
};

/// One face of a space's uploaded fonts that an inline svg's text may name
/// (docs/fonts-and-images.md): the helper adds it to its fontconfig under `family`, so that
/// librsvg's text finds it as the page's text does (CSS Fonts 4 §4: an inline svg's text
/// uses the document's fonts; an `img` of an SVG gets none, as in browsers).
struct SvgRasterFont {
    QString family; ///< the name templates use ("Brand")
    int weight = 0; ///< CSS weight 1–1000; 0: the file's own (a variable face)
    bool italic = false;
    QString fileFamily; ///< the family the sfnt carries (its internal family, internalFamilyFor())
    QByteArray sfnt; ///< TrueType/OpenType bytes
};

/// One document to draw. `svg` must already be sanitised (sanitizeSvg()).
struct SvgRasterJob {
    QByteArray svg;
    SvgRasterMode mode = SvgRasterMode::Natural;
    QSize size; ///< px; Stretch and Viewport only
    /// Stretch and Viewport: where in the `size` px image the document's viewport goes, px
    /// (fractional: an element at a fractional position drawn on the device's pixel grid);
    /// empty: the whole image.
    QRectF target;
    /// Viewport: the target drawn through this map (an inline `<svg>` under a CSS rotation,
    /// drawn as vectors onto the device's pixels rather than resampled from a raster).
    SvgRasterMatrix matrix;
    /// Faces the document's text may name (inline svgs only); the helper draws with
    /// librsvg, which sees only fontconfig's fonts, not Qt's application fonts.
    QList<SvgRasterFont> fonts;
    int maxSide = 8192; ///< px, either side of the image drawn
    qint64 maxPixels = 8192LL * 4096; ///< px, width × height of the image drawn
};

/// Whether `mode` draws the document at its intrinsic size (Natural, NaturalViewport).
inline bool isNatural(SvgRasterMode mode)
{
    return mode == SvgRasterMode::Natural || mode == SvgRasterMode::NaturalViewport;
}

/// Where in the `size` px image `job`'s document goes: the whole image at its natural
/// size or without a target, else the job's target (px). Both drawers place it so.
inline QRectF targetBox(const SvgRasterJob &job, QSize size)
{
    return isNatural(job.mode) || job.target.isEmpty() ? QRectF(QPointF(0, 0), QSizeF(size)) : job.target;
}

/// Why an image of `size` px is refused when a side may be at most `maxSide` px and its
/// area at most `maxPixels` px (one sentence, as the decoder and the SVG helper say it);
/// nullopt when it is allowed.
std::optional<QString> imageSizeRefusal(QSize size, int maxSide, qint64 maxPixels);

/// Draws `job` into a Format_ARGB32_Premultiplied image (transparent background, as
/// decodeImage() always drew SVG), with QtSvg. Errors (one sentence): QtSvg cannot read
/// the document, or the size is over the job's bounds (checked before any pixel is
/// allocated).
common::Expected<QImage, QString> drawSvgJob(const SvgRasterJob &job);

/// `job` as the helper reads it on standard input.
QByteArray encodeSvgRasterJob(const SvgRasterJob &job);
/// The job in `bytes`; nullopt when they are not one (truncated, another version).
std::optional<SvgRasterJob> decodeSvgRasterJob(const QByteArray &bytes);

/// The helper's answer: the image drawn, or why not.
QByteArray encodeSvgRasterAnswer(const common::Expected<QImage, QString> &answer);
/// The helper's answer of an image drawn: `width`×`height` px of premultiplied ARGB32,
/// rows `stride` bytes apart from `bits` (what encodeSvgRasterAnswer() writes for an
/// image, without one: the helper links Qt Core only).
QByteArray encodeSvgRasterPixels(int width, int height, const uchar *bits, qsizetype stride);
/// The helper's answer of an image not drawn: `why`, one sentence.
QByteArray encodeSvgRasterRefusal(const QString &why);

/// The answer in `bytes`, checked against `job`'s bounds before the image is allocated
/// (the helper is not trusted either). An error names what was wrong with the answer when
/// it is malformed.
common::Expected<QImage, QString> decodeSvgRasterAnswer(const QByteArray &bytes, const SvgRasterJob &job);

/// The most bytes an answer to `job` can take (header and pixels): the parent stops
/// reading and ends the helper past it.
qint64 maxSvgRasterAnswerBytes(const SvgRasterJob &job);

} // namespace imprint::render
