// libFuzzer harness: the sandboxed SVG rasteriser's pipe (server/render/resources/
// svg_raster.h, issue 34 item 8) from both ends: what the helper reads as a job, and what
// the server reads back as an answer (the helper is untrusted too), checked against a job's
// bounds before any image is allocated. Looks for crashes, huge allocations and undefined
// behaviour; an accepted answer must have the size the job allows.
#include "server/render/resources/svg_raster.h"
#include "tests/fuzz/fuzz_harness.h"

#include <cstdlib>

void imprint::fuzz::fuzzOne(QByteArrayView input)
{
    using namespace imprint::render;
    const QByteArray bytes = input.toByteArray();
    if (const auto job = decodeSvgRasterJob(bytes))
        (void)encodeSvgRasterJob(*job);
    SvgRasterJob bounds;
    bounds.maxSide = 64;
    bounds.maxPixels = 64 * 64;
    for (SvgRasterMode mode : {SvgRasterMode::Natural, SvgRasterMode::Stretch}) {
        bounds.mode = mode;
        bounds.size = QSize(8, 8);
        const auto answer = decodeSvgRasterAnswer(bytes, bounds);
        if (answer && (answer->width() > 64 || answer->height() > 64
                       || (mode == SvgRasterMode::Stretch && answer->size() != QSize(8, 8))))
            std::abort();
    }
}
