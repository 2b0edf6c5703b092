// The format registry for Python: what this build reads and writes, from the one table in
// cpp/registry (Python keeps no list of its own).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings/python/bindings.h"
#include "registry/format_registry.h"

namespace py = pybind11;

namespace earl::bindings {

namespace {

py::list describe_formats() {
  py::list rows;
  for (const TraceFormat* format : trace_formats()) {
    py::dict row;
    row["name"] = format->name;
    row["description"] = format->description;
    row["extensions"] = format->extensions;
    row["aliases"] = format->aliases;
    row["reads"] = format->open_reader != nullptr;
    row["writes"] = format->open_writer != nullptr;
    row["cached"] = format->open_import != nullptr;
    row["unavailable"] = format->unavailable ? py::object(py::str(format->unavailable)) : py::none();
    rows.append(row);
  }
  return rows;
}

}  // namespace

void bind_formats(py::module_& m) {
  m.def("formats", &describe_formats,
        "Every trace format EARL knows: name, description, extensions, other names (aliases), whether this build "
        "reads and writes it, whether it reads through the event cache, and why not where "
        "it cannot.");
  m.def("known_formats", &readable_formats, "The trace formats this build reads.");
  m.def("generator_formats", &writable_formats, "The trace formats this build writes (earl gen, earl convert).");
  m.def("format_for_path", &format_for_path, py::arg("path"),
        "The format a file name implies by its ending ('' when none does).");
}

}  // namespace earl::bindings
