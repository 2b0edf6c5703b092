#pragma once
// The property of every format read both directly and through the event cache (OTF2, OTF):
// each way ends with events or an EarlError, the direct reader reads each event again after a
// seek to the position saved before it, and where both read the trace they read the same.
#include <optional>
#include <string>
#include <vector>

#include "decoded_events.h"
#include "model/error.h"
#include "registry/format_registry.h"

namespace earl::fuzz {

// The events of the trace at `anchor` read with `cache`, or nothing when it is rejected.
inline std::optional<std::vector<Event>> read_through(const std::string& anchor, const std::string& format,
                                                      bool cache) {
  try {
    auto decoder = open_decoder(anchor, format, cache);
    std::vector<DecoderPosition> positions;
    std::vector<Event> events = decode_all(*decoder, &positions);
    if (!cache) check_seeks(*decoder, events, positions);
    return events;
  } catch (const EarlError&) {
    return std::nullopt;
  }
}

inline void require_direct_and_cached_agree(const std::string& anchor, const std::string& format) {
  const auto direct = read_through(anchor, format, false);
  const auto cached = read_through(anchor, format, true);
  if (direct && cached) {
    require(direct->size() == cached->size(), "the direct reader and the cache read as many events");
    for (std::size_t i = 0; i < direct->size(); ++i)
      require(same_event((*direct)[i], (*cached)[i]), "the direct reader and the cache read the same events");
  }
}

}  // namespace earl::fuzz
