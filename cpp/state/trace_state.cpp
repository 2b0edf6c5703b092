#include "state/trace_state.h"

#include <algorithm>

namespace earl {

namespace {

bool position_less(const Event& event, Position pos) { return event.pos < pos; }

const Event* find_by_position(const Event* begin, const Event* end, Position pos) {
  const Event* found = std::lower_bound(begin, end, pos, position_less);
  return (found != end && found->pos == pos) ? found : nullptr;
}

const Event* find_by_position(const std::vector<Event>& events, Position pos) {
  return find_by_position(events.data(), events.data() + events.size(), pos);
}

std::uint64_t memory_of(const PointerState& pointers) {
  std::uint64_t bytes = pointers.open_transfers.capacity() * sizeof(pointers.open_transfers[0]) +
                        pointers.last_lock_event.capacity() * sizeof(pointers.last_lock_event[0]);
  for (const auto& fork : pointers.forks)
    bytes += sizeof(fork) + fork.second.capacity() * sizeof(Position);
  return bytes;
}

template <class Follow>
void renumber_links(QueueLinks& links, Follow follow) {
  follow(links.next_in_channel);
  follow(links.prev_in_pair);
  follow(links.next_in_pair);
}

bool contains_position(const std::vector<Event>& ascending, Position pos) {
  return find_by_position(ascending, pos) != nullptr;
}

}  // namespace

const Event* StackView::find(Position pos) const {
  if (const Event* low = find_by_position(low_, low_ + low_size_, pos)) return low;
  return find_by_position(high_, high_ + high_size_, pos);
}

StateDelta compose(const StateDelta& first, const StateDelta& second) {
  StateDelta out;
  auto by_position = [](const StateDelta::Removed& a, const StateDelta::Removed& b) {
    return a.pos < b.pos;
  };
  std::vector<StateDelta::Removed> later = second.removed;
  std::sort(later.begin(), later.end(), by_position);
  auto removed_later = [&](Position pos) {
    auto at = std::lower_bound(later.begin(), later.end(), StateDelta::Removed{pos, 0, 0}, by_position);
    return at != later.end() && at->pos == pos;
  };
  for (const Event& record : first.added)
    if (!removed_later(record.pos)) out.added.push_back(record);
  out.added.insert(out.added.end(), second.added.begin(), second.added.end());
  out.removed = first.removed;
  for (const StateDelta::Removed& r : second.removed)
    if (!contains_position(first.added, r.pos)) out.removed.push_back(r);
  out.pointers = second.pointers;
  return out;
}

std::uint64_t memory_of(const StateSnapshot& snapshot) {
  std::uint64_t bytes = sizeof(StateSnapshot) + snapshot.stacks.capacity() * sizeof(snapshot.stacks[0]) +
                        snapshot.queue.capacity() * sizeof(Event) + memory_of(snapshot.pointers) +
                        snapshot.links.capacity() * sizeof(QueueLinks) +
                        snapshot.channels.memory();
  for (const auto& stack : snapshot.stacks) bytes += stack.capacity() * sizeof(Event);
  return bytes;
}

std::uint64_t memory_of(const StateDelta& delta) {
  return sizeof(StateDelta) + delta.removed.capacity() * sizeof(StateDelta::Removed) +
         delta.added.capacity() * sizeof(Event) + memory_of(delta.pointers);
}

void TraceState::clear() {
  for (LocationStack& stack : stacks_) {
    stack.borrowed_size = 0;
    stack.borrowed = nullptr;
    stack.own.clear();
  }
  sends_.clear();
  live_sends_ = 0;
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
  while (used > 0 && stacks_[used - 1].size() == 0) --used;
  out.stacks.resize(used);
  for (std::size_t loc = 0; loc < used; ++loc) {
    const LocationStack& stack = stacks_[loc];
    out.stacks[loc].reserve(stack.size());
    out.stacks[loc].assign(stack.borrowed, stack.borrowed + stack.borrowed_size);
    out.stacks[loc].insert(out.stacks[loc].end(), stack.own.begin(), stack.own.end());
  }
  // The snapshot's queue holds no tombstones: links are renumbered to its indices.
  out.queue.reserve(live_sends_);
  out.links.reserve(live_sends_);
  std::vector<SendIndex> compacted(sends_.size(), kNoSend);
  for (std::size_t i = 0; i < sends_.size(); ++i) {
    if (sends_[i].received) continue;
    compacted[i] = static_cast<SendIndex>(out.queue.size());
    out.queue.push_back(sends_[i].send);
  }
  auto renumber = [&](SendIndex& i) {
    if (i != kNoSend) i = compacted[i];
  };
  for (const Queued& entry : sends_) {
    if (entry.received) continue;
    out.links.push_back(entry.links);
    renumber_links(out.links.back(), renumber);
  }
  out.channels = channels_.save();
  for (auto& [slot, channel] : out.channels.channels.entries) {
    renumber(channel.head);
    renumber(channel.tail);
  }
  for (auto& [slot, pair] : out.channels.pairs.entries) {
    renumber(pair.first);
    renumber(pair.last);
  }
  out.pointers = pointers();
  return out;
}

void TraceState::restore(const StateSnapshot& snapshot) {
  clear();
  // One pass over the locations, each setting where its borrowed prefix lies; the own
  // vectors keep their capacity (no allocation per location later either).
  if (stacks_.size() < snapshot.stacks.size()) stacks_.resize(snapshot.stacks.size());
  for (std::size_t loc = 0; loc < snapshot.stacks.size(); ++loc) {
    const std::vector<Event>& saved = snapshot.stacks[loc];
    stacks_[loc].borrowed = saved.data();
    stacks_[loc].borrowed_size = static_cast<std::uint32_t>(saved.size());
    records_ += saved.size();
  }
  if (snapshot.links.size() == snapshot.queue.size() &&
      (snapshot.queue.empty() || !snapshot.channels.empty())) {
    sends_.resize(snapshot.queue.size());
    for (std::size_t i = 0; i < sends_.size(); ++i)
      sends_[i] = Queued{snapshot.queue[i], snapshot.links[i], false};
    live_sends_ = sends_.size();
    records_ += sends_.size();
    channels_.load(snapshot.channels);
  } else {
    for (const Event& send : snapshot.queue) enqueue(send);
  }
  set_pointers(snapshot.pointers);
  newest_ = 0;
  reset_journal();
}

StateDelta TraceState::take_delta() {
  StateDelta delta;
  delta.added.reserve(came_.size());
  delta.removed.reserve(left_.size());
  for (const Change& change : came_) {
    if (change.loc < 0) {
      if (const Event* alive = find_send(change.pos)) delta.added.push_back(*alive);
      continue;
    }
    // An enter is alive while its stack still holds it at the depth it was pushed to:
    // an index instead of a search (which was a twentieth of the scan at depth 10^4).
    StackView stack = stacks_[static_cast<std::size_t>(change.loc)].view();
    if (change.depth < stack.size() && stack[change.depth].pos == change.pos)
      delta.added.push_back(stack[change.depth]);
  }
  // Bookmarks keep their deltas: room for records that did not survive would be counted
  // against the budget (and bring checkpoints early), so it is given back.
  if (delta.added.capacity() > delta.added.size() + delta.added.size() / 8) delta.added.shrink_to_fit();
  for (const Change& change : left_) delta.removed.push_back({change.pos, change.loc, change.depth});
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
    LocationStack& stack = stack_of(r.loc);
    if (r.depth < stack.size()) {
      records_ -= stack.size() - r.depth;
      stack.cut(r.depth);
    }
  }
  for (const Event& record : delta.added) {
    if (record.kind == EventKind::Send) {
      enqueue(record);
    } else {
      stack_of(record.loc).own.push_back(record);
      ++records_;
    }
  }
  set_pointers(delta.pointers);
  reset_journal();
}

