// The state in a URL fragment, for links, embeds and "copy link".
//
// A fragment lists only the settings that differ from the defaults, one `path=value` pair
// per setting, joined by '&': `v=2&sentence=a%20b%20c&mask.causal=true&lab.q=[1,2.5]`.
// The path walks settings_to_json()'s objects with dots; the value is JSON text (numbers
// in their shortest exact form), except that a string which is not itself JSON text is
// written bare. Nothing here knows the keys: a key another part of the app adds to the
// schema round-trips without changes to this file.
//
// Decoding builds a JSON patch and hands it to apply_state_json() on top of the defaults,
// so a link is validated by exactly the rules that validate the UI, and links of an older
// schema version (`v=1`) are migrated there.
#pragma once

#include "app/app_state.h"

#include <string>

namespace attn {

inline constexpr std::size_t kMaxFragmentBytes = 1 << 20;

// "v=<version>&..." for the current settings (no leading '#').
std::string settings_to_fragment(const Settings& settings);

// Decodes a fragment (with or without a leading '#') into a settings patch (JSON object
// text). Refuses malformed pairs, bad percent escapes, duplicate or conflicting paths.
Status fragment_to_patch(const std::string& fragment, std::string& patch_json);

// Replaces the settings with the defaults changed by a settings JSON object (a session
// file, a stored session). On error the state is unchanged and the error says why.
Status load_settings_json(AppState& state, const std::string& json_text);

// Sets the state to the defaults changed by the fragment. On any error the settings are
// the defaults and state.notice says why the link was ignored; the error is returned.
Status load_fragment(AppState& state, const std::string& fragment);

}  // namespace attn
