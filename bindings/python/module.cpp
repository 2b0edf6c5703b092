#include "bindings/python/bindings.h"

PYBIND11_MODULE(_core, m) {
  m.doc() = "EARL's C++ trace engine (use the `earl` package, not this module)";
  earl::bindings::bind_errors(m);
  earl::bindings::bind_formats(m);
  earl::bindings::bind_described(m);
  earl::bindings::bind_event_trace(m);
  earl::bindings::bind_open_options(m);
  earl::bindings::bind_p2_statistic(m);
  earl::bindings::bind_generator(m);
  earl::bindings::bind_convert(m);
  earl::bindings::bind_merge(m);
  earl::bindings::bind_analysis(m);
  earl::bindings::bind_outputs(m);
  earl::bindings::bind_query(m);
}
