#pragma once
// The collective half of the matching step: the k-th call on a communicator of every
// location that takes part in it forms one instance (without communicators: the k-th
// call of the same function, over all locations calling it); the pattern formulas apply
// to each instance (L = latest begin, E = earliest end).
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/records.h"
#include "analysis/severities.h"
#include "model/definitions.h"

namespace earl::analysis {

class CollectiveMatcher {
 public:
  // `definitions` name the ranks of each communicator (Early Scan's order).
  CollectiveMatcher(Severities& severities, ProblemCounts& problems, const Definitions& definitions)
      : severities_(severities), problems_(problems), definitions_(definitions) {}

  void add(const CollectiveRecord& record) { records_.push_back(record); }
  void add(RmaFenceOps&& ops);
  // Groups the records into instances and applies the formulas.
  void finish();

  std::uint64_t instance_count() const { return instances_; }

 private:
  void judge(std::vector<const CollectiveRecord*>& members);
  void synchronizing(const std::vector<const CollectiveRecord*>& members, Metric wait,
                     Metric completion);
  void all_overlap(const std::vector<const CollectiveRecord*>& members, Metric wait);
  void fence(const std::vector<const CollectiveRecord*>& members);
  void one_to_n(const std::vector<const CollectiveRecord*>& members);
  void n_to_one(const std::vector<const CollectiveRecord*>& members);
  void scan(std::vector<const CollectiveRecord*>& members);
  // Rank of each location in the communicator `key`; empty where the trace names no ranks.
  const std::unordered_map<Location, std::uint32_t>& ranks(std::int64_t key);

  Severities& severities_;
  ProblemCounts& problems_;
  const Definitions& definitions_;
  std::unordered_map<std::int64_t, std::unordered_map<Location, std::uint32_t>> ranks_;
  // (target, end of an RMA operation to it) issued before each fence instance (key, seq).
  std::map<std::pair<std::int64_t, std::uint64_t>, std::vector<std::pair<Location, double>>> fence_ops_;
  std::vector<CollectiveRecord> records_;
  std::uint64_t instances_ = 0;
};

}  // namespace earl::analysis
