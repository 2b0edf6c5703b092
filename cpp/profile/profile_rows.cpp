#include "profile/profile_rows.h"

#include <algorithm>
#include <cmath>

namespace earl::profile {

namespace {

// A NaN of the columns is no value.
Value number(double value) {
  if (std::isnan(value)) return std::monostate{};
  return value;
}

}  // namespace

std::vector<TypeRow> type_rows(const TraceProfile& p) {
  std::uint64_t total = 0;
  for (std::uint64_t count : p.type_count) total += count;
  const double all = static_cast<double>(std::max<std::uint64_t>(total, 1));
  std::vector<TypeRow> rows;
  for (std::size_t t = 0; t < p.type_count.size(); ++t)
    if (p.type_count[t] > 0)
      rows.push_back({static_cast<SymbolId>(t), p.type_count[t], static_cast<double>(p.type_count[t]) / all});
  return rows;
}

std::vector<FlatRow> flat_rows(const TraceProfile& p) {
  std::vector<FlatRow> rows;
  for (std::size_t r = 0; r < p.regions; ++r) {
    FlatRow row{static_cast<SymbolId>(r), 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    for (std::size_t loc = 0; loc < p.locations; ++loc) {
      const std::size_t at = loc * p.regions + r;
      const double inclusive = p.inclusive[at];
      row.visits += p.visits[at];
      row.inclusive += inclusive;
      row.exclusive += p.exclusive[at];
      row.min = loc == 0 ? inclusive : std::min(row.min, inclusive);
      row.max = loc == 0 ? inclusive : std::max(row.max, inclusive);
    }
    if (row.visits == 0) continue;
    row.mean = row.inclusive / static_cast<double>(p.locations);
    row.imbalance = row.mean > 0.0 ? row.max / row.mean - 1.0 : 0.0;
    rows.push_back(row);
  }
  std::stable_sort(rows.begin(), rows.end(), [](const FlatRow& a, const FlatRow& b) { return a.inclusive > b.inclusive; });
  return rows;
}

double bin_edge(const TraceProfile& p, std::size_t k) {
  if (k >= p.bins) return p.end;
  return static_cast<double>(k) * ((p.end - p.begin) / static_cast<double>(p.bins)) + p.begin;
}

std::vector<Table> profile_tables(const TraceProfile& p, const std::vector<std::string>& types,
                                  const std::vector<std::string>& regions) {
  std::vector<Table> out{{"types", {}}, {"flat_profile", {}}, {"messages", {}}, {"traffic", {}}};
  for (const TypeRow& t : type_rows(p))
    out[0].rows.push_back({{"type", types.at(t.type)}, {"events", t.events}, {"share", t.share}});
  for (const FlatRow& f : flat_rows(p))
    out[1].rows.push_back({{"region", regions.at(f.region)}, {"visits", f.visits}, {"inclusive", f.inclusive},
                           {"exclusive", f.exclusive}, {"min", f.min}, {"mean", f.mean}, {"max", f.max},
                           {"imbalance", f.imbalance}});
  for (std::size_t src = 0; src < p.locations; ++src)
    for (std::size_t dest = 0; dest < p.locations; ++dest) {
      const std::size_t at = src * p.locations + dest;
      if (p.message_count[at] == 0) continue;
      out[2].rows.push_back({{"src", static_cast<std::int64_t>(src)}, {"dest", static_cast<std::int64_t>(dest)},
                             {"count", p.message_count[at]}, {"bytes", p.message_bytes[at]}});
    }
  for (std::size_t b = 0; b < p.bins; ++b)
    out[3].rows.push_back({{"begin", bin_edge(p, b)}, {"end", bin_edge(p, b + 1)}, {"messages", p.bin_messages[b]},
                           {"bytes", p.bin_bytes[b]}});
  return out;
}

Row instance_row(const RegionInstances& found, std::size_t i, const std::vector<std::string>& regions) {
  const auto path = static_cast<std::size_t>(found.callpath.at(i));
  std::vector<double> counters(found.counters.begin() + static_cast<std::ptrdiff_t>(i * found.metrics),
                               found.counters.begin() + static_cast<std::ptrdiff_t>((i + 1) * found.metrics));
  return {{"loc", static_cast<std::int64_t>(found.loc[i])},
          {"region", regions.at(static_cast<std::size_t>(found.region[i]))},
          {"callpath", found.callpath_names.at(path)},
          {"callpath_id", static_cast<std::int64_t>(path)},
          {"enter_pos", static_cast<std::uint64_t>(found.enter_pos[i])},
          {"exit_pos", static_cast<std::uint64_t>(found.exit_pos[i])},
          {"enter_time", found.enter_time[i]},
          {"exit_time", number(found.exit_time[i])},
          {"inclusive", number(found.inclusive[i])},
          {"exclusive", number(found.exclusive[i])},
          {"counters", std::move(counters)}};
}

}  // namespace earl::profile
