// libFuzzer target: the EPILOG decoder (formats/epilog) on any bytes, opened through the
// format registry as `earl` opens a file. The decoder must end, throw only EarlError, and
// read every event again after a seek to the position saved before it.
#include <cstdint>

#include "decoded_events.h"
#include "model/error.h"
#include "registry/format_registry.h"
#include "scratch_dir.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace earl;
  const auto path = fuzz::scratch_dir() / "input.elg";
  fuzz::write_file(path, data, size);
  try {
    auto decoder = open_decoder(path.string(), "epilog");
    std::vector<DecoderPosition> positions;
    const std::vector<Event> events = fuzz::decode_all(*decoder, &positions);
    fuzz::check_seeks(*decoder, events, positions);
  } catch (const EarlError&) {
    // Bad input is reported as EarlError: the outcome wanted.
  }
  return 0;
}