TraceState::LocationStack& TraceState::stack_of(Location loc) {
  if (static_cast<std::size_t>(loc) >= stacks_.size()) stacks_.resize(loc + 1);
  return stacks_[loc];
}

StackView TraceState::stack(Location loc) const {
  if (loc < 0 || static_cast<std::size_t>(loc) >= stacks_.size()) return {};
  return stacks_[loc].view();
}

const TraceState::Queued* TraceState::queued_at(Position pos) const {
  auto found = std::lower_bound(sends_.begin(), sends_.end(), pos,
                                [](const Queued& q, Position p) { return q.send.pos < p; });
  return (found != sends_.end() && found->send.pos == pos) ? &*found : nullptr;
}

void TraceState::enqueue(const Event& send) {
  SendIndex added;
  if (sends_.empty() || sends_.back().send.pos < send.pos) {
    added = static_cast<SendIndex>(sends_.size());
    sends_.push_back(Queued{send, {}, false});
  } else {  // never while decoding, where positions only grow; kept exact all the same
    auto at = std::lower_bound(sends_.begin(), sends_.end(), send.pos,
                               [](const Queued& q, Position p) { return q.send.pos < p; });
    added = static_cast<SendIndex>(at - sends_.begin());
    if (at != sends_.end() && at->send.pos == send.pos) {
      if (!at->received) return;  // already queued
      *at = Queued{send, {}, false};
    } else {
      sends_.insert(at, Queued{send, {}, false});
      std::vector<SendIndex> shifted(sends_.size() - 1);
      for (SendIndex i = 0; i < shifted.size(); ++i) shifted[i] = i < added ? i : i + 1;
      renumber_sends(shifted);
    }
  }
  ++live_sends_;
  ++records_;
  QueueChannel& channel =
      channels_.channels[channels_.channels.find_or_insert({send.loc, send.peer, send.tag, send.com})];
  if (channel.tail == kNoSend) {
    channel.head = channel.tail = added;
  } else if (channel.tail < added) {
    sends_[channel.tail].links.next_in_channel = added;
    channel.tail = added;
  } else if (added < channel.head) {  // out of order, as above
    sends_[added].links.next_in_channel = channel.head;
    channel.head = added;
  } else {
    SendIndex before = channel.head;
    while (sends_[before].links.next_in_channel < added) before = sends_[before].links.next_in_channel;
    sends_[added].links.next_in_channel = sends_[before].links.next_in_channel;
    sends_[before].links.next_in_channel = added;
  }
  // The pair's list stays in position order: the new send goes before the first younger one
  // (only an out-of-order enqueue above finds one).
  ChannelPair& pair = channels_.pairs[channels_.pairs.find_or_insert({send.loc, send.peer})];
  SendIndex before = pair.last;
  while (before != kNoSend && before > added) before = sends_[before].links.prev_in_pair;
  SendIndex after = before == kNoSend ? pair.first : sends_[before].links.next_in_pair;
  sends_[added].links.prev_in_pair = before;
  sends_[added].links.next_in_pair = after;
  if (before != kNoSend) sends_[before].links.next_in_pair = added;
  else pair.first = added;
  if (after != kNoSend) sends_[after].links.prev_in_pair = added;
  else pair.last = added;
}

