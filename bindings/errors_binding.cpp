#include <pybind11/pybind11.h>

#include "bindings/bindings.h"
#include "model/error.h"

namespace py = pybind11;

namespace earl::bindings {

void bind_errors(py::module_& m) {
  // One EARL error class, a subclass of Python's usual RuntimeError.
  static py::exception<EarlError> earl_error(m, "EarlError", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr raised) {
    try {
      if (raised) std::rethrow_exception(raised);
    } catch (const EarlError& error) {
      py::set_error(earl_error, error.what());
    } catch (const Interrupted&) {
      py::set_error(PyExc_KeyboardInterrupt, "");
    }
  });
}

}  // namespace earl::bindings
