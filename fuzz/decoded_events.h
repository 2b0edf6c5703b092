#pragma once
// What the fuzz targets check of a decoder, whatever its input: it ends, it throws nothing
// but EarlError (anything else escapes LLVMFuzzerTestOneInput and aborts the run), and
// what it reads is the same however it is reached.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "format_interface/trace_decoder.h"

namespace earl::fuzz {

// Stops the run with a finding when a property fails (also in Release builds).
inline void require(bool property, const char* what) {
  if (property) return;
  std::fprintf(stderr, "fuzz property failed: %s\n", what);
  std::abort();
}

// Every event of `decoder`, as the trace layer reads them: from a seek to the start (the
// cache's decoder reads nothing before it), and again from the start when an unsorted ALOG
// file throws DecoderRestart once it has sorted itself. `positions`, when given, receives
// the position before each event.
inline std::vector<Event> decode_all(TraceDecoder& decoder, std::vector<DecoderPosition>* positions = nullptr) {
  return read_from_start(decoder, [&] {
    std::vector<Event> events;
    if (positions) positions->clear();
    Event event;
    for (;;) {
      if (positions) positions->push_back(decoder.position());
      if (!decoder.read(event)) break;
      events.push_back(event);
    }
    if (positions) positions->pop_back();
    return events;
  });
}

inline bool same_value(const Value& a, const Value& b) {
  // Floats compare by their bits: a NaN read twice is the same NaN.
  return a.kind == b.kind && std::memcmp(&a.integer, &b.integer, sizeof a.integer) == 0;
}

// Equal in every attribute a decoder sets (pos and enterptr are the trace state's).
inline bool same_event(const Event& a, const Event& b) {
  return std::memcmp(&a.time, &b.time, sizeof a.time) == 0 && a.sendptr == b.sendptr && a.tag == b.tag &&
         a.com == b.com && a.len == b.len && a.loc == b.loc && a.peer == b.peer && a.type == b.type &&
         a.region == b.region && a.kind == b.kind && a.flags == b.flags && same_value(a.data1, b.data1) &&
         same_value(a.data2, b.data2);
}

// Seeking back to the position saved before event i reads event i again: checked at the
// first, middle and last event (more would slow every run down for little).
inline void check_seeks(TraceDecoder& decoder, const std::vector<Event>& events,
                        const std::vector<DecoderPosition>& positions) {
  require(events.size() == positions.size(), "a position before every event");
  if (events.empty()) return;
  for (std::size_t i : {events.size() - 1, events.size() / 2, std::size_t{0}}) {
    decoder.seek(positions[i]);
    Event event;
    require(decoder.read(event), "an event after a seek to the position saved before it");
    require(same_event(event, events[i]), "the same event after a seek to the position saved before it");
  }
}

}  // namespace earl::fuzz
