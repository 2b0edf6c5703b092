#pragma once
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "model/definitions.h"
#include "model/event.h"
#include "format_interface/trace_decoder.h"

namespace earl {

// Where an import writes: every location's events in stream order with their timestamps
// (EARL's event cache is one).
class EventSink {
 public:
  virtual ~EventSink() = default;
  // `count` events of loc, following the ones appended before.
  virtual void append(Location loc, const Event* events, const std::uint64_t* ticks, std::size_t count) = 0;
  virtual void finish(Location loc) = 0;  // loc has no more events
  virtual void fail(const std::string& message) = 0;  // the import stopped early
};

// A format whose own seeks are slow offers an import: it reads every location's events
// once, strictly forward, into an EventSink on a thread of its own; CachedDecoder then
// serves every position from the sink's copy.
class ImportSource {
 public:
  virtual ~ImportSource() = default;

  virtual std::string format() const = 0;
  virtual std::string file() const = 0;
  virtual std::size_t location_count() const = 0;
  // What the trace defines before its events; fixed.
  virtual const Definitions& declared_definitions() const = 0;
  // Declared plus what the import has met in events (record types, undefined regions,
  // string values: the ids of imported events). Grows while the import runs: read it
  // holding met_guard().
  virtual const Definitions& met_definitions() const = 0;
  virtual std::mutex& met_guard() const = 0;
  // time in seconds = ticks_to_seconds(tick, offset, resolution) (model/clock.h).
  virtual std::uint64_t tick_offset() const = 0;
  virtual std::uint64_t ticks_per_second() const = 0;
  // About how many events the import yields (for progress displays).
  virtual std::uint64_t expected_events() const = 0;

  // The streams the import found damaged (TraceDecoder::damage); complete once the
  // import has ended. Safe to call while it runs.
  virtual std::vector<StreamDamage> damage() const { return {}; }

  // What a restored open (CachedDecoder from a persisted index) needs of the source
  // without reading its input, kept in the index beside the cache: a few numbers (empty:
  // none; the source reads its input when asked, as on a fresh open). restore_facts() gives
  // them back with the restored published definitions, before any other call; it ignores
  // facts it does not recognise.
  virtual std::vector<std::uint64_t> restorable_facts() const { return {}; }
  virtual void restore_facts(const std::vector<std::uint64_t>& facts, const Definitions& published) {}

  // Starts filling `sink`; ends with finish() for every location, or with fail().
  virtual void start(EventSink& sink) = 0;
  // Asks a running import to stop early (the trace is closing).
  virtual void stop() = 0;
  // Returns once the import thread has ended.
  virtual void wait() = 0;
};

}  // namespace earl
