#pragma once
// What every libFuzzer harness of Imprint shares: a QGuiApplication on the offscreen
// platform (fonts and QImage need one), made once in LLVMFuzzerInitialize, and one render
// context, as a server keeps one for its lifetime.

#include "server/render/pipeline.h"
#include "server/render/render_context.h"
#include "server/render/resources/svg_sandbox.h"

#include <QGuiApplication>

#include <cstdlib>
#include <memory>

namespace imprint::fuzz {

/// The harnesses' render context.
inline render::RenderContext &context()
{
    static render::RenderContext c;
    return c;
}

/// Creates the application object the render code needs; call from LLVMFuzzerInitialize.
inline void initialize(int *argc, char ***argv)
{
    setenv("QT_QPA_PLATFORM", "offscreen", 1);
    // Made before the render context, so destroyed after it when libFuzzer exits.
    static QGuiApplication app(*argc, *argv);
    // QtSvg itself is under test, in this process: no sandboxed helper per input.
    render::SvgSandboxOptions inProcess;
    inProcess.enabled = false;
    render::setSvgSandboxOptions(inProcess);
    (void)context();
}

/// Parses `document` and runs it through style and layout the way a render does; the
/// result is thrown away: the harness looks only for crashes, leaks and undefined behaviour.
inline void layOutDocument(const QJsonObject &document)
{
    render::RenderRequest request;
    request.document = document;
    (void)render::layOut(request, context());
}

} // namespace imprint::fuzz
