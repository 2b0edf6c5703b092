#pragma once
// Severity per (metric, call path, location), and instance counts per pattern.
#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/call_tree.h"
#include "analysis/metric_tree.h"
#include "model/event.h"

namespace earl::analysis {

inline std::uint64_t cell_key(CallPathId callpath, Location loc) {
  return (static_cast<std::uint64_t>(callpath) << 32) | static_cast<std::uint32_t>(loc);
}
inline CallPathId cell_callpath(std::uint64_t key) { return static_cast<CallPathId>(key >> 32); }
inline Location cell_location(std::uint64_t key) { return static_cast<Location>(key & 0xFFFFFFFFu); }

class Severities {
 public:
  void add(Metric metric, CallPathId callpath, Location loc, double value) {
    cells_[index(metric)][cell_key(callpath, loc)] += value;
  }
  // A wait state found: `idle` > 0 seconds at the waiting call.
  void add_instance(Metric metric, CallPathId callpath, Location loc, double idle) {
    add(metric, callpath, loc, idle);
    ++instances_[index(metric)];
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
};

// What was wrong with the trace: counted, never fatal.
enum class Problem : std::uint8_t {
  UnmatchedSend,          // a send never received
  UnmatchedRecv,          // a receive whose send is not in the trace
  ExitOnEmptyStack,
  MismatchedExit,         // an exit of another region than the innermost open one
  UnclosedRegion,         // a region still open at the end of the trace
  ClockViolationP2P,      // a receive earlier than its send
  ClockViolationCollective,  // a collective ending before the latest begin it waits for
  IncompleteCollective,   // a collective instance some location is missing from
  MismatchedCollective,   // members of one instance called different operations
  CollectiveRootUnknown,  // a rooted collective whose root is unknown (ALOG) or absent
  Count
};

const char* problem_name(Problem problem);

struct ProblemCounts {
  std::array<std::uint64_t, static_cast<std::size_t>(Problem::Count)> counts{};
  void note(Problem p, std::uint64_t n = 1) { counts[static_cast<std::size_t>(p)] += n; }
  std::uint64_t operator[](Problem p) const { return counts[static_cast<std::size_t>(p)]; }
};

}  // namespace earl::analysis
