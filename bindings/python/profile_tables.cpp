#include "bindings/python/profile_tables.h"

#include <pybind11/numpy.h>

#include <vector>

#include "bindings/python/text.h"

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
  return out;
}

}  // namespace earl::bindings
