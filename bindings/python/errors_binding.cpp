#include <pybind11/pybind11.h>

#include "bindings/python/bindings.h"
#include "bindings/python/text.h"
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
      // Messages name files and records: bytes that are not UTF-8 become \xNN escapes.
      PyObject* message = message_text(error.what());
      if (!message) return;  // the decoding error is set instead
      PyErr_SetObject(earl_error.ptr(), message);
      Py_DECREF(message);
    } catch (const Interrupted&) {
      py::set_error(PyExc_KeyboardInterrupt, "");
    }
  });
}

}  // namespace earl::bindings
