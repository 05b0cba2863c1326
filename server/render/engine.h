#pragma once
// The paint engines a template or a request can choose (the enum and its one name table
// are in server/common/render_enums.h, which the console shares), and the default.
// Header-only so every stage (the template parser included) can use it without linking
// the pipeline.

#include "server/common/render_enums.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace imprint::render {

/// The engine of a template that names none, and of a request that names none for a
/// template that names none.
inline constexpr Engine kDefaultEngine = Engine::Satori;

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
