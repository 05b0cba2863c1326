// libFuzzer harness: an untrusted SVG image through the sanitiser and, when it is
// accepted, the image decoder (QtSvg at a small size), as an <img> data: URL is.
#include "server/render/resources/image_decoder.h"
#include "server/render/resources/svg_sanitizer.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    imprint::fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    if (!imprint::render::sanitizeSvg(bytes))
        return 0;
    imprint::render::ImageDecodeLimits limits;
    limits.maxSide = 256; // the sanitiser is under test, not QtSvg's speed on big canvases
    (void)imprint::render::decodeImage(bytes, limits);
    return 0;
}
