// libFuzzer target: OTF2 global definitions (formats/otf2 through libotf2), as the
// archive's traces.def file; see otf2_archive_input.h for what is checked.
#include "otf2_archive_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  earl::fuzz::read_archive_with("traces.def", data, size);
  return 0;
}
