// Python binding of the trace generator (`earl gen`): _core.generate(path, options, keep)
// runs the C++ generator with the GIL released and returns the ground truth as a dict;
// _core.generator_options() describes every option (cpp/gen/options.h) so that Python
// needs no copy of names, defaults or help texts.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "bindings/python/bindings.h"
#include "bindings/python/generator_options.h"
#include "bindings/python/ground_truth.h"
#include "bindings/python/callbacks.h"
#include "gen/generator.h"
#include "bindings/python/text.h"
#include "format_interface/trace_writer.h"

namespace py = pybind11;

namespace earl::bindings {

namespace {

py::dict generate(const py::object& target, const py::dict& given, const py::object& keep,
                  const py::object& progress) {
  const std::string path = path_argument(target, "path");
  gen::GenOptions options = options_from(given);
  options.validate();
  PythonCallbacks callbacks;
  // The generator polls now and then: a pending signal (Ctrl-C) or a progress callback
  // that raises stops it.
  options.poll = [&](double fraction) {
    if (!callbacks.progress(progress, fraction)) throw Interrupted();
  };
  py::dict truth;
  callbacks.without_gil([&] {
    gen::generate(options, path, [&](const gen::GenResult& result) {
      callbacks.call_or_unwind([&] {
        truth = truth_to_python(options, result);
        if (!keep.is_none()) keep(truth);
      });
    });
  });
  return truth;
}

}  // namespace

void bind_generator(py::module_& m) {
  m.def("generate", &generate, py::arg("path"), py::arg("options") = py::dict(),
        py::arg("keep") = py::none(), py::arg("progress") = py::none(),
        "Writes a synthetic trace to `path` ({name: value} options, see generator_options()) "
        "and returns its ground truth as a dict. `keep(truth)` runs before the trace is "
        "final: when it raises, the trace is removed and its exception propagates. "
        "`progress(fraction)` is called now and then with the part of the target written; "
        "when it raises, generation stops, nothing is left behind and its exception "
        "propagates.");
  m.def("generator_options", &describe_options,
        "The generator's options: name, type, default, group, help, min, max, choices.");
}

}  // namespace earl::bindings
