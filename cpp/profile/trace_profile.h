#pragma once
// The statistics of `earl stats` (TRCSTAT's tables), gathered in one pass over the events
// with memory bounded by locations x regions, locations^2 and the time bins, not by the
// trace's length: event type frequencies, the flat profile per location and region, the
// time profile, and message statistics.
#include <cstdint>
#include <vector>

#include "access/random_access_trace.h"
#include "model/event.h"

namespace earl {
class EventTrace;
}

namespace earl::profile {

// Every double is in seconds; tables indexed [a][b] are flat, row-major.
struct TraceProfile {
  std::size_t types = 0, regions = 0, locations = 0, bins = 0;
  double begin = 0.0, end = 0.0;  // the time bins divide begin..end into `bins` equal parts
  std::vector<std::uint64_t> type_count;  // [type]
  // [loc][region]: instances entered; inclusive time (of the outermost instance where the
  // region recurses: time is not counted twice); exclusive time (inclusive minus the
  // inclusive time of the instances it called). Instances still open at the end count
  // as visits only.
  std::vector<std::uint64_t> visits;
  std::vector<double> inclusive, exclusive;
  // [bin][region]: exclusive time spent in the region within the bin, all locations.
  std::vector<double> time_bins;
  // Messages, counted at their send: [src][dest] count and bytes; [k] how many had a size
  // of 0 (k = 0) or in 2^(k-1) .. 2^k - 1 bytes; [bin] messages and bytes sent in it.
  std::vector<std::uint64_t> message_count, message_bytes;
  std::vector<std::uint64_t> size_histogram;
  std::vector<std::uint64_t> bin_messages, bin_bytes;
};

// The size_histogram bin of a message of `bytes` bytes.
std::size_t size_bin(std::uint64_t bytes);
constexpr std::size_t kSizeBins = 65;

// Takes events in trace order (each location's in time order).
class ProfileBuilder {
 public:
  // `bins` >= 1 time bins over begin..end.
  ProfileBuilder(std::size_t types, std::size_t regions, Location locations, std::size_t bins, double begin,
                 double end);
  void add(const Event& e);
  TraceProfile finish() { return std::move(out_); }

 private:
  struct Frame {
    SymbolId region;
    double enter_time, child_time;
  };
  struct LocationState {
    std::vector<Frame> stack;
    std::vector<std::uint32_t> depth;  // [region]: open instances of it (recursion)
    double time = 0.0;                 // of the location's last event
  };
  std::size_t bin(double time) const;
  // Exclusive time from..to of `region` into the time bins it overlaps.
  void spread(SymbolId region, double from, double to);
  std::size_t cell(Location loc, SymbolId region) const { return static_cast<std::size_t>(loc) * out_.regions + region; }

  TraceProfile out_;
  double width_;
  std::vector<LocationState> locations_;
};

// More time bins than a figure or a table can show are a mistake (and memory: bins x regions).
constexpr std::int64_t kMaxTimeBins = 1000000;
// The time bins of earl stats, earl.stats(), Lua's e:profile() and Tcl's e profile unless told.
constexpr std::int64_t kDefaultTimeBins = 20;
// `bins` as a count of time bins, or EarlError naming it when outside 1..kMaxTimeBins.
std::size_t checked_bins(std::int64_t bins);

// Every event of `trace`, in one pass; `bins` >= 1 time bins over its first..last time.
TraceProfile trace_profile(EventTrace& trace, std::size_t bins, const ProgressCallback& progress = {});

}  // namespace earl::profile
