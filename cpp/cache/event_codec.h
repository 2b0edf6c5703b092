#pragma once
#include <cstddef>
#include <cstdint>

#include "model/event.h"

namespace earl {

// A compact, lossless encoding of one event of a location's stream for the event cache:
// the kind, then only the attributes that differ from a default Event, integers as
// variable-length numbers and the timestamp as a delta to the location's previous one.
// pos, loc, time, enterptr are not stored: the reader knows the location, derives the
// time from the timestamp, and the trace state sets the pointers.
constexpr std::size_t kMaxEncodedEvent = 96;

// Writes at most kMaxEncodedEvent bytes to `out`; returns how many.
std::size_t encode_event(const Event& event, std::uint64_t tick, std::uint64_t previous_tick,
                         std::uint8_t* out);

// Reads one event from [in, end); returns the bytes used, or 0 when the bytes there are
// not a whole event. Sets every attribute encode_event() stores and `tick`.
std::size_t decode_event(const std::uint8_t* in, const std::uint8_t* end,
                         std::uint64_t previous_tick, Event& event, std::uint64_t& tick);

// Reads only the timestamp of the event at [in, end); false when it is not readable.
bool peek_tick(const std::uint8_t* in, const std::uint8_t* end, std::uint64_t previous_tick,
               std::uint64_t& tick);

}  // namespace earl
