#pragma once
// One row per region instance (an enter and the exit that closes it), made in one pass
// over the events: where it ran, its call path, when it began and ended, its inclusive and
// exclusive time and how much each counter grew meanwhile (trace.region_instances()).
#include <cstdint>
#include <string>
#include <vector>

#include "access/random_access_trace.h"
#include "analysis/call_tree.h"
#include "model/event.h"

namespace earl {
class EventTrace;
}

namespace earl::profile {

// Columns; row i is the i-th instance entered, in trace order. An instance still open at
// the end of the trace has exit_pos 0 and NaN for exit_time, inclusive, exclusive and its
// counters.
struct RegionInstances {
  std::vector<Location> loc;
  std::vector<std::int32_t> region;    // index into the trace's regions()
  std::vector<std::int32_t> callpath;  // index into callpath_parent / callpath_region
  std::vector<Position> enter_pos, exit_pos;
  std::vector<double> enter_time, exit_time, inclusive, exclusive;
  // rows x metrics, row-major: the counter's value at the exit minus its value at the
  // enter (NaN where the location has no sample of it by then).
  std::size_t metrics = 0;
  std::vector<double> counters;
  // The call tree: per call path its parent (-1: a root) and region; parents first.
  std::vector<std::int64_t> callpath_parent;
  std::vector<std::uint32_t> callpath_region;
  std::vector<std::string> callpath_names;  // as every report names them (analysis/callpath_names.h)
};

// Takes events in trace order (each location's in time order).
class InstanceBuilder {
 public:
  InstanceBuilder(Location locations, std::size_t metrics);
  void add(const Event& e);
  RegionInstances finish();

 private:
  struct Frame {
    std::size_t row;
    double child_time;  // inclusive time of the instances it called
    analysis::CallPathId path;
  };
  // A counter's value at an event is its last sample on the location at or before the
  // event's time: samples stamped with the same time as an enter or exit (OTF2 writes
  // them just before or after it) count for it, whichever comes first in the trace.
  struct LocationState {
    std::vector<Frame> stack;
    std::vector<double> value;  // last sample of each counter
    double time = 0.0;          // of the location's last event
    std::vector<std::size_t> entered_now, exited_now;  // rows entered / exited at `time`
  };
  LocationState& state(Location loc);
  void sample(LocationState& s, const Event& e);
  void enter(LocationState& s, const Event& e);
  void leave(LocationState& s, const Event& e);

  std::size_t metrics_;
  std::vector<LocationState> locations_;
  analysis::CallTree tree_;
  RegionInstances out_;
  std::vector<double> at_enter_, at_exit_;  // rows x metrics
};

// Every event of `trace`, in one pass, with the call paths named.
RegionInstances region_instances(EventTrace& trace, const ProgressCallback& progress = {});

}  // namespace earl::profile
