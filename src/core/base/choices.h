// A choice of the lab (an efficient variant, a positional scheme, a score function, ...) is
// one table: a constexpr array of rows in the order of its enum, each row with the value
// (`value`), its public name (`name`: state, URLs, CLI, JS) and the value's properties as
// further columns. Everything that maps a value to its name or back, lists the names or asks
// a property reads the table through these helpers; nothing else spells the names.
//
//   choice_from_name(table, "rope")          the row named so, or nullptr
//   choice_row(table, Positional::Rope)      the value's row
//   choice_names_joined(table, ", ")         "none, sinusoidal, rope, alibi"
//   join_names(choice_names(table), ", ", " or ")   "none, sinusoidal, rope or alibi"
//   choice_names(table, keep)                the names of the rows keep(row) accepts
//   quoted_names(table)                      "\"none\", \"sinusoidal\", \"rope\", \"alibi\""
// Each table is checked once where it is defined: static_assert(choices_in_order(kTable)).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

// A row of a choice that has a name and nothing else.
template <class E>
struct NamedChoice {
  E value;
  const char* name;
};

// X(value, ...) -> value, : the enumerators of a table's X-macro (its first column).
#define ATTNLAB_CHOICE_ENUMERATOR(value, ...) value,

// True when row i holds the enumerator of value i (so choice_row can index the table).
template <class Row, std::size_t N>
constexpr bool choices_in_order(const Row (&table)[N]) {
  for (std::size_t i = 0; i < N; ++i)
    if (static_cast<std::size_t>(table[i].value) != i) return false;
  return true;
}

template <class Row, std::size_t N>
const Row* choice_from_name(const Row (&table)[N], std::string_view name) {
  for (const Row& row : table)
    if (name == row.name) return &row;
  return nullptr;
}

template <class Row, std::size_t N, class E>
constexpr const Row& choice_row(const Row (&table)[N], E value) {
  return table[static_cast<std::size_t>(value)];
}

template <class Row, std::size_t N, class Keep>
std::vector<std::string> choice_names(const Row (&table)[N], Keep keep) {
  std::vector<std::string> names;
  for (const Row& row : table)
    if (keep(row)) names.push_back(row.name);
  return names;
}

template <class Row, std::size_t N>
std::vector<std::string> choice_names(const Row (&table)[N]) {
  return choice_names(table, [](const Row&) { return true; });
}

// "a, b, c", or with a last separator " or ": "a, b or c".
inline std::string join_names(const std::vector<std::string>& names, std::string_view separator,
                              std::string_view last_separator = {}) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() && !last_separator.empty() ? last_separator : separator;
    out += names[i];
  }
  return out;
}

template <class Row, std::size_t N, class Keep>
std::string choice_names_joined(const Row (&table)[N], std::string_view separator, Keep keep) {
  return join_names(choice_names(table, keep), separator);
}

template <class Row, std::size_t N>
std::string choice_names_joined(const Row (&table)[N], std::string_view separator) {
  return join_names(choice_names(table), separator);
}

// "\"none\", \"sinusoidal\", ...": the names as JSON strings, for the state's messages.
template <class Row, std::size_t N>
std::string quoted_names(const Row (&table)[N]) {
  std::vector<std::string> names = choice_names(table);
  for (std::string& name : names) name = '"' + name + '"';
  return join_names(names, ", ");
}

}  // namespace attn
