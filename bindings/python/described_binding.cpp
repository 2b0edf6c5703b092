// Described formats for Python (`earl describe`): checking a description and the keys a
// description may use; the core (cpp/formats/described) does both.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings/python/bindings.h"
#include "formats/described/description_loader.h"

namespace py = pybind11;

namespace earl::bindings {

void bind_described(py::module_& m) {
  m.def(
      "check_description", [](const std::string& path) { return description_outline(load_description(path)); },
      py::arg("path"),
      "Checks the format description at `path` and returns what it defines (one line per record kind); "
      "EarlError naming its line and column when it is bad.");
  m.def("description_keys", &description_keys,
        "Every key a format description may use, as 'table.key' ('record.field.type').");
}

}  // namespace earl::bindings
