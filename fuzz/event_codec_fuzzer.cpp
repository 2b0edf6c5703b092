// libFuzzer target: the event cache's codec (cache/event_codec.h) on any bytes, read as a
// stream of encoded events the way the cache reads a location's block. Whatever it
// decodes stays inside the input, agrees with peek_tick(), and encodes (within
// kMaxEncodedEvent bytes) to bytes that decode to the same event.
#include <cstdint>
#include <vector>

#include "cache/event_codec.h"
#include "decoded_events.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace earl;
  using fuzz::require;
  const std::uint8_t* at = data;
  const std::uint8_t* end = data + size;
  std::uint64_t tick = 0;
  while (at < end) {
    Event event;
    std::uint64_t next_tick = 0;
    const std::size_t used = decode_event(at, end, tick, event, next_tick);
    if (used == 0) break;  // not a whole event: the cache stops reading this block here
    require(used <= static_cast<std::size_t>(end - at), "decoding stays inside the input");
    std::uint64_t peeked = 0;
    require(peek_tick(at, end, tick, peeked) && peeked == next_tick, "peek_tick agrees with decode_event");

    // An exact-size heap buffer: an encoding longer than kMaxEncodedEvent is an ASan report.
    std::vector<std::uint8_t> encoded(kMaxEncodedEvent);
    const std::size_t length = encode_event(event, next_tick, tick, encoded.data());
    require(length <= kMaxEncodedEvent && length <= used, "re-encoding is no longer than the bytes decoded");
    Event again;
    std::uint64_t again_tick = 0;
    require(decode_event(encoded.data(), encoded.data() + length, tick, again, again_tick) == length,
            "a re-encoded event decodes whole");
    require(again_tick == next_tick && fuzz::same_event(again, event), "a re-encoded event decodes to itself");

    tick = next_tick;
    at += used;
  }
  return 0;
}
