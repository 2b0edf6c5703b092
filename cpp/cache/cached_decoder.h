#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "format_interface/import_source.h"
#include "cache/event_cache.h"
#include "format_interface/trace_decoder.h"
#include "format_interface/appearance_order.h"
#include "format_interface/stream_merge.h"

namespace earl {

// The decoder of a cached trace: merges the locations' cached event streams by
// (timestamp, location). While the importer still runs it reads blocks
// as they are written, so opening a trace decodes on two threads. A position is, per
// location, the block and byte of its next event, the timestamp before it and its own:
// restoring one reads nothing; a location's bytes are read when the merge first takes
// an event from it, so a restore costs what it decodes, not the width of the trace.
class CachedDecoder : public TraceDecoder {
 public:
  // cache_directory and block_size as for EventCache; portion_size: bytes read at a time
  // per location (at least kMaxEncodedEvent), or sized by the location count when 0.
  CachedDecoder(std::unique_ptr<ImportSource> source, const std::string& cache_directory = "",
                std::size_t block_size = 0, std::size_t portion_size = 0);
  // From the state save_state gave for this trace: no import runs, the cache is the
  // restored file (DecoderState::restored_fd, taken over).
  CachedDecoder(std::unique_ptr<ImportSource> source, DecoderState& restored);
  ~CachedDecoder() override;

  std::string format() const override { return source_->format(); }
  std::string file() const override { return source_->file(); }
  bool read(Event& event) override;
  DecoderPosition position() const override;
  void seek(const DecoderPosition& position) override;
  DecoderPosition start_position() const override;
  double progress() const override;
  // Setting every location's merge key; the reads come later, as decoding needs them.
  std::uint64_t seek_cost_in_events() const override { return 256 + streams_.size() / 8; }
  std::vector<StreamDamage> damage() const override { return source_->damage(); }
  // After the import every read is from the cache: the trace may change without effect.
  bool rereads_input() const override { return false; }
  // In order of first appearance in the merged stream, as the format's own decoder has them.
  const Definitions& definitions() const override { return order_.published(); }
  // The published definitions, the appearance order's maps, the block table and the
  // cache file.
  bool save_state(DecoderState& state) const override;

 private:
  // A location's next bytes: a portion of block `block` from byte `base` on, read when
  // needed; a restore reads one portion per location, so portions are small when there
  // are many locations.
  struct Stream {
    std::unique_ptr<std::uint8_t[]> bytes;  // portion_ bytes
    std::size_t size = 0;             // read into `bytes`
    std::size_t block = 0;
    std::uint32_t block_bytes = 0;
    std::uint32_t base = 0;
    std::size_t at = 0;               // the next event's first byte in `bytes`
    bool live = false;                // false once the location has no more events
    bool loaded = false;              // `bytes` holds the next event (else base: its byte)
    std::uint64_t tick_before = 0;    // timestamp of the event before the next one
    std::uint64_t next_tick = 0;      // the next event's (the merge key)
  };
  void size_portions();
  void load(std::uint32_t loc, std::size_t block, std::uint32_t from);
  void peek(std::uint32_t loc);
  void end_stream(std::uint32_t loc);
  [[noreturn]] void damaged(std::uint32_t loc) const;

  std::unique_ptr<ImportSource> source_;
  std::unique_ptr<EventCache> cache_;
  AppearanceOrder order_;  // cached events carry the importer's ids
  std::vector<Stream> streams_;
  std::size_t portion_ = 0;
  StreamMerge merge_;
  std::uint64_t tick_offset_ = 0;
  double ticks_per_second_ = 1.0;
  std::uint64_t decoded_ = 0;
  bool importing_ = true;
};

}  // namespace earl
