#include "profile/trace_profile.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "model/error.h"

#include "profile/event_pass.h"

namespace earl::profile {

std::size_t size_bin(std::uint64_t bytes) {
  std::size_t k = 0;
  while (bytes) {
    bytes >>= 1;
    ++k;
  }
  return k;
}

ProfileBuilder::ProfileBuilder(std::size_t types, std::size_t regions, Location locations, std::size_t bins,
                               double begin, double end) {
  const std::size_t locs = static_cast<std::size_t>(std::max<Location>(locations, 0));
  bins = std::max<std::size_t>(bins, 1);
  out_ = TraceProfile{types, regions, locs, bins, begin, end};
  width_ = (end - begin) / static_cast<double>(bins);
  out_.type_count.assign(types, 0);
  out_.visits.assign(locs * regions, 0);
  out_.inclusive.assign(locs * regions, 0.0);
  out_.exclusive.assign(locs * regions, 0.0);
  out_.time_bins.assign(bins * regions, 0.0);
  out_.message_count.assign(locs * locs, 0);
  out_.message_bytes.assign(locs * locs, 0);
  out_.size_histogram.assign(kSizeBins, 0);
  out_.bin_messages.assign(bins, 0);
  out_.bin_bytes.assign(bins, 0);
  locations_.resize(locs);
  for (LocationState& s : locations_) s.depth.assign(regions, 0);
}

std::size_t ProfileBuilder::bin(double time) const {
  if (!(width_ > 0.0) || !(time > out_.begin)) return 0;  // a trace of one instant: one bin
  const double at = std::floor((time - out_.begin) / width_);
  return std::min(out_.bins - 1, static_cast<std::size_t>(at));
}

void ProfileBuilder::spread(SymbolId region, double from, double to) {
  if (!(to > from)) return;
  double* row_of_bin = out_.time_bins.data() + region;
  for (std::size_t b = bin(from), last = bin(to); b <= last; ++b) {
    // The bin's own bounds, except the first and last bins, which also hold times beyond
    // them (rounding at begin and end).
    const double low = b == 0 ? from : std::max(from, out_.begin + width_ * static_cast<double>(b));
    const double high = b + 1 == out_.bins ? to : std::min(to, out_.begin + width_ * static_cast<double>(b + 1));
    if (high > low) row_of_bin[b * out_.regions] += high - low;
  }
}

void ProfileBuilder::add(const Event& e) {
  if (e.type < out_.types) ++out_.type_count[e.type];
  if (e.loc < 0 || static_cast<std::size_t>(e.loc) >= out_.locations) return;
  LocationState& s = locations_[static_cast<std::size_t>(e.loc)];
  // The time since the location's last event belongs to the region on top of its stack.
  if (!s.stack.empty()) spread(s.stack.back().region, s.time, e.time);
  s.time = e.time;
  if (e.kind == EventKind::Enter && e.region < out_.regions) {
    ++out_.visits[cell(e.loc, e.region)];
    ++s.depth[e.region];
    s.stack.push_back({e.region, e.time, 0.0});
  } else if (is_exit(e.kind) && !s.stack.empty()) {
    const Frame frame = s.stack.back();
    s.stack.pop_back();
    const double inclusive = e.time - frame.enter_time;
    const std::size_t at = cell(e.loc, frame.region);
    if (--s.depth[frame.region] == 0) out_.inclusive[at] += inclusive;
    out_.exclusive[at] += inclusive - frame.child_time;
    if (!s.stack.empty()) s.stack.back().child_time += inclusive;
  } else if (e.kind == EventKind::Send) {
    ++out_.size_histogram[size_bin(e.len)];
    const std::size_t b = bin(e.time);
    ++out_.bin_messages[b];
    out_.bin_bytes[b] += e.len;
    if (e.peer >= 0 && static_cast<std::size_t>(e.peer) < out_.locations) {
      const std::size_t pair = static_cast<std::size_t>(e.loc) * out_.locations + static_cast<std::size_t>(e.peer);
      ++out_.message_count[pair];
      out_.message_bytes[pair] += e.len;
    }
  }
}

std::size_t checked_bins(std::int64_t bins) {
  if (bins < 1 || bins > kMaxTimeBins)
    throw EarlError("bins " + std::to_string(bins) + " is outside 1.." + std::to_string(kMaxTimeBins));
  return static_cast<std::size_t>(bins);
}

TraceProfile trace_profile(EventTrace& trace, std::size_t bins, const ProgressCallback& progress) {
  const Position size = trace.size();
  double begin = 0.0, end = 0.0;
  if (size > 0) {
    begin = trace.event(1, progress).time;
    end = trace.event(static_cast<std::int64_t>(size), progress).time;
  }
  ProfileBuilder builder(trace.types().size(), trace.regions().size(), trace.nrlocs(), bins, begin, end);
  each_event(trace, progress, [&](const Event& e) { builder.add(e); });
  return builder.finish();
}

}  // namespace earl::profile
