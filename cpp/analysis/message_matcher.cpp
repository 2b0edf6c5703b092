#include "analysis/message_matcher.h"

#include <algorithm>

namespace earl::analysis {

MessageMatcher::LocationState& MessageMatcher::state(Location loc) {
  while (static_cast<std::size_t>(loc) >= locations_.size())
    locations_.push_back(std::make_unique<LocationState>());
  return *locations_[static_cast<std::size_t>(loc)];
}

MessageMatcher::Slot* MessageMatcher::ChannelQueue::at(std::uint64_t seq) {
  if (seq < base) return nullptr;
  const std::uint64_t i = seq - base;
  if (i >= slots.size()) slots.resize(static_cast<std::size_t>(i) + 1);
  return &slots[static_cast<std::size_t>(i)];
}

void MessageMatcher::ChannelQueue::pop_done() {
  while (!slots.empty() && slots.front().done) {
    slots.pop_front();
    ++base;
  }
}

void MessageMatcher::send(const SendRecord& send) {
  ChannelQueue& queue = channels_[send.channel];
  Slot* slot = queue.at(send.seq);
  if (!slot || slot->has_send || slot->done) return;  // numbers are unique per channel
  if (!slot->receive.call) {
    slot->has_send = true;
    slot->send = send;
    return;
  }
  const WaitingReceive waiting = slot->receive;
  slot->done = true;
  queue.pop_done();
  match(send, *waiting.call, waiting.index);
  drain(send.channel.dest);
}

void MessageMatcher::receive_call(ReceiveCall&& done) {
  LocationState& st = state(done.call.loc);
  st.calls.push_back({done.call, {}, done.receives.size(), done.completed_sends});
  PendingCall& call = st.calls.back();
  call.receives.reserve(done.receives.size());
  for (const RecvRecord& r : done.receives) call.receives.push_back({r});
  for (std::size_t i = 0; i < call.receives.size(); ++i) {
    const RecvRecord& r = call.receives[i].record;
    ChannelQueue& queue = channels_[r.channel];
    Slot* slot = queue.at(r.seq);
    if (!slot || slot->receive.call || slot->done) continue;
    if (slot->has_send) {
      const SendRecord send = slot->send;
      slot->done = true;
      queue.pop_done();
      match(send, call, i);
    } else {
      slot->receive = {&call, i};
    }
  }
  drain(done.call.loc);
}

void MessageMatcher::match(const SendRecord& send, PendingCall& call, std::size_t index) {
  Received& r = call.receives[index];
  r.matched = true;
  r.send_time = send.time;
  r.send_enter = send.call.enter;
  r.send_bytes = send.bytes;
  --call.unmatched;
  if (r.record.bytes != send.bytes && call.call.callpath != kNoCallPath)
    recounts_.push_back({call.call.loc, call.call.callpath, r.record.bytes, true, send.bytes});
  // Late Receiver: the call completing the send still running when its receive was
  // posted waited from its enter to the post. Judged for blocking standard and synchronous
  // sends (MPI_Send, MPI_Ssend, or the MPI_Wait/Waitany completing an MPI_Isend/Issend) and
  // the MPI_Waitall/Waitsome completing non-blocking sends. Receives whose post is unknown
  // (completed in a wait, no request link) are not judged.
  const CallInstance& sc = send.completion;
  const double posted = r.record.posted;
  if (posted == kUnknownPost || sc.leave <= posted) return;
  const double idle = posted - sc.enter;
  if (idle <= 0) return;
  if (sc.role == CallRole::BlockingSend || (sc.role == CallRole::Wait && send.call.role == CallRole::NonBlockingSend)) {
    late_receiver(sc, idle, send.bytes);
  } else if (sc.role == CallRole::WaitMany) {
    MultiWaitLateReceiver& largest = multi_wait_late_receivers_[{sc.loc, sc.enter}];
    if (idle > largest.idle) largest = {idle, sc.enter, sc.callpath, send.bytes};
  }
}

void MessageMatcher::late_receiver(const CallInstance& completion, double idle, std::uint64_t bytes) {
  severities_.add_instance(Metric::MpiLatereceiver, completion.callpath, completion.loc, idle, completion.enter);
  count_instance(Metric::MpiSlrCount, Metric::MpiClrCount, completion.callpath, completion.loc, bytes);
}

// An instance of a pattern counted among the synchronisations (a zero-byte message) or
// the communications; the count is part of syncs_send/recv or comms_send/recv already.
void MessageMatcher::count_instance(Metric synchronizations, Metric communications, CallPathId callpath,
                                    Location loc, std::uint64_t bytes) {
  severities_.add(bytes ? communications : synchronizations, callpath, loc, 1.0);
}

void MessageMatcher::drain(Location loc) {
  LocationState& st = state(loc);
  while (!st.calls.empty() && st.calls.front().unmatched == 0) {
    judge(st.calls.front(), st);
    st.calls.pop_front();
  }
}

void MessageMatcher::judge(const PendingCall& pending, LocationState& st) {
  const CallInstance& call = pending.call;
  for (const Received& r : pending.receives)
    if (r.matched && r.record.time < r.send_time) problems_.note(Problem::ClockViolationP2P);

  const bool judged = call.role == CallRole::Recv || call.role == CallRole::Sendrecv ||
                      call.role == CallRole::Wait || call.role == CallRole::WaitMany;
  // Wrong order: a message sent before a remembered late sender's message, received
  // after it, turns that late sender's wait into wrong-order time.
  for (const Received& r : pending.receives) {
    if (!r.matched) continue;
    for (auto it = st.kept.begin(); it != st.kept.end();) {
      if (r.send_time < it->send_time) {
        const Metric kind = it->src == r.record.channel.src ? Metric::MpiLswoSame : Metric::MpiLswoDifferent;
        severities_.add_instance(Metric::MpiLatesenderWo, it->callpath, call.loc, it->idle);
        severities_.add_instance(kind, it->callpath, call.loc, it->idle);
        count_instance(Metric::MpiSlswoCount, Metric::MpiClswoCount, it->callpath, call.loc, it->bytes);
        it = st.kept.erase(it);
      } else {
        ++it;
      }
    }
  }
  if (!judged) return;
  auto keep = [&](const Received& r, double idle) {
    severities_.add_instance(Metric::MpiLatesender, call.callpath, call.loc, idle, call.enter);
    count_instance(Metric::MpiSlsCount, Metric::MpiClsCount, call.callpath, call.loc, r.send_bytes);
    st.kept.push_back({r.send_time, idle, r.record.channel.src, call.callpath, r.send_bytes});
    if (st.kept.size() > kKeptLateSenders) st.kept.pop_front();
  };
  const Received* worst = nullptr;
  double worst_idle = 0.0;
  for (const Received& r : pending.receives) {
    if (!r.matched) continue;
    const double idle = std::min(r.send_enter, call.leave) - call.enter;
    if (idle <= 0) continue;
    if (call.role != CallRole::WaitMany) {
      keep(r, idle);
    } else if (idle > worst_idle) {
      worst = &r;
      worst_idle = idle;
    }
  }
  if (worst) {
    keep(*worst, worst_idle);
    if (pending.completed_sends) multi_waits_with_late_sender_.insert({call.loc, call.enter});
  }
}

void MessageMatcher::finish() {
  for (std::size_t loc = 0; loc < locations_.size(); ++loc) {
    LocationState& st = *locations_[loc];
    while (!st.calls.empty()) {
      problems_.note(Problem::UnmatchedRecv, st.calls.front().unmatched);
      const PendingCall& call = st.calls.front();
      if (call.call.callpath != kNoCallPath)
        for (const Received& r : call.receives)
          if (!r.matched) recounts_.push_back({call.call.loc, call.call.callpath, r.record.bytes, false, 0});
      judge(st.calls.front(), st);
      st.calls.pop_front();
    }
  }
  for (const auto& [channel, queue] : channels_)
    for (const Slot& slot : queue.slots) problems_.note(Problem::UnmatchedSend, slot.has_send && !slot.done);
  channels_.clear();
  for (const auto& [key, largest] : multi_wait_late_receivers_)
    if (!multi_waits_with_late_sender_.count(key))
      late_receiver({largest.enter, largest.enter, largest.callpath, CallRole::WaitMany, key.first}, largest.idle,
                    largest.bytes);
  multi_wait_late_receivers_.clear();
  multi_waits_with_late_sender_.clear();
}

}  // namespace earl::analysis
