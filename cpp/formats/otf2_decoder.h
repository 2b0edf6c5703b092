#pragma once
#include <otf2/otf2.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "formats/otf2_definitions.h"
#include "formats/trace_decoder.h"
#include "model/appearance_order.h"

namespace earl {

// OTF2 archives (Score-P, Scalasca, Vampir, TAU) through the official libotf2. Every
// location's event stream is read by its own OTF2_EvtReader; the streams are merged by
// timestamp (ties by location number). A position holds, per location, the record to
// re-read and what earlier records left pending, so any position is restored with one
// OTF2_EvtReader_Seek per location. The mapping is in docs/api-contract.md.
class Otf2Decoder : public TraceDecoder {
 public:
  // How the records are read: merged by time through read() (every location's reader open
  // from the start), or per location through read_records() (a location's reader opens
  // at its first batch and closes after its last: an importer bounds the number open).
  enum class Reading { Merged, PerLocation };
  explicit Otf2Decoder(const std::string& path, Reading reading = Reading::Merged);
  ~Otf2Decoder() override;
  Otf2Decoder(const Otf2Decoder&) = delete;
  Otf2Decoder& operator=(const Otf2Decoder&) = delete;

  std::string format() const override { return "otf2"; }
  std::string file() const override { return path_; }
  bool read(Event& event) override;
  DecoderPosition position() const override;
  void seek(const DecoderPosition& position) override;
  DecoderPosition start_position() const override { return start_; }
  double progress() const override;
  // Each location's reader reopens and rescans a 1 MiB chunk: ~0.7 ms, ~5000 events.
  std::uint64_t seek_cost_in_events() const override { return 5000 * streams_.size(); }
  // In order of first appearance in the merged stream of what read() handed out.
  const Definitions& definitions() const override { return order_->published(); }

  // For an importer that reads each location on its own instead of the merged order:
  // reads on up to `records` records of loc (after what the merge has taken), leaving
  // their events (time not set: see seconds()) and timestamps in batch_events() and
  // batch_ticks(). False once loc is done.
  bool read_records(Location loc, std::size_t records);
  const std::vector<Event>& batch_events(Location loc) const { return streams_[loc].pending; }
  const std::vector<OTF2_TimeStamp>& batch_ticks(Location loc) const { return streams_[loc].pending_ticks; }
  // Frees the batch buffers of a location that is done (about 60 KB each).
  void release_batch(Location loc);
  std::size_t location_count() const { return streams_.size(); }
  // Frees libotf2 (a chunk buffer of up to 1 MiB per location) once an importer is done;
  // the definitions stay, reading does not.
  void close_archive();
  std::uint64_t total_records() const;
  // How many location readers fit into `bytes`: each holds one event chunk of the archive.
  std::size_t readers_within(std::uint64_t bytes) const;
  // Everything decoding has met so far, in the order it met it (the ids of batch_events()).
  const Definitions& met_definitions() const { return defs_.earl; }

  // The anchor file of `path` (the file itself, or the one *.otf2 in a directory);
  // empty when `path` is no OTF2 archive.
  static std::string find_anchor(const std::string& path);

  // What a record left behind that later records need (part of a position).
  struct PendingCollective {
    bool valid = false;
    std::int64_t com = -1, root = -1, sent = 0, recvd = 0;
  };
  struct OpenRmaOp {
    std::int64_t window, id, peer, bytes;
    bool is_get;
  };
  struct Carry {
    PendingCollective collective;
    std::vector<OpenRmaOp> rma;
  };

  // One location's stream and its lookahead record.
  struct Stream {
    OTF2_EvtReader* reader = nullptr;
    Location loc = 0;
    std::uint64_t next_record = 1;   // the record the next read returns (1-based)
    std::uint64_t total_records = 0;
    std::uint64_t record_limit = 0;  // when total_records is 0: the event file's size
    bool exhausted = false;
    std::vector<Event> pending;      // events of the lookahead record
    std::vector<OTF2_TimeStamp> pending_ticks;  // their timestamps
    std::size_t taken = 0;
    std::uint64_t pending_record = 0;
    OTF2_TimeStamp timestamp = 0;
    Carry carry;                     // after the records read so far
    Carry carry_before;              // before the lookahead record, when it changed carry
    bool carry_changed = false;
  };

  // Used by the record callbacks.
  Event& emit(OTF2_TimeStamp time, EventKind kind, SymbolId type);
  SymbolId type_id(int record);
  Stream& current() { return *current_; }
  void note_carry_change();
  const Otf2Definitions& otf2() const { return defs_; }
  // The EARL region of an OTF2 region; marks `event` when the archive does not define it.
  SymbolId region(OTF2_RegionRef ref, Event& event);
  SymbolId string_value(const std::string& text) { return defs_.earl.strings.intern(text); }
  // Seconds since the global offset, as EARL defines the time of an OTF2 timestamp.
  double seconds(OTF2_TimeStamp tick) const {
    return static_cast<double>(static_cast<std::int64_t>(tick - defs_.global_offset)) /
           static_cast<double>(defs_.timer_resolution);
  }

 private:
  bool fill(Stream& stream);
  void check_record_count(const Stream& stream) const;
  void move_to(Stream& stream, std::uint64_t record);
  void open_reader(Stream& stream);
  void close_reader(Stream& stream);
  void sift_down_top();
  void push(Stream& stream);
  [[noreturn]] void fail(const std::string& what) const;

  std::string path_;
  std::string anchor_;
  OTF2_Reader* reader_ = nullptr;
  OTF2_EvtReaderCallbacks* callbacks_ = nullptr;
  Otf2Definitions defs_;
  std::vector<Stream> streams_;
  std::vector<std::pair<OTF2_TimeStamp, Location>> heap_;  // min-heap of lookaheads
  Stream* current_ = nullptr;
  std::unique_ptr<AppearanceOrder> order_;
  std::vector<SymbolId> type_ids_;
  std::vector<bool> undefined_region_;  // by EARL region id
  static constexpr SymbolId kNoRegion = ~SymbolId(0);
  std::vector<SymbolId> region_by_ref_;  // OTF2 region ref -> EARL region
  std::uint64_t total_records_ = 0;
  std::uint64_t event_chunk_bytes_ = 0;
  DecoderPosition start_;
};

}  // namespace earl
