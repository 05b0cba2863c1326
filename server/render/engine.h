#pragma once
// The paint engines a template or a request can choose, named once. The names are the
// wire names of the `renderType` request field and the template's `rendererType`:
//   satori  vector: a standalone SVG (text as outlines), rasterised for PNG/WebP
//   takumi  raster: QPainter onto an image
//   html    QTextDocument over the template's `html` source
// Header-only so every stage (the template parser included) can use it without linking
// the pipeline.

#include <QString>
#include <QStringList>

#include <array>
#include <optional>

namespace imprint::render {

/// A paint engine.
enum class Engine { Satori, Takumi, Html };

/// The engine of a template that names none, and of a request that names none for a
/// template that names none.
inline constexpr Engine kDefaultEngine = Engine::Satori;

namespace detail {
struct EngineName {
    Engine engine;
    const char *name;
};
inline constexpr std::array<EngineName, 3> kEngineNames{{
    {Engine::Satori, "satori"},
    {Engine::Takumi, "takumi"},
    {Engine::Html, "html"},
}};
} // namespace detail

/// The wire name of `engine` ("satori", "takumi", "html").
inline QString engineName(Engine engine)
{
    for (const auto &e : detail::kEngineNames) {
        if (e.engine == engine)
            return QString::fromLatin1(e.name);
    }
    return {};
}

/// The engine called `name`, exactly as spelled in engineNames() (callers that accept
/// any case lower-case first); std::nullopt for anything else.
inline std::optional<Engine> parseEngine(const QString &name)
{
    for (const auto &e : detail::kEngineNames) {
        if (name == QLatin1String(e.name))
            return e.engine;
    }
    return std::nullopt;
}

/// Every wire name, in the order of the enum: for error messages and pickers.
inline QStringList engineNames()
{
    QStringList names;
    for (const auto &e : detail::kEngineNames)
        names << QString::fromLatin1(e.name);
    return names;
}

} // namespace imprint::render
