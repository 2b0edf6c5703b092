#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "format_interface/trace_decoder.h"
#include "model/definitions.h"
#include "model/event.h"

struct struct_OTF_FileManager;
struct struct_OTF_Reader;
struct struct_OTF_HandlerArray;

namespace earl {

// One event as OTF's merged reader delivered it: its location and timestamp in ticks.
struct OtfEvent {
  Location loc;
  std::uint64_t tick;
  Event event;
};

// An OTF (version 1) trace opened through libotf: the definitions mapped onto EARL's
// (processes -> locations in process id order, functions -> regions, function groups ->
// groups, process groups -> communicators, counters -> metrics), the markers (a file of
// their own, held in memory: traces carry few), and the event records read forward in
// OTF's time order, each mapped to EARL events (otf_records.cpp). The mapping is in
// docs/api-contract.md.
class OtfArchive {
 public:
  OtfArchive(const std::string& path, const ReadOptions& options);
  ~OtfArchive();
  OtfArchive(const OtfArchive&) = delete;
  OtfArchive& operator=(const OtfArchive&) = delete;

  const std::string& file() const { return anchor_; }
  std::size_t location_count() const { return processes_.size(); }
  const Definitions& declared_definitions() const { return declared_; }
  // Declared plus record types, undefined regions and string values met in events.
  const Definitions& met_definitions() const { return defs_; }
  std::uint64_t ticks_per_second() const { return ticks_per_second_; }
  double seconds(std::uint64_t tick) const;

  // Reads up to `limit` event records in OTF's time order, appending what they map to
  // (markers merged in: after the events of their timestamp); false once none is left.
  bool read(std::uint64_t limit, std::vector<OtfEvent>& out);
  // Back to the first event (a new libotf reader; per-location carries cleared).
  void rewind();
  double progress() const;
  std::uint64_t records_read() const { return records_; }
  // About how many events the trace holds, from the sizes of its event files (OTF does
  // not say): for progress displays only.
  std::uint64_t estimated_events() const { return estimated_events_; }

  [[noreturn]] void fail(const std::string& what) const;

  // For the record handlers (otf_records.cpp).
  struct PendingCollective {
    bool valid = false;
    bool unresolved = false;
    std::int64_t com = -1;
    Location root = -1;
    std::uint64_t sent = 0, recvd = 0, begin = 0, end = 0;
  };
  struct Carry {
    PendingCollective collective;                               // for the next leave
    std::unordered_map<std::uint64_t, PendingCollective> open;  // begun, by matching id
  };
  // The event of a record on `process` at `tick`; null (after noting the error) when the
  // process is unknown.
  Event* emit(std::uint64_t tick, std::uint32_t process, EventKind kind, SymbolId type);
  Carry& carry(Location loc) { return carries_[static_cast<std::size_t>(loc)]; }
  Location location_of(std::uint32_t process) const;  // -1 when undefined
  // A peer process (0: none, -1 and the flag when undefined).
  Location peer(std::uint32_t process, Event& event) const;
  std::int64_t communicator(std::uint32_t group, Event& event) const;
  SymbolId region(std::uint32_t function, Event& event);
  SymbolId type_id(const char* name) { return defs_.types.intern(name); }
  SymbolId string_value(const std::string& text) { return defs_.strings.intern(text); }
  std::int64_t metric_index(std::uint32_t counter) const;
  const std::string& file_name(std::uint32_t file, Event& event);
  const std::string& marker_name(std::uint32_t token, Event& event);
  // Notes the first error a handler met (handlers must not throw through libotf's C code).
  void note_error(std::string message);
  // A record of `process` libotf cannot parse: an error with `strict`; otherwise every
  // process of its stream ends before it (their later records are dropped), noted in
  // damage(). Returns whether reading goes on.
  bool stream_damaged(std::uint32_t process, const std::string& what);
  // The event file of the stream that holds `process` (for messages).
  std::string events_file(std::uint32_t process) const;
  std::vector<StreamDamage> damage() const { return damage_; }
  // Counters of vartype double hold the bits of a double in OTF's 64-bit value.
  bool counter_is_double(std::uint32_t counter) const;
  bool counter_is_signed(std::uint32_t counter) const;

  // The definitions as libotf delivers them (collected by otf_definitions.cpp).
  struct Raw {
    std::uint64_t ticks_per_second = 0;
    std::vector<std::pair<std::uint32_t, std::string>> processes;
    struct Function { std::uint32_t id; std::string name; std::uint32_t group; };
    std::vector<Function> functions;
    std::unordered_map<std::uint32_t, std::string> function_groups;
    std::vector<std::pair<std::uint32_t, std::vector<std::uint32_t>>> process_groups;
    struct Counter { std::uint32_t id; std::string name, unit; std::uint32_t properties; };
    std::vector<Counter> counters;
    std::unordered_map<std::uint32_t, std::string> files, markers;
    std::uint64_t first_tick = 0, last_tick = 0;  // DefTimeRange (last 0: none)
    std::string unreadable;  // the first record libotf could not parse ("": none)
  };

 private:
  void open_reader();
  void close_reader();
  void read_definitions();
  void map_definitions();
  void read_markers();
  void take_markers_before(std::uint64_t tick, std::vector<OtfEvent>& out);
  void throw_if_failed();

  std::string anchor_, stub_;
  ReadOptions options_;
  struct_OTF_FileManager* manager_ = nullptr;
  struct_OTF_Reader* reader_ = nullptr;
  struct_OTF_HandlerArray* handlers_ = nullptr;

  Raw raw_;
  Definitions defs_, declared_;
  std::uint64_t ticks_per_second_ = 1;
  std::vector<std::uint32_t> processes_;                   // by location: OTF process id
  std::unordered_map<std::uint32_t, Location> locations_;  // OTF process id -> location
  std::unordered_map<std::uint32_t, SymbolId> regions_;    // OTF function id -> region
  std::unordered_map<std::uint32_t, SymbolId> undefined_regions_;  // met in events only
  std::unordered_map<std::uint32_t, std::size_t> metrics_; // OTF counter id -> metric index
  std::unordered_map<std::uint32_t, std::uint32_t> counter_properties_;
  std::vector<Carry> carries_;
  std::vector<std::uint64_t> emitted_;  // by location: events emitted since the start
  std::vector<bool> ended_;             // by location: its stream is damaged
  std::vector<StreamDamage> damage_;

  std::vector<OtfEvent> markers_;  // every marker, in time order
  std::size_t next_marker_ = 0;
  std::vector<OtfEvent>* out_ = nullptr;  // where the handlers append
  std::uint64_t records_ = 0;             // event records read since the start
  std::uint64_t estimated_events_ = 0;
  std::uint64_t last_tick_ = 0;           // of the last event record delivered
  bool reading_markers_ = false;
  std::string error_;
  std::string undefined_name_;
};

}  // namespace earl
