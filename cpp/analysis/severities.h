#pragma once
// Severity per (metric, call path, location), and instance counts per pattern.
#include <array>
#include <cmath>
#include <cstdint>
#include <queue>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/call_tree.h"
#include "analysis/metric_tree.h"
#include "model/event.h"

namespace earl::analysis {

// Sums of 64-bit message lengths (byte tallies, the traffic matrix): 2^64 messages of
// 2^64 - 1 bytes cannot wrap 128 bits, where a 64-bit sum would wrap to a small number.
using ByteSum = unsigned __int128;

inline std::uint64_t cell_key(CallPathId callpath, Location loc) {
  return (static_cast<std::uint64_t>(callpath) << 32) | static_cast<std::uint32_t>(loc);
}
inline CallPathId cell_callpath(std::uint64_t key) { return static_cast<CallPathId>(key >> 32); }
inline Location cell_location(std::uint64_t key) { return static_cast<Location>(key & 0xFFFFFFFFu); }

// One wait state found, for the timeline of the worst ones: `idle` seconds from `begin`.
struct WaitInstance {
  Metric metric;
  CallPathId callpath;
  Location loc;
  double begin, idle;
};

class Severities {
 public:
  // How many of the longest wait instances are kept by default (for the report's
  // timeline); AnalysisOptions::kept_worst changes it (earl convert --wait-states keeps all
  // up to a bound).
  static constexpr std::size_t kKeptWorst = 50;

  void keep_worst(std::size_t count) { kept_worst_ = count; }

  void add(Metric metric, CallPathId callpath, Location loc, double value) {
    cells_[index(metric)][cell_key(callpath, loc)] += value;
  }
  // `value` for `metric` and every metric above it (an amount its parents hold as a part).
  void add_up(Metric metric, CallPathId callpath, Location loc, double value) {
    for (Metric m = metric; m != Metric::Count; m = metric_info(m).parent) add(m, callpath, loc, value);
  }
  // A wait state found: `idle` > 0 seconds at the waiting call.
  // `begin`: when the wait began (NaN: a wait reclassified from another, not kept again).
  void add_instance(Metric metric, CallPathId callpath, Location loc, double idle,
                    double begin = std::nan("")) {
    add(metric, callpath, loc, idle);
    ++instances_[index(metric)];
    if (std::isnan(begin)) return;
    if (worst_.size() < kept_worst_) {
      worst_.push({metric, callpath, loc, begin, idle});
      return;
    }
    ++worst_left_out_;
    if (!worst_.empty() && idle > worst_.top().idle) {
      worst_.pop();
      worst_.push({metric, callpath, loc, begin, idle});
    }
  }
  // Wait instances with a begin that worst() does not hold (beyond the number kept).
  std::uint64_t worst_left_out() const { return worst_left_out_; }
  // The longest wait instances, longest first.
  std::vector<WaitInstance> worst() const {
    auto heap = worst_;
    std::vector<WaitInstance> out;
    for (; !heap.empty(); heap.pop()) out.push_back(heap.top());
    return {out.rbegin(), out.rend()};
  }
  void count_instance(Metric metric) { ++instances_[index(metric)]; }

  const std::unordered_map<std::uint64_t, double>& cells(Metric metric) const {
    return cells_[index(metric)];
  }
  std::uint64_t instances(Metric metric) const { return instances_[index(metric)]; }

 private:
  static std::size_t index(Metric m) { return static_cast<std::size_t>(m); }
  std::array<std::unordered_map<std::uint64_t, double>, kMetricCount> cells_;
  std::array<std::uint64_t, kMetricCount> instances_{};
  struct Shorter {
    bool operator()(const WaitInstance& a, const WaitInstance& b) const { return a.idle > b.idle; }
  };
  std::priority_queue<WaitInstance, std::vector<WaitInstance>, Shorter> worst_;  // shortest on top
  std::size_t kept_worst_ = kKeptWorst;
  std::uint64_t worst_left_out_ = 0;
};

// What was wrong with the trace: counted, never fatal.
enum class Problem : std::uint8_t {
  UnmatchedSend,          // a send never received
  UnmatchedRecv,          // a receive whose send is not in the trace
  ExitOnEmptyStack,
  MismatchedExit,         // an exit of another region than the innermost open one
  UnclosedRegion,         // a region still open at the end of the trace
  ClockViolationP2P,      // a receive earlier than its send
  ClockViolationCollective,  // a collective (or MPI_Win_wait) ending before the latest begin it waits for
  IncompleteCollective,   // a collective instance some location is missing from
  MismatchedCollective,   // members of one instance called different operations
  CollectiveRootUnknown,  // a rooted collective whose root is unknown (ALOG) or absent
  UnmatchedRmaEpoch,      // an access/exposure epoch whose partner epoch is not in the trace
  // What the reader counts too (EventTrace.problems()), by the same rules:
  TimeOrder,              // an event before the latest of its location, or a wild timestamp
                          // (model/location_time_order.h); analysed at that latest time
  UnresolvedReference,    // a record referring to something the trace does not define
  Count
};

const char* problem_name(Problem problem);

struct ProblemCounts {
  std::array<std::uint64_t, static_cast<std::size_t>(Problem::Count)> counts{};
  void note(Problem p, std::uint64_t n = 1) { counts[static_cast<std::size_t>(p)] += n; }
  std::uint64_t operator[](Problem p) const { return counts[static_cast<std::size_t>(p)]; }
};

}  // namespace earl::analysis
