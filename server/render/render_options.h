#pragma once
// How to render a page: the options a client chooses (docs/api.md, "Page renders"), one
// value parsed once at each transport edge (the HTTP body and query string and the signed
// URL in server/http/routes/render.cpp, the CLI flags in server/app/commands/cli_render.cpp)
// and carried unchanged through the page-render use case into render::RenderRequest and on
// to the backend and the encoder. Enums are already parsed here: nothing between the edge
// and the encoder reads an engine or a format name again.

#include "server/common/expected.h"
#include "server/common/render_enums.h"
#include "server/render/encode/encode.h"
#include "server/render/engine.h"
#include "server/render/error.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace imprint::render {

/// The device scale factors a render may ask for (RenderOptions::scale).
constexpr double kMinRenderScale = 1;
constexpr double kMaxRenderScale = 3;

/// A page render's options. A field left at its default (nullopt, 0) takes the template's
/// value, else the pipeline's default.
struct RenderOptions {
    /// The paint engine; nullopt: the template's `rendererType` when it names one, else
    /// kDefaultEngine.
    std::optional<Engine> engine;
    OutputFormat format = OutputFormat::Png;
    int width = 0, height = 0; ///< px, 0 = the template's size
    /// Device scale factor (kMinRenderScale–kMaxRenderScale): the image is width × scale
    /// by height × scale px, the layout the same as at 1. The html engine (Chromium) and
    /// takumi honour it; satori and Qt's rich text refuse anything but 1 (invalid_engine,
    /// field `scale`).
    double scale = 1;
    int quality = 90; ///< WebP, JPEG and AVIF quality 1–100
    bool lossless = false; ///< WebP lossless
    int speed = kDefaultAvifSpeed; ///< AVIF encoder speed 0–10
    /// PNG size/speed tier; nullopt = the template's `compression`, else Default.
    std::optional<PngCompression> compression;
    /// Emoji set; nullopt = the template's `emojiType` (default twemoji).
    std::optional<EmojiSet> emojiSet;
    QJsonObject tweaks; ///< per-request variable overrides, name → value
};

/// The engine called `name` (any case, trimmed) for an edge that reports a bad name as the
/// pipeline's error: field `engine`, code `invalid_engine`, "unknown engine 'NAME' (satori,
/// takumi, html)".
common::Expected<Engine, RenderError> parseEngineOption(const QString &name);

/// The emoji set called `name` (any case, trimmed) for an edge that reports a bad name as
/// the pipeline's error: field `emojiType`, code `invalid_emoji_type`, "unknown emojiType
/// 'NAME' (twemoji, openmoji or noto)".
common::Expected<EmojiSet, RenderError> parseEmojiSetOption(const QString &name);

} // namespace imprint::render
