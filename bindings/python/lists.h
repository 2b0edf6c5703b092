#pragma once
// Plain data for Python: a list made from a C++ sequence, one item per element. With
// pybind11's keyword dicts, py::dict("src"_a = x.src, ...), a list of records is one
// expression instead of a loop that fills a dict field by field.
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "bindings/python/text.h"

namespace earl::bindings {

// Counts by first appearance (what -> how many) as a dict in that order.
inline pybind11::dict counts_dict(const std::vector<std::pair<std::string, std::uint64_t>>& entries) {
  pybind11::dict d;
  for (const auto& [what, count] : entries) d[text(what)] = count;
  return d;
}

template <class Items, class Make>
pybind11::list list_of(const Items& items, Make&& make) {
  pybind11::list out;
  for (const auto& item : items) out.append(make(item));
  return out;
}

}  // namespace earl::bindings
