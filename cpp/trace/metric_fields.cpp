#include "trace/metric_fields.h"

namespace earl {

std::vector<MetricField> metric_fields(const MetricDefinition& metric) {
  return {{"name", metric.name},
          {"unit", metric.unit},
          {"description", metric.description},
          {"mode", metric.mode},
          {"source", metric.source},
          {"value_type", metric.value_type},
          {"base", metric.base},
          {"exponent", metric.exponent},
          {"per_callpath", metric.sum != MetricSum::None}};
}

}  // namespace earl
