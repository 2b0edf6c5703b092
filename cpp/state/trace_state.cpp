#include "state/trace_state.h"

#include <algorithm>

namespace earl {

namespace {

const std::vector<Event> kEmptyStack;

bool position_less(const Event& event, Position pos) { return event.pos < pos; }

const Event* find_by_position(const std::vector<Event>& events, Position pos) {
  auto found = std::lower_bound(events.begin(), events.end(), pos, position_less);
  return (found != events.end() && found->pos == pos) ? &*found : nullptr;
}

}  // namespace

std::size_t TraceState::SendKeyHash::operator()(const SendKey& key) const {
  std::uint64_t h = static_cast<std::uint32_t>(key.src);
  h = h * 0x9E3779B97F4A7C15ULL ^ static_cast<std::uint32_t>(key.dest);
  h = h * 0x9E3779B97F4A7C15ULL ^ static_cast<std::uint64_t>(key.tag);
  h = h * 0x9E3779B97F4A7C15ULL ^ static_cast<std::uint64_t>(key.com);
  return static_cast<std::size_t>(h ^ (h >> 29));
}

void TraceState::clear() {
  for (auto& stack : state_.stacks) stack.clear();
  state_.queue.clear();
  state_.open_transfers.clear();
  state_.forks.clear();
  state_.last_lock_event.clear();
  for (auto& entry : pending_) entry.second.clear();
}

void TraceState::restore(const StateSnapshot& snapshot) {
  state_ = snapshot;
  rebuild_pending();
}

void TraceState::rebuild_pending() {
  for (auto& entry : pending_) entry.second.clear();
  for (const Event& send : state_.queue)
    pending_[SendKey{send.loc, send.peer, send.tag, send.com}].push_back(send.pos);
}

std::vector<Event>& TraceState::stack_of(Location loc) {
  if (static_cast<std::size_t>(loc) >= state_.stacks.size()) state_.stacks.resize(loc + 1);
  return state_.stacks[loc];
}

const std::vector<Event>& TraceState::stack(Location loc) const {
  if (loc < 0 || static_cast<std::size_t>(loc) >= state_.stacks.size()) return kEmptyStack;
  return state_.stacks[loc];
}

Anomaly TraceState::apply(Event& event, Event& retired, bool& has_retired) {
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
      return anomaly;
    }
    case EventKind::Send:
      state_.queue.push_back(event);
      pending_[SendKey{event.loc, event.peer, event.tag, event.com}].push_back(event.pos);
      return Anomaly::None;
    case EventKind::Recv: {
      event.sendptr = 0;
      auto found = pending_.find(SendKey{event.peer, event.loc, event.tag, event.com});
      if (found == pending_.end() || found->second.empty()) return Anomaly::UnmatchedRecv;
      Position send_pos = found->second.front();
      found->second.pop_front();
      event.sendptr = send_pos;
      auto in_queue = std::lower_bound(state_.queue.begin(), state_.queue.end(), send_pos,
                                       position_less);
      retired = *in_queue;
      has_retired = true;
      state_.queue.erase(in_queue);
      return Anomaly::None;
    }
    case EventKind::RmaTransferStart:
      state_.open_transfers.push_back({{event.loc, event.com, event.tag}, event.pos});
      return Anomaly::None;
    case EventKind::RmaTransferEnd: {
      // startptr: the start of the same operation (location, window, rmaid).
      event.sendptr = 0;
      auto& open = state_.open_transfers;
      std::array<std::int64_t, 3> key{event.loc, event.com, event.tag};
      for (auto it = open.begin(); it != open.end(); ++it) {
        if (it->first == key) {
          event.sendptr = it->second;
          open.erase(it);
          break;
        }
      }
      return Anomaly::None;
    }
    case EventKind::Fork:
      if (state_.forks.size() <= static_cast<std::size_t>(event.loc)) state_.forks.resize(event.loc + 1);
      state_.forks[event.loc].push_back(event.pos);
      return Anomaly::None;
    case EventKind::Join: {
      event.sendptr = 0;
      if (static_cast<std::size_t>(event.loc) < state_.forks.size() && !state_.forks[event.loc].empty()) {
        event.sendptr = state_.forks[event.loc].back();
        state_.forks[event.loc].pop_back();
      }
      return Anomaly::None;
    }
    case EventKind::ThreadLock: {
      // lockptr: the previous acquire or release of the same lock, on any location.
      event.sendptr = 0;
      for (auto& entry : state_.last_lock_event) {
        if (entry.first == event.tag) {
          event.sendptr = entry.second;
          entry.second = event.pos;
          return Anomaly::None;
        }
      }
      state_.last_lock_event.push_back({event.tag, event.pos});
      return Anomaly::None;
    }
    case EventKind::RmaTargetStart:  // originptr is set by the decoder where derivable
    case EventKind::WindowLock:
    case EventKind::Other:
      return Anomaly::None;
  }
  return Anomaly::None;
}

const Event* TraceState::find(Position pos) const {
  if (const Event* send = find_by_position(state_.queue, pos)) return send;
  for (const auto& stack : state_.stacks)
    if (const Event* enter = find_by_position(stack, pos)) return enter;
  return nullptr;
}

}  // namespace earl
