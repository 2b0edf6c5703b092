// libFuzzer target: OTF (version 1) event records (formats/otf through libotf), as the
// event file of the trace's one stream; see otf_archive_input.h for what is checked.
#include "otf_archive_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  earl::fuzz::read_otf_with("trace.1.events", data, size);
  return 0;
}
