#include "analysis/counter_samples.h"

namespace earl::analysis {

namespace {

// later - earlier of two samples of one counter, exact while the difference fits a double's
// 53 bits (an unsigned difference is taken before it is converted).
double difference(const Value& later, const Value& earlier) {
  if (later.kind == Value::Kind::UInt && earlier.kind == Value::Kind::UInt)
    return later.unsigned_integer >= earlier.unsigned_integer
               ? static_cast<double>(later.unsigned_integer - earlier.unsigned_integer)
               : -static_cast<double>(earlier.unsigned_integer - later.unsigned_integer);
  if (later.kind == Value::Kind::Int && earlier.kind == Value::Kind::Int)
    return static_cast<double>(later.integer - earlier.integer);
  auto number = [](const Value& v) {
    switch (v.kind) {
      case Value::Kind::Int: return static_cast<double>(v.integer);
      case Value::Kind::UInt: return static_cast<double>(v.unsigned_integer);
      case Value::Kind::Float: return v.real;
      default: return 0.0;
    }
  };
  return number(later) - number(earlier);
}

bool is_number(const Value& v) {
  return v.kind == Value::Kind::Int || v.kind == Value::Kind::UInt || v.kind == Value::Kind::Float;
}

}  // namespace

void CounterSamples::sample(const Event& e, CallPathId callpath) {
  if (e.tag < 0 || static_cast<std::size_t>(e.tag) >= metrics_.size() || !is_number(e.data2)) return;
  const std::size_t metric = static_cast<std::size_t>(e.tag);
  if (exclusive_.size() <= metric) {
    exclusive_.resize(metrics_.size());
    last_.resize(metrics_.size());
  }
  double amount = 0.0;
  switch (metrics_[metric].sum) {
    case MetricSum::None: return;
    case MetricSum::Sample: amount = difference(e.data2, Value::of_int(0)); break;
    case MetricSum::Difference: {
      const Value previous = last_[metric];
      last_[metric] = e.data2;
      if (previous.kind == Value::Kind::None) return;  // the first sample starts the count
      amount = difference(e.data2, previous);
      break;
    }
  }
  exclusive_[metric][callpath] += amount;
}

}  // namespace earl::analysis
