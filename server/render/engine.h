#pragma once
// The paint engines a template or a request can choose, named once. The names are the
// wire names of the `renderType` request field and the template's `rendererType`:
//   satori  vector: a standalone SVG (text as outlines), rasterised for PNG/WebP
//   takumi  raster: QPainter onto an image
//   html    QTextDocument over the template's `html` source
// Header-only so every stage (the template parser included) can use it without linking
// the pipeline.

#include "server/render/enum_names.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace imprint::render {

/// A paint engine.
enum class Engine { Satori, Takumi, Html };

/// The engine of a template that names none, and of a request that names none for a
/// template that names none.
inline constexpr Engine kDefaultEngine = Engine::Satori;

/// The engines' wire names, in the order error messages and pickers list them.
inline constexpr EnumNames<Engine, 3> kEngineNames{{{
    {Engine::Satori, "satori"},
    {Engine::Takumi, "takumi"},
    {Engine::Html, "html"},
}}};

/// The wire name of `engine` ("satori", "takumi", "html").
inline QString engineName(Engine engine)
{
    return kEngineNames.name(engine);
}

/// The engine called `name`, exactly as spelled in engineNames() (callers that accept
/// any case lower-case first); std::nullopt for anything else.
inline std::optional<Engine> parseEngine(const QString &name)
{
    return kEngineNames.parse(name);
}

/// Every wire name, in the order of the enum: for error messages and pickers.
inline QStringList engineNames()
{
    return kEngineNames.names();
}

} // namespace imprint::render
