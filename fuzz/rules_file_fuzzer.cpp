// libFuzzer target: the rules-file reader of `e:check` (Lua) and `e check` (Tcl) on any
// text. It must end and throw only EarlError (toml++'s parse errors are turned into it).
#include <cstdint>
#include <string_view>

#include "model/error.h"
#include "query/rules_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    (void)earl::query::parse_rules(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.toml");
  } catch (const earl::EarlError&) {
    // Bad rules files are reported as EarlError: the outcome wanted.
  }
  return 0;
}
