#pragma once
// The error type of the render pipeline: what every stage reports when an input cannot
// be rendered. The HTTP layer maps the code to a problem+json status in one table
// (server/http/problem.cpp).

#include "server/common/enum_names.h"

#include <QString>

#include <optional>

namespace imprint::render {

/// Every code a render stage reports. The wire names (renderErrorCodeName()) are the
/// problem+json `code` values clients see.
enum class RenderErrorCode {
    InvalidTemplate, ///< invalid_template: the document is malformed
    InvalidVariable, ///< invalid_variable: a value does not fit its variable's type
    UnknownVariable, ///< unknown_variable: a tweak or page value names no variable
    ValueTooLong, ///< value_too_long: a variable value is over its length limit
    TooDeep, ///< too_deep: elements nest deeper than the limit
    TooManyNodes, ///< too_many_nodes: more elements than the limit
    InvalidSize, ///< invalid_size: width/height out of range
    InvalidEngine, ///< invalid_engine: an engine name the pipeline does not know
    InvalidEmojiType, ///< invalid_emoji_type: an emoji set the renderer does not have
    RenderBudgetExceeded, ///< render_budget_exceeded: the render would cost more than allowed
    EncodeFailed, ///< encode_failed: the encoder failed (our fault, not the input's)
    RenderCancelled, ///< render_cancelled: stopped because the server is shutting down or nobody waits
    ImageUnavailable, ///< image_unavailable: a remote image did not load (no answer, non-2xx, timeout, not an image)
    ImageRefused, ///< image_refused: the remote image policy forbids an image URL (scheme, address, redirect)
    ImageTooLarge, ///< image_too_large: a remote image is over the byte or pixel limit
    EngineUnavailable, ///< engine_unavailable: the engine needs a program the server does not have (Chromium)
    EngineBusy, ///< engine_busy: the engine's queue is full; try again shortly
    EngineStarting, ///< engine_starting: the engine's browser is starting (or restarting); try again shortly
};

/// The codes' wire names.
inline constexpr common::EnumNames<RenderErrorCode, 18> kRenderErrorCodeNames{{{
    {RenderErrorCode::InvalidTemplate, "invalid_template"},
    {RenderErrorCode::InvalidVariable, "invalid_variable"},
    {RenderErrorCode::UnknownVariable, "unknown_variable"},
    {RenderErrorCode::ValueTooLong, "value_too_long"},
    {RenderErrorCode::TooDeep, "too_deep"},
    {RenderErrorCode::TooManyNodes, "too_many_nodes"},
    {RenderErrorCode::InvalidSize, "invalid_size"},
    {RenderErrorCode::InvalidEngine, "invalid_engine"},
    {RenderErrorCode::InvalidEmojiType, "invalid_emoji_type"},
    {RenderErrorCode::RenderBudgetExceeded, "render_budget_exceeded"},
    {RenderErrorCode::EncodeFailed, "encode_failed"},
    {RenderErrorCode::RenderCancelled, "render_cancelled"},
    {RenderErrorCode::ImageUnavailable, "image_unavailable"},
    {RenderErrorCode::ImageRefused, "image_refused"},
    {RenderErrorCode::ImageTooLarge, "image_too_large"},
    {RenderErrorCode::EngineUnavailable, "engine_unavailable"},
    {RenderErrorCode::EngineBusy, "engine_busy"},
    {RenderErrorCode::EngineStarting, "engine_starting"},
}}};

/// The wire name of `code` ("invalid_template", ...).
inline QString renderErrorCodeName(RenderErrorCode code)
{
    return kRenderErrorCodeNames.name(code);
}

/// The code whose wire name is `name`; std::nullopt for a name no stage reports.
inline std::optional<RenderErrorCode> parseRenderErrorCode(const QString &name)
{
    return kRenderErrorCodeNames.parse(name);
}

/// A problem found while reading a template, a style or a variable. `field` names the
/// offending input the way a user would find it (e.g. `root.props.children[2].props.style.width`,
/// `tweaks.title`); `code` says which rule the input broke.
struct RenderError {
    QString field;
    QString message;
    RenderErrorCode code = RenderErrorCode::InvalidTemplate;

    /// The code's wire name ("invalid_template", ...): the problem+json `code`.
    QString codeName() const { return renderErrorCodeName(code); }
};

} // namespace imprint::render
