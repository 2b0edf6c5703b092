#pragma once
// Python's face of the open options table (trace/open_options.h): EventTrace's parameters,
// their conversion from Python values, and the table for Python code (argparse help).
#include <pybind11/pybind11.h>

#include <string>

#include "trace/open_options.h"

namespace earl::bindings {

struct OpenArguments {
  std::string file;
  OpenOptions options;
  pybind11::object progress = pybind11::none();
};

// EventTrace(file, *args, **kwargs) as open_parameters() describes it. TypeError for an
// unknown keyword, a parameter given twice, too many positional ones or a value of the
// wrong Python type; EarlError for a value out of range.
OpenArguments open_arguments(const pybind11::args& args, const pybind11::kwargs& kwargs);

// Sets the table's option `name` from a Python value (None: not given), converted and
// checked as EventTrace's parameters are (TypeError, EarlError naming it).
void set_python_option(OpenOptions& options, const char* name, const pybind11::object& value);

// "EventTrace(file, format=None, bdist=10000, ...)" with the table's defaults.
const std::string& open_signature_text();

// open_options() and open_parameters() in _core.
void bind_open_options(pybind11::module_& m);

}  // namespace earl::bindings
