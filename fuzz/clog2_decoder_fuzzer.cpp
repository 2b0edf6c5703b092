// libFuzzer target: the CLOG2 decoder (formats/clog2) on any bytes, opened through the
// format registry as `earl` opens a file. The decoder must end, throw only EarlError, and
// read every event again after a seek to the position saved before it; a file it reads as
// damaged must fail when read strictly, and a decoder restored from the state it saved
// (the persisted index) must read the same events without a pass of its own.
#include <cstdint>

#include "decoded_events.h"
#include "model/error.h"
#include "registry/format_registry.h"
#include "scratch_dir.h"

namespace {

void check_strict_fails(const std::string& path) {
  using namespace earl;
  ReadOptions strict;
  strict.strict = true;
  bool failed = false;
  try {
    auto decoder = open_decoder(path, "clog2", true, strict);
    fuzz::decode_all(*decoder);
  } catch (const EarlError&) {
    failed = true;
  }
  fuzz::require(failed, "a damaged file fails when read strictly");
}

void check_restored(const std::string& path, const earl::TraceDecoder& decoder,
                    const std::vector<earl::Event>& events) {
  using namespace earl;
  DecoderState state;
  if (!decoder.save_state(state)) return;
  auto restored = open_decoder(path, "clog2", true, state);
  const std::vector<Event> again = fuzz::decode_all(*restored);
  fuzz::require(again.size() == events.size(), "a restored decoder reads as many events");
  for (std::size_t i = 0; i < events.size(); ++i)
    fuzz::require(fuzz::same_event(again[i], events[i]), "a restored decoder reads the same events");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace earl;
  const auto path = fuzz::scratch_dir() / "input.clog2";
  fuzz::write_file(path, data, size);
  try {
    auto decoder = open_decoder(path.string(), "clog2");
    std::vector<DecoderPosition> positions;
    const std::vector<Event> events = fuzz::decode_all(*decoder, &positions);
    fuzz::check_seeks(*decoder, events, positions);
    if (!decoder->damage().empty()) check_strict_fails(path.string());
    check_restored(path.string(), *decoder, events);
  } catch (const EarlError&) {
    // Bad input is reported as EarlError: the outcome wanted.
  }
  return 0;
}
