#pragma once
// What an API key may do (docs/api.md, "API key scopes"): one enum with ONE table of wire
// names. The service parses and stores scopes through it (server/service/api_key_service),
// the CLI's help lists it, and the console's create-key dialog shows one checkbox per row
// (gui/keydialogs.cpp). Header-only, here rather than in server/service so that the
// console, which reaches the server over HTTP only, offers the same scopes. Adding a scope
// is adding a row (and its checkbox label, which the compiler asks for).

#include "server/common/enum_names.h"

namespace imprint::common {

/// A scope an API key carries.
enum class KeyScope {
    Render, ///< render: /render
    Content, ///< content: the template, page, font and asset routes without a session
    Webhooks, ///< webhooks: the webhook routes without a session
};

/// The scopes' wire names, in their canonical order: the one list that parsing, the
/// refusal's message, the stored form, the CLI's help and the console derive from.
inline constexpr EnumNames<KeyScope, 3> kKeyScopeNames{{{
    {KeyScope::Render, "render"},
    {KeyScope::Content, "content"},
    {KeyScope::Webhooks, "webhooks"},
}}};

/// The scope a new key gets when none is named (docs/api.md: `scopes` defaults to
/// `["render"]`).
inline constexpr KeyScope kDefaultKeyScope = KeyScope::Render;

} // namespace imprint::common
