#pragma once
// One pass over every event of a trace in order, for the tables of this layer: progress
// (and with it Ctrl-C, through the callback's answer) every kPassInterval events, since a
// sequential read never decodes far enough for the trace to report on its own.
#include <cstdint>

#include "access/random_access_trace.h"
#include "model/error.h"
#include "trace/event_trace.h"

namespace earl::profile {

constexpr Position kPassInterval = Position{1} << 16;

template <typename Take>
void each_event(EventTrace& trace, const ProgressCallback& progress, Take&& take) {
  const Position size = trace.size();
  for (Position pos = 1; pos <= size; ++pos) {
    take(trace.event(static_cast<std::int64_t>(pos), progress));
    if (pos % kPassInterval == 0 && progress && !progress(double(pos) / double(size))) throw Interrupted();
  }
  if (size >= kPassInterval && progress && !progress(1.0)) throw Interrupted();
}

}  // namespace earl::profile
