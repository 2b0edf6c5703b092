#include "analysis/location_pass.h"

namespace earl::analysis {

void LocationProfile::ensure(CallPathId id) {
  if (id < exclusive_time.size()) return;
  const std::size_t n = static_cast<std::size_t>(id) + 1;
  exclusive_time.resize(n, 0.0);
  visits.resize(n, 0);
  bytes_sent.resize(n, 0);
  bytes_rcvd.resize(n, 0);
}

void LocationPass::event(const Event& e) {
  switch (e.kind) {
    case EventKind::Enter: enter(e); break;
    case EventKind::Exit:
    case EventKind::CollectiveExit: exit(e); break;
    case EventKind::Send: send(e); break;
    case EventKind::Recv: recv(e); break;
    default: break;
  }
}

void LocationPass::enter(const Event& e) {
  const CallPathId id = tree_.child(current(), e.region);
  profile_.ensure(id);
  ++profile_.visits[id];
  frames_.push_back({id, e.region, e.time, 0.0, static_cast<std::uint32_t>(pending_sends_.size()),
                     static_cast<std::uint32_t>(pending_recvs_.size())});
}

void LocationPass::exit(const Event& e) {
  if (frames_.empty()) {
    problems_.note(Problem::ExitOnEmptyStack);
    return;
  }
  const Frame frame = frames_.back();
  frames_.pop_back();
  if (frame.region != e.region) problems_.note(Problem::MismatchedExit);
  const double duration = e.time - frame.enter;
  profile_.exclusive_time[frame.callpath] += duration - frame.children;
  if (!frames_.empty()) frames_.back().children += duration;

  const RegionClass& cls = regions_.of(frame.region);
  const CallInstance call{frame.enter, e.time, frame.callpath, cls.role, loc_};
  for (std::size_t i = frame.first_send; i < pending_sends_.size(); ++i) {
    pending_sends_[i].call = call;
    sink_.on_send(pending_sends_[i]);
  }
  pending_sends_.resize(frame.first_send);
  if (pending_recvs_.size() > frame.first_recv) {
    ReceiveCall done{call, {pending_recvs_.begin() + frame.first_recv, pending_recvs_.end()}};
    pending_recvs_.resize(frame.first_recv);
    sink_.on_receive_call(std::move(done));
  }
  const bool recorded = e.kind == EventKind::CollectiveExit;
  if (recorded) {
    profile_.bytes_sent[frame.callpath] += e.len;
    profile_.bytes_rcvd[frame.callpath] += static_cast<std::uint64_t>(e.tag);
  }
  if (is_collective(cls.role)) {
    const std::int64_t key = recorded && e.com >= 0 ? e.com : -2 - static_cast<std::int64_t>(frame.region);
    const std::uint64_t seq = collectives_on_[key]++;
    sink_.on_collective({key, seq, frame.region, cls.role, recorded, recorded ? e.peer : -1,
                         recorded ? e.len : 0, recorded ? static_cast<std::uint64_t>(e.tag) : 0,
                         call});
  }
}

void LocationPass::send(const Event& e) {
  const Channel channel{loc_, e.peer, e.tag, e.com};
  SendRecord record{channel, sends_on_[channel]++, e.time, {}};
  if (frames_.empty()) {
    record.call = {e.time, e.time, kNoCallPath, CallRole::None, loc_};
    sink_.on_send(record);
    return;
  }
  profile_.bytes_sent[frames_.back().callpath] += e.len;
  pending_sends_.push_back(record);
}

void LocationPass::recv(const Event& e) {
  const Channel channel{e.peer, loc_, e.tag, e.com};
  RecvRecord record{channel, recvs_on_[channel]++, e.time};
  if (frames_.empty()) {
    sink_.on_receive_call({{e.time, e.time, kNoCallPath, CallRole::None, loc_}, {record}});
    return;
  }
  profile_.bytes_rcvd[frames_.back().callpath] += e.len;
  pending_recvs_.push_back(record);
}

void LocationPass::finish() {
  problems_.note(Problem::UnclosedRegion, frames_.size());
  // Messages inside calls that never ended still take part in matching.
  const double end = frames_.empty() ? 0.0 : frames_.back().enter;
  while (!frames_.empty()) {
    const Frame frame = frames_.back();
    frames_.pop_back();
    const CallInstance call{frame.enter, end, frame.callpath, CallRole::None, loc_};
    for (std::size_t i = frame.first_send; i < pending_sends_.size(); ++i) {
      pending_sends_[i].call = call;
      sink_.on_send(pending_sends_[i]);
    }
    pending_sends_.resize(frame.first_send);
    if (pending_recvs_.size() > frame.first_recv) {
      ReceiveCall done{call, {pending_recvs_.begin() + frame.first_recv, pending_recvs_.end()}};
      pending_recvs_.resize(frame.first_recv);
      sink_.on_receive_call(std::move(done));
    }
  }
}

}  // namespace earl::analysis
