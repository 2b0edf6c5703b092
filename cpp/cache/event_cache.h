#pragma once
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "format_interface/import_source.h"
#include "model/event.h"

namespace earl {

// EARL's own copy of a trace whose format seeks slowly (OTF2 rescans a 1 MiB chunk per
// location and seek): every location's events, encoded by event_codec, in blocks of an
// unlinked temporary file, so any position is reached by reading one block per location.
// One thread (the importer) appends while another reads blocks back, waiting for blocks
// not yet written. Memory: one open block per location; the rest lives in the file.
class EventCache : public EventSink {
 public:
  struct Block {
    std::uint64_t offset = 0;  // in the file
    std::uint32_t bytes = 0;
  };

  // The file goes to `directory`, or to $TMPDIR (else /tmp) when it is empty. Blocks are
  // `block_size` bytes (at least kMaxEncodedEvent), or sized by the location count when 0.
  EventCache(std::size_t locations, const std::string& directory = "", std::size_t block_size = 0);
  // A finished cache kept elsewhere (the persisted index): `fd` (owned) holds the blocks,
  // whose offsets count from `base`.
  EventCache(int fd, std::uint64_t base, std::vector<std::vector<Block>> blocks, std::size_t block_size);
  ~EventCache() override;
  EventCache(const EventCache&) = delete;
  EventCache& operator=(const EventCache&) = delete;

  // Importer side: a location's events in stream order with their timestamps.
  void append(Location loc, const Event& event, std::uint64_t tick);
  void append(Location loc, const Event* events, const std::uint64_t* ticks, std::size_t count) override {
    for (std::size_t i = 0; i < count; ++i) append(loc, events[i], ticks[i]);
  }
  void finish(Location loc) override;
  void fail(const std::string& message) override;  // readers get the message

  // Reader side. Block k of loc, waiting while the import may still write it; false when
  // loc ends before block k. Throws EarlError with the import's message when it failed.
  bool block(Location loc, std::size_t k, Block& block);
  // Up to `capacity` bytes of the block from `from` on into `out`; returns how many.
  std::size_t read(const Block& block, std::uint32_t from, std::uint8_t* out, std::size_t capacity) const;

  std::size_t block_size() const { return block_size_; }

  // Once every location is finished: the file, its length and the block table, to keep
  // the cache with the persisted index.
  int fd() const { return fd_; }
  std::uint64_t base() const { return base_; }
  std::uint64_t bytes() const { return file_end_; }
  std::vector<std::vector<Block>> blocks() const;

 private:
  struct Writing {  // touched by the importer only
    std::vector<std::uint8_t> block;
    std::uint32_t used = 0;
    std::uint64_t last_tick = 0;
  };

  void flush(Location loc);
  [[noreturn]] void file_error(const std::string& what) const;

  std::string directory_;
  int fd_ = -1;
  std::uint64_t base_ = 0;
  std::size_t block_size_;
  std::vector<Writing> writing_;
  std::uint64_t file_end_ = 0;

  mutable std::mutex mutex_;
  std::condition_variable written_;
  std::vector<std::vector<Block>> blocks_;  // per location, guarded by mutex_
  std::vector<bool> finished_;
  std::string failure_;
};

}  // namespace earl
