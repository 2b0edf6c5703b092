// libFuzzer target: the described-format decoder on any file, read through one of the
// shipped descriptions (python/earl/descriptions/), opened through the format registry as
// `earl` opens it. The first byte picks the description ('a' alog, 'p' pipit_csv, else
// sample_binary), the rest is the trace. The decoder must end, throw only EarlError, and
// read every event again after a seek to the position saved before it.
#include <cstdint>
#include <string>

#include "decoded_events.h"
#include "model/error.h"
#include "registry/format_registry.h"
#include "scratch_dir.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace earl;
  if (size == 0) return 0;
  const char* name = data[0] == 'a' ? "alog" : data[0] == 'p' ? "pipit_csv" : "sample_binary";
  const auto path = fuzz::scratch_dir() / "input.trace";
  fuzz::write_file(path, data + 1, size - 1);
  try {
    auto decoder = open_decoder(path.string(), std::string("described:") + EARL_DESCRIPTIONS_DIR + "/" + name + ".toml");
    std::vector<DecoderPosition> positions;
    const std::vector<Event> events = fuzz::decode_all(*decoder, &positions);
    fuzz::check_seeks(*decoder, events, positions);
  } catch (const EarlError&) {
    // Bad input is reported as EarlError: the outcome wanted.
  }
  return 0;
}
