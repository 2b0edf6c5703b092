// The staged output of cpp/output/staged_output.h for Python's writers (earl.output_paths):
// one rule for the staging name, the flush to disk and the rename into place.
#include <memory>
#include <string>

#include "bindings/python/bindings.h"
#include "bindings/python/init_once.h"
#include "bindings/python/text.h"
#include "output/staged_output.h"

namespace py = pybind11;

namespace earl::bindings {

void bind_outputs(py::module_& m) {
  py::class_<output::StagedFile> cls(m, "StagedFile",
                                 "An output file created empty under a staging name beside PATH; "
                                 "commit() flushes it to disk and renames it to PATH, discard() "
                                 "removes it.");
  cls.def(py::init([](const py::object& path) {
             return std::make_unique<output::StagedFile>(path_argument(path, "output"));
           }),
           py::arg("path"))
      .def_property_readonly("staged_path",
                             [](const output::StagedFile& f) { return py::bytes(f.staged_path()); },
                             "The staging file's path (bytes, as the OS has it).")
      .def("commit", &output::StagedFile::commit,
           "Flushes the staging file to disk and renames it into place; EarlError naming the "
           "output when that fails (the staging file is then removed).")
      .def("discard", &output::StagedFile::discard, "Removes the staging file (again: nothing).");
  init_once(cls);
}

}  // namespace earl::bindings
