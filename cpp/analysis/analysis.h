#pragma once
// `earl analyze`: the automatic wait-state analysis (Scalasca's patterns, seed 001
// chapter 6). One pass reads the trace through its format's decoder (any format the
// registry reads); each event goes to the pass of its location (analysis/location_pass.h),
// which keeps that location's region stack and profile and emits compact records; the
// matching step (message_matcher.h, collective_matcher.h) joins sends with receives and
// the members of each collective and applies the pattern formulas. Passes see only their
// own location's events, so they can run apart and the records be matched elsewhere; here
// one process runs both, records matched as they come.
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/call_tree.h"
#include "analysis/severities.h"
#include "format_interface/trace_decoder.h"
#include "model/definitions.h"
#include "timecorrect/clock_corrections.h"

namespace earl::analysis {

struct AnalysisOptions {
  std::string format;  // "" = detect from the content
  // Called every 2^16 events with the part read (0..1); returning false stops the
  // analysis with earl::Interrupted.
  std::function<bool(double)> progress;
  // Analyse the times the controlled logical clock corrects (timecorrect/): one more pass.
  bool time_correct = false;
  ClockCorrectionOptions clock;
  // A damaged trace (an OTF2 event file or an ALOG file cut short) is an error; without it the damaged
  // locations are analysed up to the damage and listed in AnalysisResult::damaged.
  bool strict = false;
  // How many of the longest wait instances AnalysisResult::severities.worst() holds (with
  // when each began); Severities::worst_left_out() counts those beyond.
  std::size_t kept_worst = Severities::kKeptWorst;
};

// Point-to-point traffic from one location to another (sends, matched or not).
struct TrafficCell {
  Location src, dest;
  ByteSum bytes;  // exact: 64-bit lengths add up without wrapping
  std::uint64_t messages;
};

// A counter the trace defines (MetricDefinition::sum not None) per call path and location:
// exclusive (what no callee counted) and inclusive (with every callee: Cube's inclusive
// value, leave - enter for Score-P's accumulated counters), by cell_key(callpath, loc).
struct CounterResult {
  MetricDefinition metric;
  std::unordered_map<std::uint64_t, double> exclusive, inclusive;
};

struct AnalysisResult {
  std::string file, format;
  std::uint64_t events = 0;
  std::vector<CallTree::Node> callpaths;  // ids as in the severities
  std::vector<std::string> regions;       // region names by id
  std::vector<std::string> locations;     // location names ("" where the trace has none)
  // What the format says of the regions beyond their names (by region id, as long as
  // `regions`; empty where it says nothing) and of the machine (SystemTree: empty unless it
  // places every location): for the Cube output.
  std::vector<RegionDetails> region_details;
  SystemTree system_tree;
  Severities severities;  // inclusive along the metric tree, exclusive along call paths
  ProblemCounts problems;
  std::uint64_t messages = 0;             // sends seen
  std::uint64_t collective_instances = 0;
  std::uint64_t clock_jumps = 0;  // with time_correct: events the correction moved by a bound
  std::vector<TrafficCell> traffic;  // by source, then destination
  std::vector<StreamDamage> damaged;  // locations read only up to damage in the input
  std::vector<CounterResult> counters;  // in definition order
};

// EarlError naming the file when it cannot be read.
AnalysisResult analyze(const std::string& file, const AnalysisOptions& options = {});

}  // namespace earl::analysis
