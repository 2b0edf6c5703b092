#pragma once
// The fields of a metric definition as every language mapping shows them (EventTrace's
// metrics(): Python dicts, Lua tables, Tcl dicts), in one order, made here once.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "model/definitions.h"

namespace earl {

struct MetricField {
  const char* name;
  std::variant<std::string, std::int64_t, bool> value;
};

// name, unit, description, mode, source, value_type, base, exponent, per_callpath (whether
// `earl analyze` sums it per call path: MetricSum other than None).
std::vector<MetricField> metric_fields(const MetricDefinition& metric);

}  // namespace earl
