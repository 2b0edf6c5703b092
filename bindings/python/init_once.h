#pragma once
// A bound class's __init__ runs once per object. pybind11 silently ignores a second
// __init__ on a live object (pybind11.h: "just ignore the second __init__"), so
// `t.__init__("other.alog")` would return with `t` still on its first trace while the caller
// believes it reopened it. init_once wraps the class's __init__ so that a second call is a
// TypeError naming the class; the first call (and one after a failed first) goes through.
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <unordered_map>

namespace earl::bindings {

template <typename Class>
void init_once(Class& cls) {
  namespace py = pybind11;
  py::object original = cls.attr("__init__");
  const std::string name = py::str(cls.attr("__name__"));
  // The objects whose __init__ has returned, each with a weak reference whose callback
  // forgets it when it dies (so that a new object at the same address starts afresh).
  // pybind11 keeps whether an object is constructed in its private `detail` API only.
  auto initialised = std::make_shared<std::unordered_map<PyObject*, py::object>>();
  // The wrapper shows the original's docstring (its signature lines included) as its own;
  // the class is bound once per process, so the copy lives as long as the function.
  const auto* doc = new std::string(py::str(original.attr("__doc__")));
  py::options options;
  options.disable_function_signatures();
  cls.attr("__init__") = py::cpp_function(
      [original, name, initialised](py::handle self, const py::args& args, const py::kwargs& kwargs) {
        PyObject* key = self.ptr();
        if (initialised->count(key))
          throw py::type_error(name + ".__init__ called again on an initialised " + name +
                               "; create a new " + name + " instead");
        original(self, *args, **kwargs);
        py::cpp_function forget([initialised, key](py::handle) { initialised->erase(key); });
        initialised->emplace(key, py::weakref(self, forget));
      },
      // Not named __init__: pybind11 treats a function of that name as a constructor and
      // would ignore the second call before this one could refuse it.
      py::name("init_once"), py::is_method(cls), py::doc(doc->c_str()));
}

}  // namespace earl::bindings
