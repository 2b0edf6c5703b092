#pragma once
// The rule of time order within one location, shared by the reader's time checks
// (access/time_checks.h: the time_order problem of problems()) and the analysis
// (analysis/location_pass.h), so that both count the same events: an event is out of
// order when it is earlier than the latest in-order event of its location, or a wild
// timestamp (Definitions::outside_declared_span: further outside the declared span than
// that span is long). A wild timestamp does not become the latest time, so it cannot make
// every later event of its location look backwards.
#include <algorithm>
#include <cmath>

#include "model/definitions.h"

namespace earl {

class LocationTimeOrder {
 public:
  // Takes the next event's time: true when it is out of order. NaN counts as out of order.
  bool take(double time, const Definitions& definitions) {
    const bool outside = definitions.outside_declared_span(time);
    const bool backwards = seen_ ? !(time >= latest_) : std::isnan(time);
    if (!outside && !backwards) {
      latest_ = seen_ ? std::max(latest_, time) : time;
      seen_ = true;
    }
    return outside || backwards;
  }
  bool seen() const { return seen_; }
  // The latest in-order time so far (valid once seen()).
  double latest() const { return latest_; }

 private:
  double latest_ = 0.0;
  bool seen_ = false;
};

}  // namespace earl
