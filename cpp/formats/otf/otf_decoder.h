#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "format_interface/appearance_order.h"
#include "format_interface/trace_decoder.h"
#include "formats/otf/otf_archive.h"

namespace earl {

// OTF read directly through libotf (EventTrace's cache=False). libotf merges the streams
// by timestamp with ties in an order of its own; the model wants ties by location, so the
// events of one timestamp are gathered and ordered by location (stably: one location's
// keep their stream order). A position is the number of events handed out: seeking back
// re-reads from the start (libotf's time seeks cannot restore what collectives carry from
// record to leave), so this reader suits one pass; the event cache (the default) serves
// random access.
class OtfDecoder : public TraceDecoder {
 public:
  explicit OtfDecoder(const std::string& path, const ReadOptions& options = {});

  std::string format() const override { return "otf"; }
  std::string file() const override { return archive_.file(); }
  bool read(Event& event) override;
  DecoderPosition position() const override { return DecoderPosition{{handed_out_}}; }
  void seek(const DecoderPosition& position) override;
  DecoderPosition start_position() const override { return DecoderPosition{{0}}; }
  double progress() const override { return archive_.progress(); }
  std::uint64_t seek_cost_in_events() const override { return handed_out_; }
  std::vector<StreamDamage> damage() const override { return archive_.damage(); }
  const Definitions& definitions() const override { return order_->published(); }

 private:
  bool fill_group();

  OtfArchive archive_;
  std::unique_ptr<AppearanceOrder> order_;
  std::vector<OtfEvent> ahead_;  // read from libotf, not yet in a group
  std::size_t ahead_taken_ = 0;
  std::vector<OtfEvent> group_;  // the events of one timestamp, by location
  std::size_t group_taken_ = 0;
  bool exhausted_ = false;       // libotf has nothing more
  std::uint64_t handed_out_ = 0;
};

}  // namespace earl
