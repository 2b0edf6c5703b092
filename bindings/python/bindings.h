#pragma once
#include <pybind11/pybind11.h>

// Each part of the core registers its Python classes and functions here.
namespace earl::bindings {
void bind_errors(pybind11::module_& m);
void bind_formats(pybind11::module_& m);
void bind_described(pybind11::module_& m);
void bind_event_trace(pybind11::module_& m);
void bind_open_options(pybind11::module_& m);
void bind_p2_statistic(pybind11::module_& m);
void bind_generator(pybind11::module_& m);
void bind_convert(pybind11::module_& m);
void bind_merge(pybind11::module_& m);
void bind_analysis(pybind11::module_& m);
void bind_outputs(pybind11::module_& m);
void bind_query(pybind11::module_& m);
}  // namespace earl::bindings
