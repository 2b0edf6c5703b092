#include "analysis/analysis.h"

#include <algorithm>
#include <memory>

#include "analysis/collective_matcher.h"
#include "analysis/location_pass.h"
#include "analysis/message_matcher.h"
#include "analysis/region_catalog.h"
#include "analysis/rma_matcher.h"
#include "format_interface/trace_decoder.h"
#include "model/error.h"
#include "registry/format_registry.h"
#include "timecorrect/corrected_decoder.h"

namespace earl::analysis {

namespace {

constexpr std::uint64_t kProgressEvery = 1 << 16;

// The matching step in the same process: records go straight to the matchers.
class InProcessMatching : public RecordSink {
 public:
  InProcessMatching(Severities& severities, ProblemCounts& problems, const Definitions& definitions)
      : messages_(severities, problems),
        collectives_(severities, problems, definitions),
        rma_(severities, problems) {}
  void on_send(const SendRecord& send) override {
    ++sends_;
    messages_.send(send);
  }
  void on_receive_call(ReceiveCall&& call) override { messages_.receive_call(std::move(call)); }
  void on_collective(const CollectiveRecord& c) override { collectives_.add(c); }
  void on_rma_access(RmaAccessEpoch&& epoch) override { rma_.add(std::move(epoch)); }
  void on_rma_exposure(RmaExposureEpoch&& epoch) override { rma_.add(std::move(epoch)); }
  void on_rma_lock(const RmaLockEpoch& epoch) override { rma_.add(epoch); }
  void on_rma_fence_ops(RmaFenceOps&& ops) override { collectives_.add(std::move(ops)); }
  void finish() {
    messages_.finish();
    collectives_.finish();
    rma_.finish();
  }
  std::uint64_t sends() const { return sends_; }
  const std::vector<ReceiveRecount>& receive_recounts() const { return messages_.recounts(); }
  std::uint64_t collective_instances() const { return collectives_.instance_count(); }

 private:
  MessageMatcher messages_;
  CollectiveMatcher collectives_;
  RmaMatcher rma_;
  std::uint64_t sends_ = 0;
};

void fold_profile(const LocationProfile& profile, Location loc, const CallTree& tree,
                  RegionCatalog& regions, Severities& severities) {
  for (CallPathId id = 0; id < profile.exclusive_time.size(); ++id) {
    if (profile.visits[id] == 0 && profile.exclusive_time[id] == 0.0) continue;
    const RegionClass& cls = regions.of(tree.nodes()[id].region);
    severities.add_up(cls.metric, id, loc, profile.exclusive_time[id]);
    severities.add(Metric::Visits, id, loc, static_cast<double>(profile.visits[id]));
    if (const std::uint32_t slot = profile.tally_slot[id]) {
      const Tallies& tallies = profile.tallies[slot - 1];
      for (std::size_t t = 0; t < kTallies; ++t)
        if (tallies[t]) severities.add_up(kTallyMetric[t], id, loc, static_cast<double>(tallies[t]));
    }
  }
}

// Each location's exclusive counter amounts into `counters`, with inclusive ones summed up
// the call tree.
void fold_counters(const std::vector<MetricDefinition>& metrics,
                   const std::vector<std::unique_ptr<LocationPass>>& passes, const CallTree& tree,
                   std::vector<CounterResult>& counters) {
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    if (metrics[m].sum == MetricSum::None) continue;
    CounterResult result{metrics[m], {}, {}};
    for (std::size_t loc = 0; loc < passes.size(); ++loc) {
      const auto& by_location = passes[loc]->counters().exclusive();
      if (m >= by_location.size()) continue;
      for (const auto& [callpath, amount] : by_location[m]) {
        const Location l = static_cast<Location>(loc);
        result.exclusive[cell_key(callpath, l)] += amount;
        if (callpath == kNoCallPath) {
          result.inclusive[cell_key(callpath, l)] += amount;
          continue;
        }
        for (CallPathId up = callpath; up != kNoCallPath; up = tree.nodes()[up].parent)
          result.inclusive[cell_key(up, l)] += amount;
      }
    }
    counters.push_back(std::move(result));
  }
}

}  // namespace

AnalysisResult analyze(const std::string& file, const AnalysisOptions& options) {
  // One forward pass: the decoder is read directly, without EARL's event cache.
  if (options.time_correct) options.clock.validate();
  std::unique_ptr<TraceDecoder> decoder = open_decoder(file, options.format, false, ReadOptions{options.strict});
  std::uint64_t clock_jumps = 0;
  if (options.time_correct) {
    auto corrected = std::make_unique<CorrectedDecoder>(std::move(decoder), options.clock, options.progress);
    clock_jumps = corrected->corrections().jump_count();
    decoder = std::move(corrected);
  }
  return read_from_start(*decoder, [&] {
    AnalysisResult result;
    result.severities.keep_worst(options.kept_worst);
    CallTree tree;
    RegionCatalog regions(decoder->definitions());
    InProcessMatching matching(result.severities, result.problems, decoder->definitions());
    std::vector<std::unique_ptr<LocationPass>> passes;
    Event e;
    std::uint64_t until_progress = kProgressEvery;
    while (decoder->read(e)) {
      ++result.events;
      if (e.loc < 0) throw EarlError(file + ": event " + std::to_string(result.events) + " has no location");
      while (static_cast<std::size_t>(e.loc) >= passes.size())
        passes.push_back(std::make_unique<LocationPass>(static_cast<Location>(passes.size()), tree,
                                                        regions, matching, result.problems));
      passes[static_cast<std::size_t>(e.loc)]->event(e);
      if (--until_progress == 0) {
        until_progress = kProgressEvery;
        if (options.progress && !options.progress(decoder->progress())) throw Interrupted();
      }
    }
    for (auto& pass : passes) pass->finish();
    matching.finish();
    for (const ReceiveRecount& recount : matching.receive_recounts())
      passes[static_cast<std::size_t>(recount.loc)]->recount_receive(recount);
    for (std::size_t loc = 0; loc < passes.size(); ++loc) {
      const LocationProfile& profile = passes[loc]->profile();
      fold_profile(profile, static_cast<Location>(loc), tree, regions, result.severities);
      const std::size_t first = result.traffic.size();
      for (const auto& [dest, t] : profile.sent_to)
        result.traffic.push_back({static_cast<Location>(loc), dest, t.bytes, t.messages});
      std::sort(result.traffic.begin() + static_cast<std::ptrdiff_t>(first), result.traffic.end(),
                [](const TrafficCell& a, const TrafficCell& b) { return a.dest < b.dest; });
    }

    const Definitions& defs = decoder->definitions();
    fold_counters(defs.metrics, passes, tree, result.counters);
    result.file = file;
    result.format = decoder->format();
    result.callpaths = tree.nodes();
    result.regions = defs.regions.names();
    if (!defs.region_details.empty()) {
      result.region_details = defs.region_details;
      result.region_details.resize(result.regions.size());
    }
    const Location n = std::max<Location>(defs.location_count, static_cast<Location>(passes.size()));
    for (Location l = 0; l < n; ++l)
      result.locations.push_back(static_cast<std::size_t>(l) < defs.location_names.size() ? defs.location_names[l] : "");
    if (defs.system_tree.location_process.size() == result.locations.size()) result.system_tree = defs.system_tree;
    result.messages = matching.sends();
    result.collective_instances = matching.collective_instances();
    result.clock_jumps = clock_jumps;
    result.damaged = decoder->damage();
    if (options.progress && !options.progress(1.0)) throw Interrupted();
    return result;
  });
}

}  // namespace earl::analysis
