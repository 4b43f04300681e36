// The JSON library's two doors: every JSON text the lab reads is parsed here and every JSON
// text it writes is written here (tests/node/json_doors.test.mjs keeps it so).
//
// nlohmann::json throws on bad input in its default forms: a parse error, or a string that
// is not UTF-8 when it writes. An exception that nothing catches aborts the WebAssembly
// instance, and the page goes blank. So the lab uses only the non-throwing forms, and
// checks before the library sees the text:
//   1 strict UTF-8 (core/base/utf8.h, the one decoder): overlongs, surrogates, values above
//     U+10FFFF and cut sequences are refused, with the offset of the first bad byte;
//   2 nesting depth (core/base/json_nesting.h), bounded by the caller: the writer recurses
//     once per level, and a few thousand levels overflow the stack;
//   3 the parse itself without exceptions (a number out of double's range, such as 1e999,
//     is a parse error there, so no infinity comes out).
// Writing replaces bytes that are not UTF-8 with U+FFFD instead of throwing: text that
// entered through a door is valid already, and anything else (a file's name in a message)
// is still written.
#pragma once

#include "core/base/types.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>

namespace attn {

// Parses `text` into `out` after checks 1 and 2 (max_depth levels of arrays and objects).
// A text that is not JSON is refused with `not_json`. On refusal `out` is left unchanged.
Status parse_json(std::string_view text, int max_depth, const MessageText& not_json, nlohmann::json& out);

// The value as JSON text (indent < 0: compact); never throws.
std::string json_text(const nlohmann::json& value, int indent = -1);

// A row-major rows x cols table of floats as an array of rows, null where a value is not
// finite (JSON has no NaN or infinity: a masked score, a fraction that is undefined).
nlohmann::json rows_json(const float* values, int rows, int cols);

}  // namespace attn
