#include "bindings/python/profile_tables.h"

#include <pybind11/numpy.h>

#include <vector>

#include "bindings/python/text.h"
#include "profile/profile_rows.h"

namespace py = pybind11;

namespace earl::bindings {

namespace {

// Copies of `values` as a NumPy vector, and as a rows x columns matrix (row-major).
template <typename T>
py::array_t<T> array(const std::vector<T>& values) {
  return py::array_t<T>(static_cast<py::ssize_t>(values.size()), values.data());
}
template <typename T>
py::array_t<T> matrix(const std::vector<T>& values, std::size_t rows, std::size_t columns) {
  return py::array_t<T>({static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(columns)}, values.data());
}

// A dict of one NumPy column per (member, name) pair of `rows`.
template <typename Row>
void add_columns(py::dict&, const std::vector<Row>&) {}
template <typename Row, typename T, typename... More>
void add_columns(py::dict& out, const std::vector<Row>& rows, T Row::*member, const char* name, More... more) {
  std::vector<T> column;
  column.reserve(rows.size());
  for (const Row& row : rows) column.push_back(row.*member);
  out[name] = array(column);
  add_columns(out, rows, more...);
}
template <typename Row, typename... Columns>
py::dict column_dict(const std::vector<Row>& rows, Columns... columns) {
  py::dict out;
  add_columns(out, rows, columns...);
  return out;
}

}  // namespace

py::dict instance_columns(const profile::RegionInstances& found) {
  py::dict out;
  out["loc"] = array(found.loc);
  out["region"] = array(found.region);
  out["callpath"] = array(found.callpath);
  out["enter_pos"] = array(found.enter_pos);
  out["exit_pos"] = array(found.exit_pos);
  out["enter_time"] = array(found.enter_time);
  out["exit_time"] = array(found.exit_time);
  out["inclusive"] = array(found.inclusive);
  out["exclusive"] = array(found.exclusive);
  out["counters"] = matrix(found.counters, found.loc.size(), found.metrics);
  out["callpath_names"] = texts(found.callpath_names);
  return out;
}

py::dict profile_columns(const profile::TraceProfile& p) {
  py::dict out;
  out["begin"] = p.begin;
  out["end"] = p.end;
  out["type_count"] = array(p.type_count);
  out["visits"] = matrix(p.visits, p.locations, p.regions);
  out["inclusive"] = matrix(p.inclusive, p.locations, p.regions);
  out["exclusive"] = matrix(p.exclusive, p.locations, p.regions);
  out["time_bins"] = matrix(p.time_bins, p.bins, p.regions);
  out["message_count"] = matrix(p.message_count, p.locations, p.locations);
  out["message_bytes"] = matrix(p.message_bytes, p.locations, p.locations);
  out["size_histogram"] = array(p.size_histogram);
  out["bin_messages"] = array(p.bin_messages);
  out["bin_bytes"] = array(p.bin_bytes);
  // The rows every language shows (profile/profile_rows.h), as columns.
  const std::vector<profile::TypeRow> types = profile::type_rows(p);
  out["types"] = column_dict(types, &profile::TypeRow::type, "type", &profile::TypeRow::events, "events",
                             &profile::TypeRow::share, "share");
  const std::vector<profile::FlatRow> flat = profile::flat_rows(p);
  using F = profile::FlatRow;
  out["flat_profile"] = column_dict(flat, &F::region, "region", &F::visits, "visits", &F::inclusive, "inclusive",
                                    &F::exclusive, "exclusive", &F::min, "min", &F::mean, "mean", &F::max, "max",
                                    &F::imbalance, "imbalance");
  return out;
}

}  // namespace earl::bindings
