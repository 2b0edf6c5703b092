#include "gen/clock_skew.h"

#include <algorithm>
#include <cmath>

#include "gen/rng.h"

namespace earl::gen {

std::int64_t ClockSkew::recorded(std::int64_t true_us) const {
  // |drift| < 1, so a later true time never records earlier.
  return true_us + offset_us + std::llround(drift * static_cast<double>(true_us));
}

std::vector<ClockSkew> draw_clock_skews(const GenOptions& options) {
  std::vector<ClockSkew> skews;
  if (options.clock_offset <= 0.0 && options.clock_drift <= 0.0) return skews;
  Rng rng(options.seed ^ 0xc10c5cef00d5eedULL);  // its own stream: the program's draws stay the same
  const auto max_offset_us = static_cast<std::int64_t>(std::llround(options.clock_offset * 1e6));
  constexpr std::int64_t kSteps = 1000000;
  for (int p = 0; p < options.locations; ++p) {
    ClockSkew skew;
    skew.offset_us = rng.uniform(0, max_offset_us);
    skew.drift = static_cast<double>(rng.uniform(-kSteps, kSteps)) / kSteps * options.clock_drift * 1e-6;
    skews.push_back(skew);
  }
  return skews;
}

void SkewedWriter::write(const WriterEvent* events, std::size_t count) {
  batch_.assign(events, events + count);
  for (WriterEvent& e : batch_) e.time = skews_[static_cast<std::size_t>(e.loc / threads_)].recorded(e.time);
  std::sort(batch_.begin(), batch_.end(), writer_event_before);
  target_.write(batch_.data(), batch_.size());
}

}  // namespace earl::gen
