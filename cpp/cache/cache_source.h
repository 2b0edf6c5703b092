#pragma once
#include <cstdint>
#include <mutex>
#include <string>

#include "cache/event_cache.h"
#include "model/definitions.h"

namespace earl {

// A format's importer: reads every location's events once, in stream order, into an
// EventCache on a thread of its own (the format's records are read strictly forward;
// CachedDecoder serves everything else from the cache).
class CacheSource {
 public:
  virtual ~CacheSource() = default;

  virtual std::string format() const = 0;
  virtual std::string file() const = 0;
  virtual std::size_t location_count() const = 0;
  // What the trace defines before its events; fixed.
  virtual const Definitions& declared_definitions() const = 0;
  // Declared plus what the import has met in events (record types, undefined regions,
  // string values: the ids of cached events). Grows while the import runs: read it
  // holding met_guard().
  virtual const Definitions& met_definitions() const = 0;
  virtual std::mutex& met_guard() const = 0;
  // time in seconds = (tick - offset) / resolution, as the format defines it.
  virtual std::uint64_t tick_offset() const = 0;
  virtual std::uint64_t ticks_per_second() const = 0;
  // About how many events the import yields (for progress displays).
  virtual std::uint64_t expected_events() const = 0;

  // Starts filling `cache`; ends with finish() for every location, or with fail().
  virtual void start(EventCache& cache) = 0;
  // Asks a running import to stop early (the trace is closing).
  virtual void stop() = 0;
  // Returns once the import thread has ended.
  virtual void wait() = 0;
};

}  // namespace earl
