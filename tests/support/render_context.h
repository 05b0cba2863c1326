#pragma once
// The render context the render suites share: what a server keeps for its lifetime, one
// per test process here too. A test that asserts cache counters makes its own.

#include "server/render/render_context.h"

namespace imprint::test {

/// The suite's render context (emoji sets from $IMPRINT_EMOJI_DIR or the per-user default).
inline render::RenderContext &renderContext()
{
    static render::RenderContext context;
    return context;
}

} // namespace imprint::test
