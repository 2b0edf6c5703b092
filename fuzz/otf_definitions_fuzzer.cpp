// libFuzzer target: OTF (version 1) definitions (formats/otf through libotf), as the
// definitions file of the trace; see otf_archive_input.h for what is checked.
#include "otf_archive_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  earl::fuzz::read_otf_with("trace.0.def", data, size);
  return 0;
}