void TraceState::renumber_sends(const std::vector<SendIndex>& old_to_new) {
  auto follow = [&](SendIndex& link) {
    if (link != kNoSend) link = old_to_new[link];
  };
  for (Queued& entry : sends_)
    if (!entry.received) renumber_links(entry.links, follow);
  channels_.channels.for_each([&](QueueChannel& channel) {
    follow(channel.head);
    follow(channel.tail);
  });
  channels_.pairs.for_each([&](ChannelPair& pair) {
    follow(pair.first);
    follow(pair.last);
  });
}

void TraceState::mark_received(SendIndex index) {
  Queued& queued = sends_[index];
  const QueueLinks& links = queued.links;
  if (links.prev_in_pair != kNoSend) sends_[links.prev_in_pair].links.next_in_pair = links.next_in_pair;
  if (links.next_in_pair != kNoSend) sends_[links.next_in_pair].links.prev_in_pair = links.prev_in_pair;
  if (links.prev_in_pair == kNoSend || links.next_in_pair == kNoSend) {
    auto slot = channels_.pairs.find({queued.send.loc, queued.send.peer});
    ChannelPair& pair = channels_.pairs[slot];
    if (links.prev_in_pair == kNoSend) pair.first = links.next_in_pair;
    if (links.next_in_pair == kNoSend) pair.last = links.prev_in_pair;
    if (pair.first == kNoSend) channels_.pairs.erase(slot);
  }
  queued.received = true;
  --live_sends_;
  --records_;
  std::size_t dead = sends_.size() - live_sends_;
  if (dead > 64 && dead > live_sends_) {
    std::vector<SendIndex> old_to_new(sends_.size(), kNoSend);
    SendIndex kept = 0;
    for (SendIndex i = 0; i < sends_.size(); ++i) {
      if (sends_[i].received) continue;
      old_to_new[i] = kept;
      sends_[kept++] = sends_[i];
    }
    sends_.resize(kept);
    renumber_sends(old_to_new);
  }
}

