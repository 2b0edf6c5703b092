#include "access/time_checks.h"

#include <algorithm>

#include "access/random_access_trace.h"

namespace earl {

namespace {
constexpr std::size_t kFirstProblemPositions = 10;
}

void note_problem(ProblemKind& kind, Position pos) {
  ++kind.count;
  auto& first = kind.first;
  if (first.size() == kFirstProblemPositions && pos > first.back()) return;
  first.insert(std::upper_bound(first.begin(), first.end(), pos), pos);
  if (first.size() > kFirstProblemPositions) first.pop_back();
}

void TimeChecks::clear() {
  order_.clear();
  waiting_.clear();
  waiting_count_ = 0;
  collectives_.clear();
}

void TimeChecks::check(const Event& event, const Event* taken, ProblemKind& time_order,
                       ProblemKind& clock_condition) {
  check_location_time(event, time_order);
  if (event.kind == EventKind::Send || event.kind == EventKind::Recv)
    check_message(event, taken, clock_condition);
  else if (event.kind == EventKind::CollectiveExit)
    check_collective(event, taken, clock_condition);
}

void TimeChecks::check_location_time(const Event& event, ProblemKind& time_order) {
  auto loc = static_cast<std::size_t>(event.loc);
  if (order_.size() <= loc) order_.resize(loc + 1);
  if (order_[loc].take(event.time, *definitions_)) note_problem(time_order, event.pos);
}

// On each channel (source, destination, tag, communicator) the k-th receive gets the k-th
// send (MPI's non-overtaking rule). The state matches a receive with the oldest queued
// send of its channel, which is the same send as long as no receive of the channel has
// found the queue empty: then its send's record is at hand. A channel where a receive
// came first (a late send or a missing one) is followed from then on by counting: its
// queue holds the leading side's unpaired events. Clean traces never look anything up.
void TimeChecks::check_message(const Event& event, const Event* taken, ProblemKind& clock_condition) {
  bool recv = event.kind == EventKind::Recv;
  if (waiting_.empty() && (!recv || event.sendptr != 0)) {
    if (recv && taken && event.time < taken->time) note_problem(clock_condition, event.pos);
    return;
  }
  Channel key = recv ? Channel{event.peer, event.loc, event.tag, event.com}
                     : Channel{event.loc, event.peer, event.tag, event.com};
  auto found = waiting_.find(key);
  if (found == waiting_.end()) {
    if (recv && event.sendptr != 0) {
      if (taken && event.time < taken->time) note_problem(clock_condition, event.pos);
      return;
    }
    if (!recv) return;
    // The first receive of this channel without a queued send: counted from here on
    // (sends and receives of the channel are even at this point).
    if (waiting_count_ >= kMaxWaiting) return;
    found = waiting_.emplace(key, Waiting()).first;
  }
  Waiting& channel = found->second;
  if (!channel.events.empty() && channel.receives != recv) {
    auto [other_pos, other_time] = channel.events.front();
    channel.events.pop_front();
    --waiting_count_;
    if (recv && event.time < other_time) note_problem(clock_condition, event.pos);
    if (!recv && other_time < event.time) note_problem(clock_condition, other_pos);
    return;
  }
  if (waiting_count_ >= kMaxWaiting) return;  // give up on pairs beyond the budget
  channel.receives = recv;
  channel.events.emplace_back(event.pos, event.time);
  ++waiting_count_;
}

void TimeChecks::check_collective(const Event& event, const Event* taken, ProblemKind& clock_condition) {
  if (event.peer != -1 || !taken) return;  // rooted collectives: 1-to-N or N-to-1, not checked
  Collectives& comm = collectives_[event.com];
  std::uint64_t number = comm.next_instance[event.loc]++;
  if (number < comm.first) return;  // its instance was given up (see kMaxOpenInstances)
  while (comm.first + comm.open.size() <= number) {
    comm.open.emplace_back();
    if (comm.open.size() > kMaxOpenInstances) {
      comm.open.pop_front();
      ++comm.first;
    }
  }
  Instance& instance = comm.open[number - comm.first];
  double enter = taken->time;
  if (!instance.any_enter || enter > instance.latest_enter) {
    instance.latest_enter = enter;
    instance.any_enter = true;
    for (Member& member : instance.members)
      if (!member.counted && member.exit_time < enter) {
        member.counted = true;
        note_problem(clock_condition, member.exit_pos);
      }
  }
  bool early = event.time < instance.latest_enter;
  if (early) note_problem(clock_condition, event.pos);
  instance.members.push_back(Member{event.pos, event.time, early});
  auto size = definitions_->communicator_sizes.find(event.com);
  if (size != definitions_->communicator_sizes.end() && instance.members.size() >= size->second) {
    // Complete: close it, and every complete instance before it.
    instance.members.clear();
    instance.members.shrink_to_fit();
    while (!comm.open.empty() && comm.open.front().members.empty() && comm.open.front().any_enter) {
      comm.open.pop_front();
      ++comm.first;
    }
  }
}

}  // namespace earl
