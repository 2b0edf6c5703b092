// A TraceDecoder over events held in memory, for the unit tests that drive the state and
// random access layers without a file format in between.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "format_interface/trace_decoder.h"

namespace earl::testing {

class MemoryDecoder : public TraceDecoder {
 public:
  // `locations` locations and the regions "a" (0) and "b" (1). With `restart_once` the
  // decoder demands one restart halfway, as an unsorted ALOG file does.
  MemoryDecoder(std::vector<Event> events, int locations, bool restart_once = false)
      : events_(std::move(events)), restart_pending_(restart_once) {
    for (int loc = 0; loc < locations; ++loc) definitions_.ensure_location(loc);
    definitions_.define_region("a", "All");
    definitions_.define_region("b", "All");
  }
  std::string format() const override { return "memory"; }
  std::string file() const override { return "memory"; }
  bool read(Event& event) override {
    if (next_ >= events_.size()) return false;
    if (restart_pending_ && next_ == events_.size() / 2) {
      restart_pending_ = false;
      throw DecoderRestart{};
    }
    event = events_[next_++];
    return true;
  }
  DecoderPosition position() const override { return DecoderPosition{{next_}}; }
  void seek(const DecoderPosition& position) override { next_ = position.words.at(0); }
  DecoderPosition start_position() const override { return DecoderPosition{{0}}; }
  double progress() const override {
    return events_.empty() ? 1.0 : double(next_) / double(events_.size());
  }
  const Definitions& definitions() const override { return definitions_; }
  Definitions& mutable_definitions() { return definitions_; }  // e.g. communicator sizes

 private:
  std::vector<Event> events_;
  bool restart_pending_;
  std::uint64_t next_ = 0;
  Definitions definitions_;
};

}  // namespace earl::testing
