#pragma once
// The one-sided half of the matching step for active-target synchronisation: joins each
// origin's access epochs with its targets' exposure epochs (the k-th of each (origin,
// target, window) with the k-th) and applies Late Post, Early Wait and Late Complete.
// Epochs are few; they are kept until the end and judged there.
#include <vector>

#include "analysis/records.h"
#include "analysis/severities.h"

namespace earl::analysis {

class RmaMatcher {
 public:
  RmaMatcher(Severities& severities, ProblemCounts& problems)
      : severities_(severities), problems_(problems) {}

  void add(RmaAccessEpoch&& epoch) { accesses_.push_back(std::move(epoch)); }
  void add(RmaExposureEpoch&& epoch) { exposures_.push_back(std::move(epoch)); }
  void add(const RmaLockEpoch& epoch) { locks_.push_back(epoch); }
  void finish();

 private:
  Severities& severities_;
  ProblemCounts& problems_;
  std::vector<RmaAccessEpoch> accesses_;
  std::vector<RmaExposureEpoch> exposures_;
  std::vector<RmaLockEpoch> locks_;
  void lock_competition();
};

}  // namespace earl::analysis
