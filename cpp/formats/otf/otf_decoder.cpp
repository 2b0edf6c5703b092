#include "formats/otf/otf_decoder.h"

#include <algorithm>

namespace earl {

namespace {
constexpr std::uint64_t kBatchRecords = 4096;
}  // namespace

OtfDecoder::OtfDecoder(const std::string& path, const ReadOptions& options) : archive_(path, options) {
  order_ = std::make_unique<AppearanceOrder>(archive_.declared_definitions(), archive_.met_definitions());
}

// Gathers the next timestamp's events into group_; false at the end.
bool OtfDecoder::fill_group() {
  group_.clear();
  group_taken_ = 0;
  for (;;) {
    if (ahead_taken_ == ahead_.size()) {
      ahead_.clear();
      ahead_taken_ = 0;
      // A batch may map to no event (records EARL skips): read on until one does.
      while (ahead_.empty() && !exhausted_)
        if (!archive_.read(kBatchRecords, ahead_)) exhausted_ = true;
      if (ahead_.empty()) break;
    }
    const OtfEvent& next = ahead_[ahead_taken_];
    if (!group_.empty() && next.tick != group_.front().tick) break;
    group_.push_back(next);
    ++ahead_taken_;
  }
  std::stable_sort(group_.begin(), group_.end(), [](const OtfEvent& a, const OtfEvent& b) { return a.loc < b.loc; });
  return !group_.empty();
}

bool OtfDecoder::read(Event& event) {
  if (group_taken_ == group_.size() && !fill_group()) return false;
  const OtfEvent& next = group_[group_taken_++];
  event = next.event;
  event.time = archive_.seconds(next.tick);
  order_->publish(event);
  ++handed_out_;
  return true;
}

void OtfDecoder::seek(const DecoderPosition& position) {
  if (position.words.size() != 1) archive_.fail("invalid decoder position");
  const std::uint64_t target = position.words[0];
  if (target < handed_out_) {
    archive_.rewind();
    ahead_.clear();
    ahead_taken_ = 0;
    group_.clear();
    group_taken_ = 0;
    exhausted_ = false;
    handed_out_ = 0;
  }
  Event skipped;
  while (handed_out_ < target)
    if (!read(skipped)) archive_.fail("a saved position lies beyond the trace's end (was the trace changed?)");
}

}  // namespace earl
