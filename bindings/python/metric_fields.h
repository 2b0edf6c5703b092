#pragma once
// A metric definition as Python sees it (EventTrace.metrics(), the analysis' counters): a
// dict of trace/metric_fields.h's fields, text decoded as every name a trace carries.
#include <pybind11/pybind11.h>

#include <string>
#include <variant>

#include "bindings/python/text.h"
#include "trace/metric_fields.h"

namespace earl::bindings {

inline pybind11::dict metric_dict(const MetricDefinition& metric) {
  pybind11::dict row;
  for (const MetricField& field : metric_fields(metric)) {
    if (const auto* name = std::get_if<std::string>(&field.value)) row[field.name] = text(*name);
    else if (const auto* number = std::get_if<std::int64_t>(&field.value)) row[field.name] = *number;
    else row[field.name] = std::get<bool>(field.value);
  }
  return row;
}

}  // namespace earl::bindings
