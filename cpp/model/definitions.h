#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/event.h"
#include "model/symbol_table.h"

namespace earl {

// How a metric's samples add up over time, which decides whether an amount can be given
// per call path: differences of consecutive samples (a running total, OTF2's accumulated
// start/point), each sample itself (an amount since the previous sample, accumulated or
// relative last), or not at all (a level such as absolute values, or timings the analysis
// does not attribute: next, relative point).
enum class MetricSum : std::uint8_t { Difference, Sample, None };

// A hardware or software counter the trace defines (OTF2: a MetricMember). Metric events
// name it by its index in Definitions::metrics. Values are value * base^exponent `unit`.
struct MetricDefinition {
  std::string name, unit, description;
  std::string mode;        // OTF2's metric mode in lower case: "accumulated_start", ...
  std::string source;      // OTF2's metric type: "papi", "rusage", "user", "other"
  std::string value_type;  // "int64", "uint64" or "double"
  std::int64_t base = 10, exponent = 0;
  MetricSum sum = MetricSum::None;
};

// What a trace defines besides its events: names of types, regions, groups, locations.
// A decoder fills it; the trace facade answers the header queries from it.
struct Definitions {
  Definitions();

  SymbolTable types;    // 0 enter, 1 exit, 2 send, 3 recv, then format-defined types
  SymbolTable regions;  // in order of definition
  SymbolTable groups;   // region groups; formats without groups use only "All"
  std::vector<SymbolId> region_group;  // group of each region
  SymbolTable strings;  // string values of data1/data2
  std::vector<MetricDefinition> metrics;  // in definition order
  // Names of the first locations, "" where the trace names none; it grows only as far as
  // names are given, so a trace declaring many locations costs memory for those it names.
  std::vector<std::string> location_names;
  Location location_count = 0;
  // The span the trace declares its events lie in, in seconds (OTF2: the clock
  // properties); declared_end 0 where it declares none.
  double declared_begin = 0.0, declared_end = 0.0;
  // Members of each communicator (by com), where the format says.
  std::unordered_map<std::int64_t, std::uint32_t> communicator_sizes;
  // Members of the process groups one-sided synchronisation names (OTF2's RmaGroupSync),
  // as locations, by group id.
  std::unordered_map<std::int64_t, std::vector<Location>> location_groups;
  // The group (a key of location_groups) of each communicator whose ranks the format
  // names: rank r of `com` is location_groups[communicator_groups[com]][r].
  std::unordered_map<std::int64_t, std::int64_t> communicator_groups;

  SymbolId define_region(const std::string& name, const std::string& group);
  void ensure_location(Location loc);  // grows location_count to include loc
  void name_location(Location loc, std::string name);  // also ensures loc
  const std::string& location_name(Location loc) const;  // "" where none
  // A wild timestamp (e.g. a flipped high bit): further outside the declared span than
  // that span is long. Time checks count it as time_order; clock correction leaves it be.
  bool outside_declared_span(double time) const;
};

// The most locations a trace may declare or use: more than the largest machines run, far
// less than a corrupt count (2^31-1) would make EARL allocate.
constexpr Location kMaxLocations = Location(1) << 24;

}  // namespace earl
