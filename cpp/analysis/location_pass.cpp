#include "analysis/location_pass.h"

#include <algorithm>
#include <limits>

namespace earl::analysis {

namespace {

constexpr std::uint64_t kNoRequest = ~std::uint64_t(0);

std::uint64_t window_peer(std::int64_t window, Location peer) {
  return (static_cast<std::uint64_t>(window) << 32) ^ static_cast<std::uint32_t>(peer);
}

constexpr double kNoTime = -std::numeric_limits<double>::infinity();

// The request id OTF2's non-blocking records carry (otf2_records.cpp keeps it in data1).
std::uint64_t request_of(const Event& e) {
  return e.data1.kind == Value::Kind::UInt ? e.data1.unsigned_integer : kNoRequest;
}

}  // namespace

void LocationProfile::ensure(CallPathId id) {
  if (id < exclusive_time.size()) return;
  const std::size_t n = static_cast<std::size_t>(id) + 1;
  exclusive_time.resize(n, 0.0);
  visits.resize(n, 0);
  tally_slot.resize(n, 0);
}

// An event out of time order (a clock stepping back, a wild timestamp) counts as
// time_order and is analysed at the latest in-order time of its location, so no interval,
// region time or wait is ever negative (the reader's problems() counts the same events).
void LocationPass::event(const Event& e) {
  if (e.flags & kUnresolvedReference) problems_.note(Problem::UnresolvedReference);
  if (order_.take(e.time, regions_.definitions())) {
    problems_.note(Problem::TimeOrder);
    if (order_.seen()) {
      Event in_order = e;
      in_order.time = order_.latest();
      dispatch(in_order);
      return;
    }
  }
  dispatch(e);
}

void LocationPass::dispatch(const Event& e) {
  switch (e.kind) {
    case EventKind::Enter: enter(e); break;
    case EventKind::Exit:
    case EventKind::CollectiveExit: exit(e); break;
    case EventKind::Send: send(e); break;
    case EventKind::Recv: recv(e); break;
    case EventKind::Other:
    case EventKind::RmaGroupSync: request_record(e); break;
    case EventKind::RmaTransferStart:
      if (!frames_.empty())
        profile_.tallies_of(current())[static_cast<std::size_t>(
            regions_.request_record(e.type) == RequestRecord::GetStart ? Tally::BytesGet : Tally::BytesPut)] += e.len;
      if (frames_.empty()) rma_op_ended({e.com, e.peer, e.time}, e.time, kNoCallPath);
      else pending_rma_ops_.push_back({e.com, e.peer, e.time});
      break;
    case EventKind::WindowLock: window_lock(e); break;
    case EventKind::Metric: counters_.sample(e, current()); break;
    default: break;
  }
}

void LocationPass::enter(const Event& e) {
  const CallPathId id = tree_.child(current(), e.region);
  profile_.ensure(id);
  ++profile_.visits[id];
  frames_.push_back({id, e.region, e.time, 0.0, static_cast<std::uint32_t>(pending_sends_.size()),
                     static_cast<std::uint32_t>(pending_recvs_.size()),
                     static_cast<std::uint32_t>(pending_completed_.size()),
                     static_cast<std::uint32_t>(pending_rma_ops_.size())});
}

void LocationPass::exit(const Event& e) {
  if (frames_.empty()) {
    problems_.note(Problem::ExitOnEmptyStack);
    return;
  }
  const Frame frame = frames_.back();
  frames_.pop_back();
  // An exit that names no region (EPILOG: kRegionFromStack) closes whatever is open.
  if (frame.region != e.region && !(e.flags & kRegionFromStack)) problems_.note(Problem::MismatchedExit);
  const double duration = e.time - frame.enter;
  profile_.exclusive_time[frame.callpath] += duration - frame.children;
  if (!frames_.empty()) frames_.back().children += duration;

  for (std::size_t i = frame.first_rma_op; i < pending_rma_ops_.size(); ++i)
    rma_op_ended(pending_rma_ops_[i], e.time, frame.callpath);
  pending_rma_ops_.resize(frame.first_rma_op);

  const RegionClass& cls = regions_.of(frame.region);
  const CallInstance call{frame.enter, e.time, frame.callpath, cls.role, loc_};
  end_call(frame, call);
  rma_synchronization(frame, call);
  const bool recorded = e.kind == EventKind::CollectiveExit;
  if (recorded) count_collective(frame.callpath, e.len, static_cast<std::uint64_t>(e.tag));
  if (is_collective(cls.role)) {
    const std::int64_t key = recorded && e.com >= 0 ? e.com : -2 - static_cast<std::int64_t>(frame.region);
    const std::uint64_t seq = collectives_on_[key]++;
    // OTF2's MpiCollectiveBegin/End times, where the trace has them (the importer keeps
    // them in the exit's data1/data2), bound the operation; elsewhere enter and exit.
    CallInstance operation = call;
    if (recorded && e.data1.kind == Value::Kind::Float) operation.enter = e.data1.real;
    if (recorded && e.data2.kind == Value::Kind::Float) operation.leave = e.data2.real;
    sink_.on_collective({key, seq, frame.region, cls.role, recorded, recorded ? e.peer : -1,
                         recorded ? e.len : 0, recorded ? static_cast<std::uint64_t>(e.tag) : 0,
                         operation});
    if (cls.role == CallRole::WinFence && !fence_op_end_.empty()) {
      RmaFenceOps ops{key, seq, {}};
      for (const auto& [window_target, end] : fence_op_end_) ops.last_op_end.emplace_back(window_target.second, end);
      fence_op_end_.clear();
      sink_.on_rma_fence_ops(std::move(ops));
    }
  }
}

void LocationPass::recount_receive(const ReceiveRecount& recount) {
  Tallies& t = profile_.tallies_of(recount.callpath);
  --t[static_cast<std::size_t>(recount.counted ? Tally::CommsRecv : Tally::SyncsRecv)];
  t[static_cast<std::size_t>(Tally::BytesRcvd)] -= recount.counted;
  if (recount.matched) profile_.count(recount.callpath, recount.bytes ? Tally::CommsRecv : Tally::SyncsRecv,
                                      Tally::BytesRcvd, recount.bytes);
}

// A collective call with its record (OTF2's MpiCollectiveEnd): a synchronisation when it
// moves no data, else a communication by direction, and its bytes.
void LocationPass::count_collective(CallPathId callpath, std::uint64_t sent, std::uint64_t received) {
  const Tally kind = sent && received ? Tally::CommsCxch
                     : sent           ? Tally::CommsCsrc
                     : received       ? Tally::CommsCdst
                                      : Tally::SyncsColl;
  Tallies& t = profile_.tallies_of(callpath);
  ++t[static_cast<std::size_t>(kind)];
  t[static_cast<std::size_t>(Tally::BytesCout)] += sent;
  t[static_cast<std::size_t>(Tally::BytesCin)] += received;
}

// An RMA operation ends when the call issuing it leaves (Scalasca's end of an operation).
void LocationPass::rma_op_ended(const RmaOp& op, double end, CallPathId callpath) {
  auto epoch = access_open_.find(op.window);
  if (epoch == access_open_.end()) epoch = access_open_.find(-1);
  if (epoch != access_open_.end()) epoch->second.ops.push_back({op.issued, end, callpath});
  if (op.target < 0) return;  // a target the trace does not resolve
  double& last = last_op_end_.try_emplace(window_peer(op.window, op.target), end).first->second;
  last = std::max(last, end);
  double& since_fence = fence_op_end_.try_emplace({op.window, op.target}, end).first->second;
  since_fence = std::max(since_fence, end);
}

void LocationPass::send(const Event& e) {
  const Channel channel{loc_, e.peer, e.tag, e.com};
  if (e.peer >= 0) {
    LocationProfile::Traffic& to = profile_.sent_to[e.peer];
    to.bytes += e.len;
    ++to.messages;
  }
  SendRecord record{channel, sends_on_[channel]++, e.time, e.len, {}, {}};
  const std::uint64_t request = request_of(e);
  if (frames_.empty()) {
    record.call = {e.time, e.time, kNoCallPath, CallRole::None, loc_};
    if (request != kNoRequest) {
      open_send(request, record);
    } else {
      record.completion = record.call;
      sink_.on_send(record);
    }
    return;
  }
  profile_.count(frames_.back().callpath, e.len ? Tally::CommsSend : Tally::SyncsSend, Tally::BytesSent, e.len);
  pending_sends_.push_back(record);
  pending_requests_.push_back(request);
}

void LocationPass::open_send(std::uint64_t request, const SendRecord& send) {
  auto [it, added] = open_sends_.try_emplace(request, send);
  if (added) return;
  // A request id reused before its send completed: the older send never completed.
  it->second.completion = {it->second.call.leave, it->second.call.leave, kNoCallPath, CallRole::None, loc_};
  sink_.on_send(it->second);
  it->second = send;
}

void LocationPass::request_record(const Event& e) {
  const RequestRecord kind = regions_.request_record(e.type);
  if (kind == RequestRecord::ProgramBegin || kind == RequestRecord::ProgramEnd) return program_record(e, kind);
  const std::uint64_t request = request_of(e);
  if (request == kNoRequest) return;
  switch (kind) {
    case RequestRecord::SendComplete: {
      auto it = open_sends_.find(request);
      if (it == open_sends_.end()) return;  // the request of a receive or of an unknown send
      SendRecord send = it->second;
      open_sends_.erase(it);
      if (frames_.empty()) {
        send.completion = {e.time, e.time, kNoCallPath, CallRole::None, loc_};
        sink_.on_send(send);
      } else {
        pending_completed_.push_back(send);
      }
      break;
    }
    case RequestRecord::RecvPosted:
      posted_receives_[request] = frames_.empty() ? e.time : frames_.back().enter;
      break;
    case RequestRecord::RmaGroupSync:
      if (!frames_.empty()) {
        frames_.back().rma_window = e.com;
        frames_.back().rma_group = e.tag;
      }
      break;
    case RequestRecord::WindowLock:    // wlock/wunlock events: window_lock()
    case RequestRecord::WindowUnlock:
    case RequestRecord::PutStart:
    case RequestRecord::GetStart:
    case RequestRecord::ProgramBegin:  // program_record()
    case RequestRecord::ProgramEnd:
    case RequestRecord::None: break;
  }
}

// ProgramBegin/End (OTF2) enter and leave the program's region, the call tree's root,
// which so holds the time before the first region and after the last, with one visit.
void LocationPass::program_record(const Event& e, RequestRecord kind) {
  Event region_event = e;
  if (kind == RequestRecord::ProgramBegin) {
    if (!frames_.empty() || e.data1.kind != Value::Kind::String ||
        !regions_.program_region(e.data1.string, region_event.region))
      return;
    program_region_ = region_event.region;
    region_event.kind = EventKind::Enter;
    enter(region_event);
  } else if (program_region_ != kNoProgram && frames_.size() == 1 && frames_.back().region == program_region_) {
    region_event.kind = EventKind::Exit;
    region_event.region = program_region_;
    exit(region_event);
  }
}

void LocationPass::end_call(const Frame& frame, const CallInstance& call) {
  const bool completed_sends = pending_completed_.size() > frame.first_completed;
  for (std::size_t i = frame.first_send; i < pending_sends_.size(); ++i) {
    SendRecord& send = pending_sends_[i];
    send.call = call;
    if (pending_requests_[i] != kNoRequest) {
      open_send(pending_requests_[i], send);
    } else {
      send.completion = call;
      sink_.on_send(send);
    }
  }
  pending_sends_.resize(frame.first_send);
  pending_requests_.resize(frame.first_send);
  for (std::size_t i = frame.first_completed; i < pending_completed_.size(); ++i) {
    pending_completed_[i].completion = call;
    sink_.on_send(pending_completed_[i]);
  }
  pending_completed_.resize(frame.first_completed);
  if (pending_recvs_.size() > frame.first_recv) {
    ReceiveCall done{call, {pending_recvs_.begin() + frame.first_recv, pending_recvs_.end()}, completed_sends};
    pending_recvs_.resize(frame.first_recv);
    if (call.role == CallRole::Recv || call.role == CallRole::Sendrecv)
      for (RecvRecord& r : done.receives)
        if (r.posted == kUnknownPost) r.posted = call.enter;
    sink_.on_receive_call(std::move(done));
  }
}

void LocationPass::recv(const Event& e) {
  const Channel channel{e.peer, loc_, e.tag, e.com};
  RecvRecord record{channel, recvs_on_[channel]++, e.time};
  record.bytes = e.len;
  if (const std::uint64_t request = request_of(e); request != kNoRequest) {
    if (auto it = posted_receives_.find(request); it != posted_receives_.end()) {
      record.posted = it->second;
      posted_receives_.erase(it);
    }
  }
  if (frames_.empty()) {
    sink_.on_receive_call({{e.time, e.time, kNoCallPath, CallRole::None, loc_}, {record}});
    return;
  }
  profile_.count(frames_.back().callpath, e.len ? Tally::CommsRecv : Tally::SyncsRecv, Tally::BytesRcvd, e.len);
  pending_recvs_.push_back(record);
}

// MPI_Win_start/post open an epoch on their window (named by the RmaGroupSync inside, or
// -1), MPI_Win_complete/wait close it: one record per epoch with, per peer of its group,
// the epoch's number on (origin, target, window).
void LocationPass::rma_synchronization(const Frame& frame, const CallInstance& call) {
  const bool access = call.role == CallRole::WinStart || call.role == CallRole::WinComplete;
  auto& open = access ? access_open_ : exposure_open_;
  switch (call.role) {
    case CallRole::WinStart:
    case CallRole::WinPost:
      open[frame.rma_window] = {call, frame.rma_group, frame.rma_window, {}};
      return;
    case CallRole::WinComplete:
    case CallRole::WinWait: break;
    default: return;
  }
  auto it = open.find(frame.rma_window);
  if (it == open.end()) it = open.find(-1);
  if (it == open.end() && frame.rma_window < 0 && open.size() == 1) it = open.begin();
  OpenEpoch opened{{kNoTime, kNoTime, kNoCallPath, CallRole::None, loc_}, -1, -1, {}};
  if (it != open.end()) {
    opened = std::move(it->second);
    open.erase(it);
  }
  const std::int64_t group = frame.rma_group >= 0 ? frame.rma_group : opened.group;
  const std::int64_t window = frame.rma_window >= 0 ? frame.rma_window : opened.window;
  if (access && window >= 0) {
    auto first = fence_op_end_.lower_bound({window, std::numeric_limits<Location>::min()});
    auto last = fence_op_end_.lower_bound({window + 1, std::numeric_limits<Location>::min()});
    fence_op_end_.erase(first, last);
  }
  if (group < 0 || window < 0) return;  // no record names the peers: nothing to judge
  std::vector<RmaPeer> peers = rma_peers(window, group, access, opened.call.enter);
  if (access)
    sink_.on_rma_access({window, opened.call, call, std::move(peers), std::move(opened.ops)});
  else
    sink_.on_rma_exposure({window, opened.call.enter, call, std::move(peers)});
}

std::vector<RmaPeer> LocationPass::rma_peers(std::int64_t window, std::int64_t group, bool access,
                                             double since) {
  std::vector<RmaPeer> peers;
  const auto& groups = regions_.definitions().location_groups;
  auto members = groups.find(group);
  if (members == groups.end()) return peers;
  for (Location peer : members->second) {
    if (peer < 0) continue;
    const std::uint64_t key = window_peer(window, peer);
    double last = kNoTime;
    if (access) {
      auto op = last_op_end_.find(key);
      if (op != last_op_end_.end() && op->second >= since) last = op->second;
    }
    peers.push_back({peer, (access ? access_seq_ : exposure_seq_)[key]++, last});
  }
  return peers;
}

void LocationPass::window_lock(const Event& e) {
  const std::uint64_t key = window_peer(e.com, e.peer);
  switch (regions_.request_record(e.type)) {
    case RequestRecord::WindowLock: {
      // Only acquisitions whose type the format recorded (OTF2); requests are not one.
      if (e.data1.kind != Value::Kind::UInt || e.data2.kind != Value::Kind::UInt) return;
      if (e.data2.unsigned_integer == 1) return;
      const double requested = frames_.empty() ? e.time : frames_.back().enter;
      const Metric call_class = frames_.empty() ? Metric::Comp : regions_.of(frames_.back().region).metric;
      locks_held_[key] = {e.com, e.peer, e.data1.unsigned_integer == 1, requested, e.time, e.time,
                          current(), loc_, call_class};
      break;
    }
    case RequestRecord::WindowUnlock: {
      auto held = locks_held_.find(key);
      if (held == locks_held_.end()) return;
      held->second.released = e.time;
      sink_.on_rma_lock(held->second);
      locks_held_.erase(held);
      break;
    }
    default: break;
  }
}

void LocationPass::finish() {
  problems_.note(Problem::UnclosedRegion, frames_.size());
  // Messages inside calls that never ended still take part in matching.
  const double end = frames_.empty() ? 0.0 : frames_.back().enter;
  while (!frames_.empty()) {
    const Frame frame = frames_.back();
    frames_.pop_back();
    end_call(frame, {frame.enter, end, frame.callpath, CallRole::None, loc_});
  }
  // Non-blocking sends never completed still have their receives.
  for (auto& [request, send] : open_sends_) {
    send.completion = {send.call.leave, send.call.leave, kNoCallPath, CallRole::None, loc_};
    sink_.on_send(send);
  }
  open_sends_.clear();
}

}  // namespace earl::analysis
