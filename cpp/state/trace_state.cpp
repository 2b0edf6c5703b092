#include "state/trace_state.h"

#include <algorithm>
#include <limits>

namespace earl {

namespace {

const std::vector<Event> kEmptyStack;

bool position_less(const Event& event, Position pos) { return event.pos < pos; }

const Event* find_by_position(const std::vector<Event>& events, Position pos) {
  auto found = std::lower_bound(events.begin(), events.end(), pos, position_less);
  return (found != events.end() && found->pos == pos) ? &*found : nullptr;
}

std::uint64_t memory_of(const PointerState& pointers) {
  std::uint64_t bytes = pointers.open_transfers.capacity() * sizeof(pointers.open_transfers[0]) +
                        pointers.last_lock_event.capacity() * sizeof(pointers.last_lock_event[0]);
  for (const auto& fork : pointers.forks)
    bytes += sizeof(fork) + fork.second.capacity() * sizeof(Position);
  return bytes;
}

bool contains_position(const std::vector<Event>& ascending, Position pos) {
  return find_by_position(ascending, pos) != nullptr;
}

}  // namespace

StateDelta compose(const StateDelta& first, const StateDelta& second) {
  StateDelta out;
  auto removed_later = [&](Position pos) {
    auto at = std::lower_bound(second.removed.begin(), second.removed.end(), pos,
                               [](const StateDelta::Removed& r, Position p) { return r.pos < p; });
    return at != second.removed.end() && at->pos == pos;
  };
  for (const Event& record : first.added)
    if (!removed_later(record.pos)) out.added.push_back(record);
  out.added.insert(out.added.end(), second.added.begin(), second.added.end());
  std::vector<StateDelta::Removed> older;
  for (const StateDelta::Removed& r : second.removed)
    if (!contains_position(first.added, r.pos)) older.push_back(r);
  out.removed.resize(first.removed.size() + older.size());
  std::merge(first.removed.begin(), first.removed.end(), older.begin(), older.end(),
             out.removed.begin(),
             [](const StateDelta::Removed& a, const StateDelta::Removed& b) { return a.pos < b.pos; });
  out.pointers = second.pointers;
  return out;
}

std::uint64_t memory_of(const StateSnapshot& snapshot) {
  std::uint64_t bytes = sizeof(StateSnapshot) + snapshot.stacks.capacity() * sizeof(snapshot.stacks[0]) +
                        snapshot.queue.capacity() * sizeof(Event) + memory_of(snapshot.pointers);
  for (const auto& stack : snapshot.stacks) bytes += stack.capacity() * sizeof(Event);
  return bytes;
}

std::uint64_t memory_of(const StateDelta& delta) {
  return sizeof(StateDelta) + delta.removed.capacity() * sizeof(StateDelta::Removed) +
         delta.added.capacity() * sizeof(Event) + memory_of(delta.pointers);
}

void TraceState::clear() {
  for (auto& stack : stacks_) stack.clear();
  sends_.clear();
  channels_.clear();
  open_transfers_.clear();
  forks_.clear();
  last_lock_event_.clear();
  records_ = 0;
  newest_ = 0;
  reset_journal();
}

void TraceState::reset_journal() {
  came_.clear();
  left_.clear();
  journal_start_ = newest_ + 1;
}

PointerState TraceState::pointers() const {
  PointerState out;
  out.open_transfers = open_transfers_;
  out.forks.assign(forks_.begin(), forks_.end());
  out.last_lock_event = last_lock_event_;
  return out;
}

void TraceState::set_pointers(const PointerState& pointers) {
  open_transfers_ = pointers.open_transfers;
  forks_.clear();
  for (const auto& fork : pointers.forks)
    if (!fork.second.empty()) forks_.emplace(fork.first, fork.second);
  last_lock_event_ = pointers.last_lock_event;
}

StateSnapshot TraceState::snapshot() const {
  StateSnapshot out;
  std::size_t used = stacks_.size();
  while (used > 0 && stacks_[used - 1].empty()) --used;
  out.stacks.assign(stacks_.begin(), stacks_.begin() + static_cast<std::ptrdiff_t>(used));
  out.queue = queue();
  out.pointers = pointers();
  return out;
}

void TraceState::restore(const StateSnapshot& snapshot) {
  clear();
  // Assigning into the existing vectors keeps their capacity: no allocation per location.
  if (stacks_.size() < snapshot.stacks.size()) stacks_.resize(snapshot.stacks.size());
  for (std::size_t loc = 0; loc < snapshot.stacks.size(); ++loc) {
    stacks_[loc].assign(snapshot.stacks[loc].begin(), snapshot.stacks[loc].end());
    records_ += snapshot.stacks[loc].size();
  }
  for (const Event& send : snapshot.queue) enqueue(send);
  set_pointers(snapshot.pointers);
  newest_ = 0;
  reset_journal();
}

StateDelta TraceState::take_delta() {
  StateDelta delta;
  delta.added.reserve(came_.size());
  delta.removed.reserve(left_.size());
  for (const Change& change : came_) {
    const Event* alive = change.loc < 0 ? find_send(change.pos) : find_enter(change.loc, change.pos);
    if (alive) delta.added.push_back(*alive);
  }
  // Bookmarks keep their deltas: room for records that did not survive would be counted
  // against the budget (and bring checkpoints early), so it is given back.
  if (delta.added.capacity() > delta.added.size() + delta.added.size() / 8) delta.added.shrink_to_fit();
  for (const Change& change : left_) delta.removed.push_back({change.pos, change.loc});
  std::sort(delta.removed.begin(), delta.removed.end(),
            [](const StateDelta::Removed& a, const StateDelta::Removed& b) { return a.pos < b.pos; });
  delta.pointers = pointers();
  reset_journal();
  return delta;
}

void TraceState::apply_delta(const StateDelta& delta) {
  for (const StateDelta::Removed& r : delta.removed) {
    if (r.loc < 0) {
      remove_send(r.pos);
      continue;
    }
    std::vector<Event>& stack = stack_of(r.loc);
    auto at = std::lower_bound(stack.begin(), stack.end(), r.pos, position_less);
    if (at != stack.end() && at->pos == r.pos) {
      stack.erase(at);
      --records_;
    }
  }
  for (const Event& record : delta.added) {
    if (record.kind == EventKind::Send) {
      enqueue(record);
    } else {
      stack_of(record.loc).push_back(record);
      ++records_;
    }
  }
  set_pointers(delta.pointers);
  reset_journal();
}

std::vector<Event>& TraceState::stack_of(Location loc) {
  if (static_cast<std::size_t>(loc) >= stacks_.size()) stacks_.resize(loc + 1);
  return stacks_[loc];
}

const std::vector<Event>& TraceState::stack(Location loc) const {
  if (loc < 0 || static_cast<std::size_t>(loc) >= stacks_.size()) return kEmptyStack;
  return stacks_[loc];
}

void TraceState::enqueue(const Event& send) {
  // Positions only grow while decoding, so the new record belongs at the end.
  sends_.emplace_hint(sends_.end(), send.pos, Queued{send, 0});
  Channel& channel = channels_[ChannelKey{send.loc, send.peer, send.tag, send.com}];
  if (channel.tail != 0) sends_.find(channel.tail)->second.next_in_channel = send.pos;
  else channel.head = send.pos;
  channel.tail = send.pos;
  ++records_;
}

void TraceState::dequeue(std::pmr::map<ChannelKey, Channel>::iterator channel, Event& retired) {
  auto oldest = sends_.find(channel->second.head);
  retired = oldest->second.send;
  channel->second.head = oldest->second.next_in_channel;
  if (channel->second.head == 0) channels_.erase(channel);
  sends_.erase(oldest);
  --records_;
}

void TraceState::remove_send(Position pos) {
  auto found = sends_.find(pos);
  if (found == sends_.end()) return;
  const Event& send = found->second.send;
  auto channel = channels_.find(ChannelKey{send.loc, send.peer, send.tag, send.com});
  if (channel->second.head == pos) {
    Event retired;
    dequeue(channel, retired);
    return;
  }
  // Not the oldest of its channel (never so for a delta of this model): unlink it.
  Position before = channel->second.head;
  for (;;) {
    Queued& previous = sends_.find(before)->second;
    if (previous.next_in_channel == pos) {
      previous.next_in_channel = found->second.next_in_channel;
      if (channel->second.tail == pos) channel->second.tail = before;
      break;
    }
    before = previous.next_in_channel;
  }
  sends_.erase(found);
  --records_;
}

Anomaly TraceState::apply(Event& event, Event& retired, bool& has_retired) {
  newest_ = event.pos;
  Anomaly anomaly = apply_model(event, retired, has_retired);
  if (anomaly == Anomaly::None && (event.flags & kUnresolvedReference))
    return Anomaly::UnresolvedReference;
  return anomaly;
}

Anomaly TraceState::apply_model(Event& event, Event& retired, bool& has_retired) {
  has_retired = false;
  std::vector<Event>& stack = stack_of(event.loc);
  event.enterptr = stack.empty() ? 0 : stack.back().pos;
  switch (event.kind) {
    case EventKind::Enter:
      stack.push_back(event);
      ++records_;
      if (journaling_) came_.push_back({event.pos, event.loc});
      return Anomaly::None;
    case EventKind::Exit:
    case EventKind::CollectiveExit: {
      if (stack.empty()) return Anomaly::ExitOnEmptyStack;
      // An exit always closes the innermost instance, even when its region differs.
      Anomaly anomaly =
          stack.back().region == event.region ? Anomaly::None : Anomaly::MismatchedExit;
      retired = stack.back();
      has_retired = true;
      stack.pop_back();
      --records_;
      if (journaling_ && retired.pos < journal_start_) left_.push_back({retired.pos, event.loc});
      return anomaly;
    }
    case EventKind::Send:
      enqueue(event);
      if (journaling_) came_.push_back({event.pos, -1});
      return Anomaly::None;
    case EventKind::Recv: {
      event.sendptr = 0;
      auto channel = channels_.find(ChannelKey{event.peer, event.loc, event.tag, event.com});
      if (channel == channels_.end()) return Anomaly::UnmatchedRecv;
      dequeue(channel, retired);
      has_retired = true;
      event.sendptr = retired.pos;
      if (journaling_ && retired.pos < journal_start_) left_.push_back({retired.pos, -1});
      return Anomaly::None;
    }
    case EventKind::RmaTransferStart:
      open_transfers_.push_back({{event.loc, event.com, event.tag}, event.pos});
      return Anomaly::None;
    case EventKind::RmaTransferEnd: {
      // startptr: the start of the same operation (location, window, rmaid).
      event.sendptr = 0;
      std::array<std::int64_t, 3> key{event.loc, event.com, event.tag};
      for (auto it = open_transfers_.begin(); it != open_transfers_.end(); ++it) {
        if (it->first == key) {
          event.sendptr = it->second;
          open_transfers_.erase(it);
          break;
        }
      }
      return Anomaly::None;
    }
    case EventKind::Fork:
      forks_[event.loc].push_back(event.pos);
      return Anomaly::None;
    case EventKind::Join: {
      event.sendptr = 0;
      auto open = forks_.find(event.loc);
      if (open != forks_.end()) {
        event.sendptr = open->second.back();
        open->second.pop_back();
        if (open->second.empty()) forks_.erase(open);
      }
      return Anomaly::None;
    }
    case EventKind::ThreadLock: {
      // lockptr: the previous acquire or release of the same lock, on any location.
      event.sendptr = 0;
      for (auto& entry : last_lock_event_) {
        if (entry.first == event.tag) {
          event.sendptr = entry.second;
          entry.second = event.pos;
          return Anomaly::None;
        }
      }
      last_lock_event_.push_back({event.tag, event.pos});
      return Anomaly::None;
    }
    case EventKind::RmaTargetStart:  // originptr is set by the decoder where derivable
    case EventKind::WindowLock:
    case EventKind::Other:
    case EventKind::RmaGroupSync:
      return Anomaly::None;
  }
  return Anomaly::None;
}

const Event* TraceState::find_send(Position pos) const {
  auto found = sends_.find(pos);
  return found == sends_.end() ? nullptr : &found->second.send;
}

const Event* TraceState::find_enter(Location loc, Position pos) const {
  return find_by_position(stack(loc), pos);
}

const Event* TraceState::find(Position pos) const {
  if (const Event* send = find_send(pos)) return send;
  for (const auto& stack : stacks_)
    if (const Event* enter = find_by_position(stack, pos)) return enter;
  return nullptr;
}

std::vector<Event> TraceState::queue() const {
  std::vector<Event> out;
  out.reserve(sends_.size());
  for (const auto& entry : sends_) out.push_back(entry.second.send);
  return out;
}

std::vector<Position> TraceState::queue(Location src, Location dest) const {
  std::vector<Position> out;
  if (src == -1 && dest == -1) {
    out.reserve(sends_.size());
    for (const auto& entry : sends_) out.push_back(entry.first);
    return out;
  }
  auto collect = [&](const Channel& channel) {
    for (Position pos = channel.head; pos != 0; pos = sends_.find(pos)->second.next_in_channel)
      out.push_back(pos);
  };
  constexpr std::int64_t kLow = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t kHigh = std::numeric_limits<std::int64_t>::max();
  if (src != -1) {
    Location low_dest = dest == -1 ? std::numeric_limits<Location>::min() : dest;
    Location high_dest = dest == -1 ? std::numeric_limits<Location>::max() : dest;
    auto end = channels_.upper_bound(ChannelKey{src, high_dest, kHigh, kHigh});
    for (auto it = channels_.lower_bound(ChannelKey{src, low_dest, kLow, kLow}); it != end; ++it)
      collect(it->second);
  } else {
    for (const auto& entry : channels_)
      if (std::get<1>(entry.first) == dest) collect(entry.second);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace earl
