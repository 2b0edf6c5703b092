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

// What a format says of a region beyond its name (OTF2: the Region definition), in the
// format's own words; Definitions::region_details holds them where the format gives them.
struct RegionDetails {
  std::string canonical_name;  // e.g. the mangled name; "" where the trace gives none
  std::string description;
  std::string file;            // source file; Score-P writes "MPI" for MPI functions
  std::string paradigm;        // OTF2's name: "MPI", "COMPILER", "MEASUREMENT_SYSTEM", ...
  std::string role;            // OTF2's name: "FUNCTION", "COLL_ALL2ALL", "POINT2POINT", ...
  std::uint32_t begin_line = 0, end_line = 0;  // 0 where unknown
};

// The machine a trace ran on, where the format describes it (OTF2's system tree and
// location groups): levels such as "machine Linux" > "node quartz10", each process on a
// level, each location in a process. Empty where the format does not say, or says it of
// only some locations.
struct SystemTree {
  struct Level {
    std::string name, kind;  // "quartz10", "node" (OTF2: the node's name and class)
    std::int64_t parent;     // index into levels; -1 for a root
  };
  struct Process {
    std::string name;        // "MPI Rank 0"
    std::int64_t rank;       // the format's id of the process (OTF2: the location group's)
    std::int64_t level;      // index into levels
  };
  std::vector<Level> levels;  // in definition order
  std::vector<Process> processes;  // in definition order
  std::vector<std::int64_t> location_process;  // by location: index into processes
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
  // By region id, where the format describes regions (OTF2); empty for the others. Regions
  // met only in the events (undefined ones) may lie beyond its end.
  std::vector<RegionDetails> region_details;
  SystemTree system_tree;
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
