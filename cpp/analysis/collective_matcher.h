#pragma once
// The collective half of the matching step: the k-th call on a communicator of every
// location that takes part in it forms one instance (without communicators: the k-th
// call of the same function, over all locations calling it); the pattern formulas apply
// to each instance (L = latest begin, E = earliest end).
#include <vector>

#include "analysis/records.h"
#include "analysis/severities.h"

namespace earl::analysis {

class CollectiveMatcher {
 public:
  CollectiveMatcher(Severities& severities, ProblemCounts& problems)
      : severities_(severities), problems_(problems) {}

  void add(const CollectiveRecord& record) { records_.push_back(record); }
  // Groups the records into instances and applies the formulas.
  void finish();

  std::uint64_t instance_count() const { return instances_; }

 private:
  void judge(std::vector<const CollectiveRecord*>& members);
  void synchronizing(const std::vector<const CollectiveRecord*>& members, Metric wait,
                     Metric completion);
  void all_overlap(const std::vector<const CollectiveRecord*>& members, Metric wait);
  void one_to_n(const std::vector<const CollectiveRecord*>& members);
  void n_to_one(const std::vector<const CollectiveRecord*>& members);
  void scan(const std::vector<const CollectiveRecord*>& members);

  Severities& severities_;
  ProblemCounts& problems_;
  std::vector<CollectiveRecord> records_;
  std::uint64_t instances_ = 0;
};

}  // namespace earl::analysis
