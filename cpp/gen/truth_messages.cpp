// The ground truth of the point-to-point messages (gen/truth.h): matching, bytes, messages
// in flight, out-of-order receives, late senders (blocking and completed in MPI_Wait/
// MPI_Waitall) and late receivers.
#include <algorithm>

#include "gen/truth.h"

namespace earl::gen {

namespace {
// The generator's own tags are small (round_plan.h's Message::tag is an int); the writer's
// event carries any 64-bit tag.
int tag_of(const WriterEvent& e) { return static_cast<int>(e.tag); }
}  // namespace

void TruthCollector::on_send(const WriterEvent& e, std::vector<Frame>& stack) {
  if (e.peer < 0 || e.peer >= n_) fail("send destination out of range");
  const int region = stack.empty() ? -1 : stack.back().region;
  const std::int64_t enter = stack.empty() ? 0 : stack.back().enter;
  const bool blocking = region >= 0 && (region == send_region_ || region == ssend_region_);
  if (blocking) stack.back().send = sends_;
  in_flight_[e.peer].push_back({e.loc, tag_of(e), region, enter, blocking ? sends_ : -1, sends_,
                                 static_cast<std::int64_t>(e.len)});
  if (e.request >= 0) message_of_request_[request_key(e.loc, e.request)] = sends_;
  ++sends_;
  bytes_sent_[e.loc] += e.len;
  count_message(e, e.len);
  ++messages_;
  max_in_flight_ = std::max(max_in_flight_, messages_ - receives_);
}

void TruthCollector::on_recv(const WriterEvent& e, const std::vector<Frame>& stack) {
  if (e.peer < 0 || e.peer >= n_) fail("receive source out of range");
  const InFlight sent = match_receive(e);
  bytes_received_[e.loc] += e.len;
  count_message(e, sent.len);
  ++receives_;
  if (e.request >= 0) receive_posted(e, sent.message);
  judge_blocking_receive(e, sent, stack);
  if (sent.number >= 0) track_late_receiver(e, sent, stack);
  // Completed in MPI_Wait/MPI_Waitall: judged when the wait ends.
  if (!stack.empty() && (stack.back().region == wait_region_ || stack.back().region == waitall_region_) &&
      (sent.send_region == send_region_ || sent.send_region == isend_region_))
    completed_[e.loc].push_back({e.peer, tag_of(e), sent.send_enter});
}

// The oldest message in flight from the source with the receive's tag, taken out of the
// destination's queue. Seed 004 section 8: every older unreceived message from the same
// source was overtaken.
TruthCollector::InFlight TruthCollector::match_receive(const WriterEvent& e) {
  auto& queue = in_flight_[e.loc];
  std::size_t match = queue.size();
  std::uint64_t older = 0;
  int oldest_tag = 0;
  for (std::size_t j = 0; j < queue.size(); ++j) {
    if (queue[j].src != e.peer) continue;
    if (queue[j].tag == e.tag) {
      match = j;
      break;
    }
    if (older++ == 0) oldest_tag = queue[j].tag;
  }
  if (match == queue.size()) fail("receive without a matching send");
  const InFlight sent = queue[match];
  queue.erase(queue.begin() + static_cast<std::ptrdiff_t>(match));
  if (older > 0) {
    ++ooo_count_;
    ooo_reports_ += older;
    if (static_cast<std::int64_t>(ooo_.size()) < list_limit_)
      ooo_.push_back({e.peer, e.loc, oldest_tag, tag_of(e), seconds(e.time)});
  }
  return sent;
}

// Seed 004 section 7: MPI_Send (or MPI_Ssend) enter - MPI_Recv enter, when positive.
void TruthCollector::judge_blocking_receive(const WriterEvent& e, const InFlight& sent,
                                            const std::vector<Frame>& stack) {
  const bool blocking_send =
      sent.send_region == send_region_ || (ssend_region_ >= 0 && sent.send_region == ssend_region_);
  if (stack.empty() || stack.back().region != recv_region_ || !blocking_send) return;
  const double wait = seconds(sent.send_enter) - seconds(stack.back().enter);
  if (wait > 0) late_sender(e.peer, e.loc, tag_of(e), sent.send_enter, stack.back().enter, wait);
}

// Late receiver: a blocking send's call still running when MPI_Recv was entered. Judged
// here when the call has left already, else when it leaves (end_send_call).
void TruthCollector::track_late_receiver(const WriterEvent& e, const InFlight& sent,
                                         const std::vector<Frame>& stack) {
  auto left = send_left_.find(sent.number);
  const bool posted = !stack.empty() && stack.back().region == recv_region_;
  const Posted post{e.loc, tag_of(e), posted ? stack.back().enter : 0};
  if (left != send_left_.end()) {
    if (posted) late_receiver(e.peer, post, sent.send_enter, left->second);
    send_left_.erase(left);
  } else if (posted) {
    send_posted_[sent.number] = post;
  }
}

// A blocking send call ends: judged now if its receive was posted, else then.
void TruthCollector::end_send_call(const Frame& frame, const WriterEvent& e) {
  auto posted = send_posted_.find(frame.send);
  if (posted != send_posted_.end()) {
    late_receiver(e.loc, posted->second, frame.enter, e.time);
    send_posted_.erase(posted);
  } else {
    send_left_[frame.send] = e.time;
  }
}

// Scalasca: min(enter of the send's call, leave of the wait) - enter of the wait;
// MPI_Waitall only the largest of its receives.
void TruthCollector::judge_completed_receives(const WriterEvent& e, const Frame& frame) {
  const Completed* worst = nullptr;
  double worst_wait = 0.0;
  for (const Completed& c : completed_[e.loc]) {
    const double wait = seconds(std::min(c.send_enter, e.time)) - seconds(frame.enter);
    if (wait <= 0) continue;
    if (e.region == wait_region_) {
      late_sender(c.src, e.loc, c.tag, c.send_enter, frame.enter, wait);
    } else if (wait > worst_wait) {
      worst = &c;
      worst_wait = wait;
    }
  }
  if (worst) late_sender(worst->src, e.loc, worst->tag, worst->send_enter, frame.enter, worst_wait);
  completed_[e.loc].clear();
  if (e.region == waitall_region_) leave_waitall(e, worst != nullptr);
}

// --- Late receivers completed in MPI_Waitall ------------------------------------------

void TruthCollector::enter_waitall(const WriterEvent& e) {
  const std::int64_t id = next_waitall_++;
  open_waitall_[e.loc] = id;
  waitalls_.emplace(id, WaitallInstance{e.time, -1, false, 0, {}});
}

void TruthCollector::leave_waitall(const WriterEvent& e, bool late_sender_candidate) {
  const std::int64_t id = open_waitall_[e.loc];
  open_waitall_[e.loc] = -1;
  auto it = waitalls_.find(id);
  if (it == waitalls_.end()) return;
  it->second.leave = e.time;
  it->second.late_sender = late_sender_candidate;
  settle_waitall(e.loc, id);
}

// The MPI_Irecv (stack top) that posts request e.request: its enter.
void TruthCollector::on_request(const WriterEvent& e, const std::vector<Frame>& stack) {
  if (e.kind == WriterEventKind::IrecvRequest) {
    if (!stack.empty()) irecv_enter_[request_key(e.loc, e.request)] = stack.back().enter;
    return;
  }
  // IsendComplete: the send of that request completes in the MPI_Waitall on the stack.
  auto m = message_of_request_.find(request_key(e.loc, e.request));
  if (m == message_of_request_.end()) return;
  const std::int64_t message = m->second;
  message_of_request_.erase(m);
  const std::int64_t id = open_waitall_[e.loc];
  if (id < 0 || stack.empty() || stack.back().region != waitall_region_) return;
  WaitallInstance& w = waitalls_.at(id);
  auto posted = recv_posted_.find(message);
  if (posted != recv_posted_.end()) {
    w.posted.push_back(posted->second);
    recv_posted_.erase(posted);
  } else {
    ++w.pending;
    waiting_waitall_[message] = {e.loc, id};
  }
}

// A non-blocking receive matched message `message`: its MPI_Irecv's enter is now known.
void TruthCollector::receive_posted(const WriterEvent& e, std::int64_t message) {
  auto enter = irecv_enter_.find(request_key(e.loc, e.request));
  if (enter == irecv_enter_.end()) return;
  const std::int64_t posted = enter->second;
  irecv_enter_.erase(enter);
  auto waiting = waiting_waitall_.find(message);
  if (waiting == waiting_waitall_.end()) {
    recv_posted_[message] = posted;
    return;
  }
  const auto [loc, id] = waiting->second;
  waiting_waitall_.erase(waiting);
  WaitallInstance& w = waitalls_.at(id);
  w.posted.push_back(posted);
  --w.pending;
  settle_waitall(loc, id);
}

// Judged once the Waitall has left and every receive of its sends is known to be posted.
void TruthCollector::settle_waitall(int loc, std::int64_t id) {
  auto it = waitalls_.find(id);
  const WaitallInstance& w = it->second;
  if (w.leave < 0 || w.pending > 0) return;
  if (!w.late_sender) {
    double worst = 0.0;
    for (std::int64_t posted : w.posted)
      if (w.leave > posted) worst = std::max(worst, seconds(posted) - seconds(w.enter));
    if (worst > 0) {
      ++waitall_lr_count_;
      waitall_lr_total_ += worst;
      waitall_lr_by_location_[loc] += worst;
    }
  }
  waitalls_.erase(it);
}

void TruthCollector::late_sender(int src, int dest, int tag, std::int64_t send_enter,
                                 std::int64_t recv_enter, double wait) {
  late_total_ += wait;
  ++late_count_;
  if (static_cast<std::int64_t>(late_.size()) < list_limit_)
    late_.push_back({src, dest, tag, seconds(send_enter), seconds(recv_enter), wait});
}

void TruthCollector::late_receiver(int src, const Posted& posted, std::int64_t send_enter,
                                   std::int64_t send_leave) {
  if (send_leave <= posted.posted) return;
  const double wait = seconds(posted.posted) - seconds(send_enter);
  if (!(wait > 0)) return;
  late_receiver_total_ += wait;
  ++late_receiver_count_;
  if (static_cast<std::int64_t>(late_receivers_.size()) < list_limit_)
    late_receivers_.push_back({src, posted.dest, posted.tag, seconds(send_enter), seconds(posted.posted), wait});
}

}  // namespace earl::gen
