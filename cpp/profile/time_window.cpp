#include "profile/time_window.h"

#include "trace/event_trace.h"

namespace earl::profile {

Position first_at(EventTrace& trace, double time, bool after, const ProgressCallback& progress) {
  Position low = 1, high = trace.size() + 1;  // the answer is in low..high
  while (low < high) {
    const Position mid = low + (high - low) / 2;
    const double t = trace.event(static_cast<std::int64_t>(mid), progress).time;
    if (after ? t > time : t >= time) high = mid;
    else low = mid + 1;
  }
  return low;
}

}  // namespace earl::profile
