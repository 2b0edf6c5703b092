// The formats this build reads, for Python. The only binding that asks the format layer
// directly; everything else goes through the trace facade.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings/bindings.h"
#include "formats/open_decoder.h"

namespace py = pybind11;

namespace earl::bindings {

void bind_formats(py::module_& m) {
  m.def("known_formats", &known_formats, "The trace formats this build reads.");
}

}  // namespace earl::bindings
