#pragma once
#include <pybind11/pybind11.h>

namespace earl::bindings {

// True when Ctrl-C (or another signal handler that raises) is pending in Python. Called
// now and then from C++ work running without the GIL; takes the GIL for the check and
// clears the Python error, since the caller stops the work by its own means (returning
// false from a progress callback or throwing earl::Interrupted, which the module turns
// into KeyboardInterrupt).
inline bool python_interrupt_pending() {
  pybind11::gil_scoped_acquire locked;
  if (PyErr_CheckSignals() == 0) return false;
  PyErr_Clear();
  return true;
}

}  // namespace earl::bindings
