// libFuzzer target: OTF2 event records (formats/otf2 through libotf2), as the event file
// of the archive's first location; see otf2_archive_input.h for what is checked.
#include "otf2_archive_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  earl::fuzz::read_archive_with("traces/0.evt", data, size);
  return 0;
}
