#pragma once
// What the Chrome trace-event reader keeps of a trace: one compact record per EARL event
// (48 bytes), sorted into EARL's order once the whole file is parsed, plus the definitions.
// Both the plain decoder and the import into the event cache serve events from it.
#include <cstdint>
#include <string>
#include <vector>

#include "model/definitions.h"
#include "model/event.h"
#include "format_interface/trace_decoder.h"

namespace earl {

// When several records of one location share a timestamp, `phase` orders them so that
// slices nest: exits of X slices that began earlier, then B/E in file order, then X enters
// (the longer slice first) with zero-length slices entered and left in place, then point
// events (instants, counters, flow and async ends) in file order.
enum ChromePhase : std::uint8_t { kPhaseXExit = 0, kPhaseBeginEnd = 1, kPhaseXEnter = 2, kPhasePoint = 3 };

struct ChromeRecord {
  std::int64_t tick = 0;   // nanoseconds (ts in microseconds * 1000, rounded)
  std::int64_t key1 = 0;   // tie breaks within (tick, loc, phase)
  std::int64_t key2 = 0;
  std::int64_t value = 0;  // send/recv: tag; metric: value bits; other: data2 string id (-1: none)
  std::uint32_t loc = 0;
  std::uint32_t symbol = 0;  // enter/exit: region; other: type; metric: index in metrics
  std::int32_t peer = -1;    // send: dest; recv: src; collective exit: root
  std::uint32_t data = 0;    // other: data1 string id; collective exit: index in collectives
  EventKind kind = EventKind::Other;
  std::uint8_t phase = kPhasePoint;
  std::uint8_t flags = 0;     // EventFlag bits
  std::uint8_t value_kind = 0;  // metric value: 0 int64, 1 double
};

// Byte counts of a collective exit (an E or X slice whose args hold root, sent and recvd).
struct ChromeCollective {
  std::int64_t com = -1;
  std::uint64_t sent = 0, recvd = 0;
};

bool chrome_record_before(const ChromeRecord& a, const ChromeRecord& b);

// A whole Chrome trace-event file, read and ordered. Throws EarlError naming the file, the
// event (its index in the event array) and its byte offset (in the uncompressed text).
struct ChromeTrace {
  std::string file;
  Definitions definitions;
  std::vector<ChromeRecord> records;  // in EARL's order: (tick, loc, phase, key1, key2)
  std::vector<ChromeCollective> collectives;
  std::vector<SymbolId> metric_names;  // by metric index: its name in definitions.strings
  std::uint64_t events_read = 0;       // elements of the event array
  std::uint64_t events_ignored = 0;    // of phases EARL does not map (P, O, N, D, ...)
  bool unterminated = false;           // a bare array that ended without its `]`
  std::string damage;                  // why the events end early (not strict), else ""
  std::vector<StreamDamage> damages() const;  // TraceDecoder::damage: one entry, loc -1
  SymbolId metric_type = 0;            // the type id of counter samples ("metric")

  Event event(std::size_t index) const;  // record `index` as an EARL event (pos 0)
};

ChromeTrace read_chrome_trace(const std::string& path, const ReadOptions& options);

}  // namespace earl
