// How deep JSON text nests, measured on the bytes before any JSON parser sees them: the
// doors of the lab (a link's values, a stored session, setState, postMessage) bound the
// depth first, so a value of a few thousand '[' is refused at once instead of reaching a
// parser or a writer that recurses once per level (a stack overflow in WebAssembly stops the
// whole page). It is not a parser: it only follows strings (and their escapes) so that a
// bracket inside a string does not count; whether the text is valid JSON is the parser's
// business afterwards.
#pragma once

#include <cstddef>
#include <string_view>

namespace attn {

// The byte offset of the bracket that opens level max_depth + 1 ('[' or '{' at top level
// opens level 1), or std::string_view::npos when the text never nests deeper than max_depth.
std::size_t json_nesting_past(std::string_view text, int max_depth);

}  // namespace attn
