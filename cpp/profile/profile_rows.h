#pragma once
// The tables of this layer as rows of named values, for the languages without DataFrames
// (Lua's e:profile() and e:region_instances(), Tcl's `e profile` and `e region_instances`).
// What is derived from the counts (shares, the per-location spread and imbalance, which
// rows are shown and in what order) is decided here once: earl.stats reads the same rows.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "profile/region_instances.h"
#include "profile/trace_profile.h"

namespace earl::profile {

// std::monostate: no value (a NaN of the columns: an open instance's exit time, a counter
// never sampled); a vector: the counters' growth of an instance, in metrics() order.
using Value = std::variant<std::monostate, std::int64_t, std::uint64_t, double, std::string, std::vector<double>>;
struct Field {
  const char* name;
  Value value;
};
using Row = std::vector<Field>;
struct Table {
  const char* name;
  std::vector<Row> rows;
};

// Per event type that occurs: its count and share of all events.
struct TypeRow {
  SymbolId type;
  std::uint64_t events;
  double share;
};
std::vector<TypeRow> type_rows(const TraceProfile& p);

// Per region entered, most inclusive time first (ties in region order): visits, inclusive
// and exclusive time over all locations, the per-location inclusive time's min, mean and
// max over every location (0 where it never entered), imbalance = max / mean - 1 (0 where
// the mean is 0).
struct FlatRow {
  SymbolId region;
  std::uint64_t visits;
  double inclusive, exclusive, min, mean, max, imbalance;
};
std::vector<FlatRow> flat_rows(const TraceProfile& p);

// The lower edge of time bin k (k = bins: the end), as numpy.linspace(begin, end, bins + 1).
double bin_edge(const TraceProfile& p, std::size_t k);

// types, flat_profile, messages (per sender and receiver pair with a message: count,
// bytes) and traffic (per time bin: begin, end, messages, bytes sent in it), with the
// trace's type and region names.
std::vector<Table> profile_tables(const TraceProfile& p, const std::vector<std::string>& types,
                                  const std::vector<std::string>& regions);

// Instance i as region_instances() shows it: loc, region, callpath (names), callpath_id,
// enter_pos, exit_pos, enter_time, exit_time, inclusive, exclusive, counters.
Row instance_row(const RegionInstances& found, std::size_t i, const std::vector<std::string>& regions);

}  // namespace earl::profile
