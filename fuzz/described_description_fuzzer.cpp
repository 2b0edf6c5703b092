// libFuzzer target: the format-description loader (formats/described) on any text, as
// `earl describe --check` and opening a "described:" trace read it. It must end and
// throw only EarlError (toml++'s parse errors and std::regex's are turned into it).
#include <cstdint>
#include <string_view>

#include "formats/described/description_loader.h"
#include "model/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace earl;
  try {
    const Description d = parse_description(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.toml");
    (void)description_outline(d);
  } catch (const EarlError&) {
    // Bad descriptions are reported as EarlError: the outcome wanted.
  }
  return 0;
}
