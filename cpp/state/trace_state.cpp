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
  has_retired = false;
  std::vector<Event>& stack = stack_of(event.loc);
  event.enterptr = stack.empty() ? 0 : stack.back().pos;
  switch (event.kind) {
    case EventKind::Enter:
      stack.push_back(event);
      return Anomaly::None;
    case EventKind::Exit: {
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
