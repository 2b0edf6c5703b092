#pragma once
// Python code called back from C++ work that runs without the GIL: progress reports,
// Ctrl-C checks, the generator's truth writer. A Python exception cannot travel through
// the C++ frames in between (they may run on another thread, and C++ only knows how to
// stop), so it is kept here while the work stops by its own means (a progress callback
// returns false, a poll throws earl::Interrupted), and re-raised, the very object, once
// the work has unwound and the GIL is held again.
#include <pybind11/pybind11.h>

#include <optional>
#include <utility>

#include "model/error.h"

namespace earl::bindings {

class PythonCallbacks {
 public:
  // Runs f with the GIL held. False when it raised: the first such error is kept.
  template <typename F>
  bool call(F&& f) {
    pybind11::gil_scoped_acquire locked;
    try {
      f();
      return true;
    } catch (pybind11::error_already_set& raised) {
      keep(std::move(raised));
      return false;
    }
  }

  // Like call(), inside C++ work that stops by exception: when f raised, throws a
  // messenger that without_gil() replaces by the kept error.
  template <typename F>
  void call_or_unwind(F&& f) {
    if (!call(std::forward<F>(f))) throw Interrupted();
  }

  // False when a signal handler raised (Ctrl-C: KeyboardInterrupt); the error is kept.
  bool no_signal() {
    pybind11::gil_scoped_acquire locked;
    if (PyErr_CheckSignals() == 0) return true;
    keep(pybind11::error_already_set());
    return false;
  }

  // A poll for C++ work that stops by exception rather than by a false return.
  void poll() {
    if (!no_signal()) throw Interrupted();
  }

  // A progress callback: reports `fraction` to `report` (None: nobody listens) and says
  // whether the work may go on.
  bool progress(const pybind11::object& report, double fraction) {
    if (!no_signal()) return false;
    if (report.is_none()) return true;
    return call([&] { report(fraction); });
  }

  // Runs `work` with the GIL released. When it ends by an exception and a Python error
  // was kept, that error is raised instead: the C++ exception was only its messenger.
  template <typename Work>
  auto without_gil(Work&& work) -> decltype(work()) {
    try {
      pybind11::gil_scoped_release unlocked;
      return work();
    } catch (...) {
      rethrow_kept();
      throw;
    }
  }

  // Raises the kept Python error, if any (GIL held).
  void rethrow_kept() {
    if (!error_) return;
    pybind11::error_already_set raised = std::move(*error_);
    error_.reset();
    throw raised;
  }

 private:
  void keep(pybind11::error_already_set&& raised) {
    if (!error_) error_.emplace(std::move(raised));
  }

  std::optional<pybind11::error_already_set> error_;
};

}  // namespace earl::bindings
