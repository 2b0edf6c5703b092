#pragma once
// Hardware counters per call path on one location: each sample of a counter the trace
// defines (a metric event) adds the amount since the previous sample to the call path
// innermost open at the sample, the exclusive value. Score-P samples at every enter and
// leave, just before it: the samples a region instance spans after its enter's own sample,
// up to its leave's, add up to leave - enter, so a call path's exclusive values summed
// over its subtree are Cube's inclusive value (the difference between leave and enter).
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "analysis/call_tree.h"
#include "model/definitions.h"
#include "model/event.h"

namespace earl::analysis {

class CounterSamples {
 public:
  explicit CounterSamples(const std::vector<MetricDefinition>& metrics) : metrics_(metrics) {}

  // A metric event on this location while `callpath` is innermost open (kNoCallPath: none).
  void sample(const Event& e, CallPathId callpath);

  // Exclusive amounts per metric index (Definitions::metrics), by call path.
  const std::vector<std::unordered_map<CallPathId, double>>& exclusive() const { return exclusive_; }

 private:
  const std::vector<MetricDefinition>& metrics_;
  std::vector<Value> last_;  // per metric: its previous sample (kind None: none yet)
  std::vector<std::unordered_map<CallPathId, double>> exclusive_;
};

}  // namespace earl::analysis
