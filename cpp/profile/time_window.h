#pragma once
// Positions of a time window: events are numbered in time order, so the first event at or
// after a time is found by bisection, a few random accesses.
#include <cstdint>

#include "access/random_access_trace.h"
#include "model/event.h"

namespace earl {
class EventTrace;
}

namespace earl::profile {

// The first position whose event's time is >= `time` (or > `time` where `after`);
// size() + 1 where there is none.
Position first_at(EventTrace& trace, double time, bool after, const ProgressCallback& progress = {});

}  // namespace earl::profile
