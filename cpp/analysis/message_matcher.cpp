#include "analysis/message_matcher.h"

#include <algorithm>

namespace earl::analysis {

MessageMatcher::LocationState& MessageMatcher::state(Location loc) {
  while (static_cast<std::size_t>(loc) >= locations_.size())
    locations_.push_back(std::make_unique<LocationState>());
  return *locations_[static_cast<std::size_t>(loc)];
}

void MessageMatcher::send(const SendRecord& send) {
  auto it = waiting_receives_.find(send.channel);
  if (it == waiting_receives_.end() || it->second.empty()) {
    waiting_sends_[send.channel].push_back(send);
    return;
  }
  const WaitingReceive waiting = it->second.front();
  it->second.pop_front();
  match(send, *waiting.call, waiting.index);
  drain(send.channel.dest);
}

void MessageMatcher::receive_call(ReceiveCall&& done) {
  LocationState& st = state(done.call.loc);
  st.calls.push_back({done.call, {}, done.receives.size()});
  PendingCall& call = st.calls.back();
  call.receives.reserve(done.receives.size());
  for (const RecvRecord& r : done.receives) call.receives.push_back({r});
  for (std::size_t i = 0; i < call.receives.size(); ++i) {
    const Channel& channel = call.receives[i].record.channel;
    auto it = waiting_sends_.find(channel);
    if (it != waiting_sends_.end() && !it->second.empty()) {
      match(it->second.front(), call, i);
      it->second.pop_front();
    } else {
      waiting_receives_[channel].push_back({&call, i});
    }
  }
  drain(done.call.loc);
}

void MessageMatcher::match(const SendRecord& send, PendingCall& call, std::size_t index) {
  Received& r = call.receives[index];
  r.matched = true;
  r.send_time = send.time;
  r.send_enter = send.call.enter;
  --call.unmatched;
  // Late Receiver: a blocking send that waited for its receive to be posted. The receive
  // is posted when its call begins (MPI_Recv, MPI_Sendrecv); receives completed in a wait
  // were posted by an earlier MPI_Irecv, which the model does not link, so they are not
  // judged.
  const CallRole posting = call.call.role;
  if (send.call.role == CallRole::BlockingSend &&
      (posting == CallRole::Recv || posting == CallRole::Sendrecv) &&
      send.call.leave > call.call.enter) {
    const double idle = call.call.enter - send.call.enter;
    if (idle > 0) severities_.add_instance(Metric::MpiLatereceiver, send.call.callpath, send.call.loc, idle);
  }
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
        it = st.kept.erase(it);
      } else {
        ++it;
      }
    }
  }
  if (!judged) return;
  auto keep = [&](const Received& r, double idle) {
    severities_.add_instance(Metric::MpiLatesender, call.callpath, call.loc, idle);
    st.kept.push_back({r.send_time, idle, r.record.channel.src, call.callpath});
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
  if (worst) keep(*worst, worst_idle);
}

void MessageMatcher::finish() {
  for (std::size_t loc = 0; loc < locations_.size(); ++loc) {
    LocationState& st = *locations_[loc];
    while (!st.calls.empty()) {
      problems_.note(Problem::UnmatchedRecv, st.calls.front().unmatched);
      judge(st.calls.front(), st);
      st.calls.pop_front();
    }
  }
  for (const auto& [channel, sends] : waiting_sends_) problems_.note(Problem::UnmatchedSend, sends.size());
  waiting_sends_.clear();
  waiting_receives_.clear();
}

}  // namespace earl::analysis
