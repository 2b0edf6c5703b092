#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "format_interface/trace_decoder.h"

namespace earl {

// The reading order of a file whose records are not in time order (ALOG, described
// formats): each event record's time, byte offset and line or record number, sorted by
// time stably (file order within equal times), 24 bytes per event. The decoder builds it
// on finding a time that decreases, throws DecoderRestart and then reads through it; it is
// kept in the persisted index as DecoderState's tables.
class TimeSortedIndex {
 public:
  struct Entry {
    double time;
    std::uint64_t offset;
    std::uint64_t number;
  };

  bool active() const { return active_; }
  void clear() { entries_.clear(); }
  void add(double time, std::uint64_t offset, std::uint64_t number) { entries_.push_back({time, offset, number}); }
  // Sorts what was added and reads through it from its start.
  void activate();

  // Reading in file order: true when `time` is earlier than the one noted before it since
  // the last restart_order() (a seek): the file is not in time order.
  bool out_of_order(double time) {
    const bool back = have_last_ && time < last_;
    last_ = time;
    have_last_ = true;
    return back;
  }
  void restart_order() { have_last_ = false; }

  // The next entry in time order, null at the end.
  const Entry* next() { return next_ < entries_.size() ? &entries_[next_++] : nullptr; }
  // The decoder position of the cursor, and a seek to one (EarlError naming `path` when it
  // is not a position in the index).
  DecoderPosition position() const { return DecoderPosition{{next_}}; }
  void seek(const DecoderPosition& position, const std::string& path);
  double progress() const { return entries_.empty() ? 1.0 : double(next_) / double(entries_.size()); }

  // Into / from the first two tables of a saved decoder state (a decoder may add more); restore() throws EarlError naming
  // `path` when the tables are not an index of a file of `file_size` bytes.
  void save(DecoderState& state) const;
  void restore(const DecoderState& state, std::uint64_t file_size, const std::string& path);

 private:
  std::vector<Entry> entries_;
  std::uint64_t next_ = 0;
  bool active_ = false;
  double last_ = 0.0;
  bool have_last_ = false;
};

}  // namespace earl
