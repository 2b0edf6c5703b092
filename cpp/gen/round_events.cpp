#include "gen/round_events.h"

#include <algorithm>

namespace earl::gen {

RoundEvents::RoundEvents(int locations) : last_(locations, -1), seq_(locations, 0) {}

WriterEvent& RoundEvents::append(int location, WriterEventKind kind, int region, std::int64_t time) {
  if (time <= last_[location]) time = last_[location] + 1;
  last_[location] = time;
  WriterEvent e;
  e.time = time;
  e.loc = location;
  e.kind = kind;
  e.region = region;
  e.seq = seq_[location]++;
  events_.push_back(e);
  return events_.back();
}

std::size_t RoundEvents::flush(const std::vector<TraceWriter*>& sinks) {
  std::sort(events_.begin(), events_.end(), writer_event_before);
  for (TraceWriter* sink : sinks) sink->write(events_.data(), events_.size());
  const std::size_t written = events_.size();
  events_.clear();
  std::fill(seq_.begin(), seq_.end(), 0);
  return written;
}

}  // namespace earl::gen
