#pragma once
// The events of the round being built (gen/generator.h: rounds never overlap in time, so
// one round's events at a time suffice). The phases append them in the order they simulate;
// flush() hands them to the sinks in the output order, (time, location, sequence).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "format_interface/trace_writer.h"

namespace earl::gen {

class RoundEvents {
 public:
  explicit RoundEvents(int locations);

  // An event of `location` at `time`, moved to just after the location's previous event
  // when not later than it (a location's events are strictly increasing in time). The
  // reference holds until the next append.
  WriterEvent& append(int location, WriterEventKind kind, int region, std::int64_t time);

  std::size_t size() const { return events_.size(); }

  // Sorts the events, writes them to every sink and forgets them; returns how many.
  std::size_t flush(const std::vector<TraceWriter*>& sinks);

 private:
  std::vector<std::int64_t> last_;  // per location: the time of its latest event (-1: none)
  std::vector<std::uint32_t> seq_;  // per location: the next event's order within the round
  std::vector<WriterEvent> events_;
};

}  // namespace earl::gen
