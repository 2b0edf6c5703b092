#pragma once
// Plain data for Python: a list made from a C++ sequence, one item per element. With
// pybind11's keyword dicts, py::dict("src"_a = x.src, ...), a list of records is one
// expression instead of a loop that fills a dict field by field.
#include <pybind11/pybind11.h>

namespace earl::bindings {

template <class Items, class Make>
pybind11::list list_of(const Items& items, Make&& make) {
  pybind11::list out;
  for (const auto& item : items) out.append(make(item));
  return out;
}

}  // namespace earl::bindings