void TraceState::dequeue(OpenTable<QueueChannel>::Index slot, Event& retired) {
  QueueChannel& channel = channels_.channels[slot];
  SendIndex oldest = channel.head;
  retired = sends_[oldest].send;
  channel.head = sends_[oldest].links.next_in_channel;
  // With many messages in flight the send a receive takes was written long ago, and
  // reading it missed the cache at nearly every receive: fetch now the one the next
  // receive here most likely takes (the next of the channel, else of the pair).
  SendIndex likely_next =
      channel.head != kNoSend ? channel.head : sends_[oldest].links.next_in_pair;
  if (likely_next != kNoSend) {
    const char* record = reinterpret_cast<const char*>(&sends_[likely_next]);
    __builtin_prefetch(record);
    __builtin_prefetch(record + sizeof(Queued) - 1);
  }
  if (channel.head == kNoSend) channels_.channels.erase(slot);
  mark_received(oldest);
}

void TraceState::remove_send(Position pos) {
  const Queued* found = queued_at(pos);
  if (!found || found->received) return;
  SendIndex index = static_cast<SendIndex>(found - sends_.data());
  const Event& send = found->send;
  auto slot = channels_.channels.find({send.loc, send.peer, send.tag, send.com});
  QueueChannel& channel = channels_.channels[slot];
  if (channel.head == index) {
    Event retired;
    dequeue(slot, retired);
    return;
  }
  // Not the oldest of its channel (never so for a delta of this model): unlink it.
  SendIndex before = channel.head;
  while (sends_[before].links.next_in_channel != index) before = sends_[before].links.next_in_channel;
  sends_[before].links.next_in_channel = sends_[index].links.next_in_channel;
  if (channel.tail == index) channel.tail = before;
  mark_received(index);
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
  LocationStack& stack = stack_of(event.loc);
  event.enterptr = stack.size() == 0 ? 0 : stack.top().pos;
  switch (event.kind) {
    case EventKind::Enter:
      if (journaling_)
        came_.push_back({event.pos, event.loc, static_cast<std::uint32_t>(stack.size())});
      stack.own.push_back(event);
      ++records_;
      return Anomaly::None;
    case EventKind::Exit:
    case EventKind::CollectiveExit: {
      if (stack.size() == 0) return Anomaly::ExitOnEmptyStack;
      if (event.flags & kRegionFromStack) event.region = stack.top().region;
      // An exit always closes the innermost instance, even when its region differs.
      Anomaly anomaly =
          stack.top().region == event.region ? Anomaly::None : Anomaly::MismatchedExit;
      retired = stack.top();
      has_retired = true;
      stack.pop();
      // The next exit here reads the record below, written long ago when the stack is
      // deep (at depth 10^4 that read missed the cache at nearly every exit): fetch it
      // while the other locations' events run.
      if (stack.size() >= 2) {
        const char* below = reinterpret_cast<const char*>(&stack.view()[stack.size() - 2]);
        __builtin_prefetch(below);
        __builtin_prefetch(below + sizeof(Event) - 1);
      }
      --records_;
      if (journaling_ && retired.pos < journal_start_)
        left_.push_back({retired.pos, event.loc, static_cast<std::uint32_t>(stack.size())});
      return anomaly;
    }
    case EventKind::Send:
      enqueue(event);
      if (journaling_) came_.push_back({event.pos, -1, 0});
      return Anomaly::None;
    case EventKind::Recv: {
      event.sendptr = 0;
      auto channel = channels_.channels.find({event.peer, event.loc, event.tag, event.com});
      if (channel == OpenTable<QueueChannel>::kNone) return Anomaly::UnmatchedRecv;
      dequeue(channel, retired);
      has_retired = true;
      event.sendptr = retired.pos;
      if (event.flags & kLengthFromSend) event.len = retired.len;
      if (journaling_ && retired.pos < journal_start_) left_.push_back({retired.pos, -1, 0});
      return Anomaly::None;
    }
    case EventKind::RmaTransferStart:
      open_transfers_.push_back({{event.loc, event.com, event.tag}, event.pos});
      return Anomaly::None;
    case EventKind::RmaTransferEnd: {
      // startptr: the start of the same operation (location, window, rmaid).
      event.sendptr = 0;
      const Location origin = (event.flags & kStartOnPeer) ? event.peer : event.loc;
      std::array<std::int64_t, 3> key{origin, event.com, event.tag};
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
    case EventKind::RmaTargetStart: {
      // originptr: the get_1to of the same operation on the origin (the peer), which
      // names no window (EPILOG) or this one. The get's transfer starts here: its
      // get_1te on the origin then points here (startptr).
      event.sendptr = 0;
      for (auto it = open_transfers_.begin(); it != open_transfers_.end(); ++it) {
        const auto& key = it->first;
        if (key[0] == event.peer && key[2] == event.tag && (key[1] == -1 || key[1] == event.com)) {
          event.sendptr = it->second;
          open_transfers_.erase(it);
          break;
        }
      }
      open_transfers_.push_back({{event.peer, event.com, event.tag}, event.pos});
      return Anomaly::None;
    }
    case EventKind::WindowLock:
    case EventKind::Other:
    case EventKind::RmaGroupSync:
    case EventKind::Metric:
      return Anomaly::None;
  }
  return Anomaly::None;
}

const Event* TraceState::find_send(Position pos) const {
  const Queued* found = queued_at(pos);
  return (found && !found->received) ? &found->send : nullptr;
}

const Event* TraceState::find_enter(Location loc, Position pos) const {
  return stack(loc).find(pos);
}

const Event* TraceState::find(Position pos) const {
  if (const Event* send = find_send(pos)) return send;
  for (const LocationStack& stack : stacks_)
    if (const Event* enter = stack.view().find(pos)) return enter;
  return nullptr;
}

std::vector<Event> TraceState::queue() const {
  std::vector<Event> out;
  out.reserve(live_sends_);
  for (const Queued& entry : sends_)
    if (!entry.received) out.push_back(entry.send);
  return out;
}

std::vector<Position> TraceState::queue(Location src, Location dest) const {
  std::vector<Position> out;
  if (src == -1 && dest == -1) {
    out.reserve(live_sends_);
    for (const Queued& entry : sends_)
      if (!entry.received) out.push_back(entry.send.pos);
    return out;
  }
  auto collect = [&](const ChannelPair& pair) {
    for (SendIndex i = pair.first; i != kNoSend; i = sends_[i].links.next_in_pair)
      out.push_back(sends_[i].send.pos);
  };
  if (src != -1 && dest != -1) {
    auto slot = channels_.pairs.find({src, dest});
    if (slot != OpenTable<ChannelPair>::kNone) collect(channels_.pairs[slot]);
    return out;  // a pair's list is in position order
  }
  channels_.pairs.for_each([&](const ChannelPair& pair) {
    if ((src == -1 || pair.src == src) && (dest == -1 || pair.dest == dest)) collect(pair);
  });
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace earl
