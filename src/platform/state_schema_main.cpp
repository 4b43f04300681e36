// Prints the state's schema (app/state_schema.h: state_schema_json(), the table of the state's
// keys with their kinds, ranges, choices and defaults) on stdout. The web build runs it under Node
// and writes the npm package's state types from it (cmake/steps/make-site.mjs, step 6), so a key
// added to the table appears in the types by itself. Not part of the site.
#include "app/app_state.h"

#include <cstdio>
#include <string>

int main() {
  const std::string schema = attn::state_schema_json();
  std::fwrite(schema.data(), 1, schema.size(), stdout);
  std::fputc('\n', stdout);
  return 0;
}
