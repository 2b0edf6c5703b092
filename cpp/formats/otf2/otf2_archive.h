#pragma once
#include <otf2/otf2.h>

#include <cstdint>
#include <string>
#include <vector>

#include "format_interface/trace_decoder.h"
#include "formats/otf2/otf2_definitions.h"
#include "model/clock.h"
#include "model/event.h"

namespace earl {

// An open OTF2 archive: libotf2's reader and its lifetime, the global and local
// definitions, and one event stream per location that turns records into EARL events
// (otf2_records.cpp). Both ways of reading an archive sit on it: Otf2Decoder merges the
// streams by time and seeks them; Otf2Importer reads each stream forward in batches into
// the event cache. A location's libotf2 reader holds one event chunk (often 1 MiB); it is
// opened when the stream is first read and closed when the stream is exhausted.
// A location's event file that cannot be read on (cut short, corrupted, more records than
// its definition announces) ends its stream there, noted in damage(); with
// ReadOptions::strict it is an error instead. Damaged definitions are always an error.
class Otf2Archive {
 public:
  explicit Otf2Archive(const std::string& path, const ReadOptions& options = {});
  ~Otf2Archive();
  Otf2Archive(const Otf2Archive&) = delete;
  Otf2Archive& operator=(const Otf2Archive&) = delete;

  // What a record left behind that later records of its location need (part of a
  // stream's position).
  // From a collective's MpiCollectiveBegin/End to the leave of its region. The times go to
  // the exit's data1/data2 (seconds), where the wait-state analysis takes them.
  struct PendingCollective {
    bool valid = false;
    std::int64_t com = -1, root = -1, sent = 0, recvd = 0;
    std::uint64_t begin = kNoTick, end = kNoTick;  // ticks; kNoTick: no such record
  };
  static constexpr std::uint64_t kNoTick = ~std::uint64_t(0);
  struct OpenRmaOp {
    std::int64_t window, id, peer, bytes;
    bool is_get;
  };
  struct Carry {
    PendingCollective collective;
    std::vector<OpenRmaOp> rma;
  };

  // One location's stream: the events of the records read last (the batch) and where
  // the reader stands.
  struct Stream {
    OTF2_EvtReader* reader = nullptr;
    Location loc = 0;
    std::uint64_t next_record = 1;   // the record the next read returns (1-based)
    std::uint64_t total_records = 0;
    std::uint64_t record_limit = 0;  // when total_records is 0: the event file's size
    bool exhausted = false;
    bool damaged = false;            // exhausted early: see damage()
    // Where the event file is cut short (otf2_event_file_end.h): records 1..readable are
    // whole; `cut` says what is wrong with the next. Empty `cut`: the file is whole.
    std::uint64_t readable = 0;
    std::string cut;
    std::vector<Event> pending;      // events of the batch (time not set: see seconds())
    std::vector<OTF2_TimeStamp> pending_ticks;  // their timestamps
    std::size_t taken = 0;           // events of the batch handed out
    std::uint64_t pending_record = 0;  // the record that yielded the batch (read_next)
    OTF2_TimeStamp timestamp = 0;    // of the batch's last event
    Carry carry;                     // after the records read so far
    Carry carry_before;              // before the last record, when it changed carry
    bool carry_changed = false;
  };

  const std::string& file() const { return path_; }
  std::size_t location_count() const { return streams_.size(); }
  Stream& stream(Location loc) { return streams_[static_cast<std::size_t>(loc)]; }
  const Stream& stream(Location loc) const { return streams_[static_cast<std::size_t>(loc)]; }
  const Otf2Definitions& otf2() const { return defs_; }
  // Everything decoding has met so far, in the order it met it (the ids of the events).
  const Definitions& met_definitions() const { return defs_.earl; }
  // The streams that ended early, in the order their damage was met (one entry per location).
  const std::vector<StreamDamage>& damage() const { return damage_; }

  // Reads records of loc until one yields events (the stream's lookahead); false when the
  // location has no more.
  bool read_next(Location loc);
  // Reads up to `records` records of loc into its batch (replacing the previous batch);
  // false once loc is exhausted.
  bool read_batch(Location loc, std::size_t records);
  // Positions loc's reader so that the next read returns `record` (1-based) with `carry`
  // as the state earlier records left; record 0 marks the stream exhausted.
  void restore(Location loc, std::uint64_t record, const Carry& carry);
  // Frees a finished location's batch buffers (about 60 KB each).
  void release_batch(Location loc);
  // Frees libotf2 (a chunk buffer of up to 1 MiB per open location); definitions stay,
  // reading does not.
  void close();

  std::uint64_t total_records() const;
  // Records read up to the streams' current positions (for progress displays).
  std::uint64_t records_read() const;
  // How many location readers fit into `bytes`: each holds one event chunk.
  std::size_t readers_within(std::uint64_t bytes) const;
  double seconds(OTF2_TimeStamp tick) const {
    return ticks_to_seconds(tick, defs_.global_offset, static_cast<double>(defs_.timer_resolution));
  }

  // Used by the record callbacks (otf2_records.cpp).
  Event& emit(OTF2_TimeStamp time, EventKind kind, SymbolId type);
  SymbolId type_id(int record);
  Stream& current() { return *current_; }
  void note_carry_change();
  // The EARL region of an OTF2 region; marks `event` when the archive does not define it.
  SymbolId region(OTF2_RegionRef ref, Event& event);
  SymbolId string_value(const std::string& text) { return defs_.earl.strings.intern(text); }

  [[noreturn]] void fail(const std::string& what) const;

 private:
  bool start_batch(Stream& stream);
  // Records the stream may still have by what the archive announces (its definition's
  // count, else its event file's size).
  std::uint64_t records_left(const Stream& stream) const;
  // The stream has read all it may: ends it, at the cut of its event file, or else after
  // checking that no record follows what its definition announces. Returns false.
  bool at_end(Stream& stream);
  // Reads one record more than announced: none, the stream ends where announced; one, the
  // event file is damaged (the record's events are dropped, the stream ends there). False.
  bool beyond_announced(Stream& stream);
  // The stream cannot be read from `record` on for `reason`: EarlError with strict, else
  // the stream ends there (noted in damage()). Returns false (the stream has no more).
  bool stop_at_damage(Stream& stream, std::uint64_t record, const std::string& reason);
  bool move_to(Stream& stream, std::uint64_t record);
  bool open_reader(Stream& stream, std::uint64_t record);
  void close_reader(Stream& stream);
  std::string location_label(const Stream& stream) const;

  std::string path_;
  std::string anchor_;
  bool strict_ = false;
  std::vector<StreamDamage> damage_;
  OTF2_Reader* reader_ = nullptr;
  OTF2_EvtReaderCallbacks* callbacks_ = nullptr;
  Otf2Definitions defs_;
  std::vector<Stream> streams_;
  Stream* current_ = nullptr;
  std::vector<SymbolId> type_ids_;
  std::vector<bool> undefined_region_;  // by EARL region id
  static constexpr SymbolId kNoRegion = ~SymbolId(0);
  std::vector<SymbolId> region_by_ref_;  // OTF2 region ref -> EARL region
  std::uint64_t event_chunk_bytes_ = 0;
};

}  // namespace earl
