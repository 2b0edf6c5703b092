#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "format_interface/trace_decoder.h"
#include "formats/clog2/clog2_layout.h"
#include "formats/clog2/clog2_preamble.h"

namespace earl {

// CLOG2 traces (MPE's binary logs, what Jumpshot reads), mapped as docs/api-contract.md
// says: a state's start event enters its region and its final event exits it, other bare
// and cargo events are events of their own type, message events are sends and receives
// whose ranks the communicator records translate to locations. A merged CLOG2 file is
// one stream in time order, so the position is the byte offset of the next record.
//
// MPE writes the definitions of its MPI states when the program ends, after the events
// that use them, so the first use reads every record once for the definitions and the
// communicators before the first event is decoded; a trace's persisted index
// (save_state/restore_state) spares later opens that pass.
//
// Damage (docs/formats.md, "Damaged CLOG2 files"): a record that cannot be read after the
// first block (a block cut short, a bad record type, a record the preamble cannot
// explain) ends the trace there unless `options.strict`: the records before it are read,
// definitions after it are not, damage() names it. A bad preamble or first block is
// always an error naming the file and the record's byte offset.
class Clog2Decoder : public TraceDecoder {
 public:
  explicit Clog2Decoder(const std::string& path, const ReadOptions& options = {});
  ~Clog2Decoder() override;
  Clog2Decoder(const Clog2Decoder&) = delete;
  Clog2Decoder& operator=(const Clog2Decoder&) = delete;

  std::string format() const override { return "clog2"; }
  std::string file() const override { return path_; }
  bool read(Event& event) override;
  DecoderPosition position() const override { return DecoderPosition{{offset_}}; }
  void seek(const DecoderPosition& position) override;
  DecoderPosition start_position() const override { return DecoderPosition{{clog2::kPreambleSize}}; }
  double progress() const override;
  const Definitions& definitions() const override;
  // One entry for the whole file (loc -1: every location loses what follows the damage).
  std::vector<StreamDamage> damage() const override;
  bool save_state(DecoderState& state) const override;
  void restore_state(DecoderState& state) override;

 private:
  struct Record {
    std::uint64_t offset;
    double time;
    std::int32_t icomm, rank, thread, type;
    const unsigned char* body;
  };
  struct EventType {  // what a bare or cargo event's etype means
    EventKind kind = EventKind::Other;
    SymbolId type = 0;
    SymbolId region = 0;
  };

  // The record at offset_, advancing past it (past the block's rest after an end-of-block
  // record); false at the end-of-log record, which it does not pass.
  bool next_record(Record& record);
  void load_block(std::uint64_t start);
  // The pass for definitions, on first use rather than at construction, so that a
  // restored state replaces it. const: definitions() and damage() trigger it.
  void ensure_scanned() const;
  void scan_definitions();
  // Definitions and communicators of the records before stop_; throws at a bad one.
  void scan_up_to_stop();
  void check_state(bool ok) const;
  std::string table_problem() const;
  void define_communicator(const Record& record);
  // The type of a bare or cargo (coll: collective) event's etype, made on first use
  // where no definition names it ("event 42", "collective 7").
  const EventType& event_type(std::int32_t etype, bool coll);
  // The world rank of `rank` in communicator `icomm`; -1 where no record defines it.
  std::int64_t world_rank(std::int32_t icomm, std::int32_t rank) const;
  Location own_location(const Record& record) const;
  Location peer_location(std::int32_t icomm, std::int32_t rank) const;
  std::int32_t i32(const Record& record, std::size_t at) const;
  [[noreturn]] void fail_at(std::uint64_t offset, const std::string& problem) const;

  std::string path_;
  int fd_ = -1;
  std::uint64_t file_size_ = 0;
  clog2::Preamble preamble_;
  bool big_ = true;
  std::uint64_t data_end_ = 0;  // where the blocks end (the communicator table starts)
  bool strict_ = false;
  bool scanned_ = false;
  // Records are read up to here: the damage, or the end of the blocks.
  std::uint64_t stop_ = ~std::uint64_t(0);
  struct Damage {
    std::uint64_t offset = 0;         // of the first record not read
    std::uint64_t events_before = 0;  // event records read before it
    std::string error;                // what strict reading throws
    bool complete = false;            // every record was read (only the table is cut)
  };
  std::optional<Damage> damage_;
  std::string table_cut_;  // why the communicator table is missing (a file cut short)
  std::uint64_t scan_at_ = 0;          // the record the pass reads (where a failure is)
  std::uint64_t scanned_events_ = 0;   // event records the pass found
  std::vector<unsigned char> block_;
  std::uint64_t block_start_ = 0;
  bool block_loaded_ = false;
  std::uint64_t offset_ = clog2::kPreambleSize;
  std::int64_t threads_ = 1;
  Definitions definitions_;
  std::unordered_map<std::int32_t, EventType> event_types_;
  std::unordered_map<std::int32_t, EventType> collective_types_;
  std::unordered_map<std::uint64_t, std::int32_t> world_ranks_;  // (icomm, rank) -> world rank
};

}  // namespace earl
