#pragma once
// The generator's sink interface. The program model (generator.h) produces the events of
// one round at a time, sorted by (time, location, sequence), and hands them to every sink;
// a trace format is one TraceWriter implementation (ALOG first; OTF2 can join later
// without touching the program model). The ground-truth collector is a sink as well.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace earl::gen {

enum class GenKind : std::uint8_t { Enter, Exit, Send, Recv };

// One generated event. Times are integer microseconds since the start of the run.
struct GenEvent {
  std::int64_t time = 0;
  std::int64_t len = 0;    // send/recv: bytes
  std::int32_t loc = 0;
  std::int32_t region = -1;  // enter/exit: index into TraceHeader::regions
  std::int32_t peer = -1;    // send: destination, recv: source
  std::int32_t tag = 0;      // send/recv
  std::uint32_t seq = 0;     // per-location generation order within the round
  GenKind kind = GenKind::Enter;
};

// Sort order of the output: (time, location, sequence).
inline bool gen_event_before(const GenEvent& a, const GenEvent& b) {
  if (a.time != b.time) return a.time < b.time;
  if (a.loc != b.loc) return a.loc < b.loc;
  return a.seq < b.seq;
}

struct RegionDef {
  std::string name;
  std::string style;  // display hint, e.g. "green:boxes" (ALOG writes it before the name)
};

struct TraceHeader {
  int locations = 0;
  std::vector<std::string> location_names;
  std::vector<RegionDef> regions;
};

class TraceWriter {
 public:
  virtual ~TraceWriter() = default;
  // Called once before any event.
  virtual void begin(const TraceHeader& header) = 0;
  // A batch of events in output order; batches never overlap in time.
  virtual void write(const GenEvent* events, std::size_t count) = 0;
  // Called once after the last event; flushes and closes. Errors throw EarlError.
  virtual void finish() = 0;
};

// Writer options every format may use.
struct WriterOptions {
  std::int64_t rollover = 0;  // clock roll-over point in microseconds; 0 = none
};

// The formats a writer exists for, and the factory (EarlError for an unknown format).
std::vector<std::string> writer_formats();
std::unique_ptr<TraceWriter> make_trace_writer(const std::string& format, const std::string& path,
                                               const WriterOptions& options);

}  // namespace earl::gen
