#include "gen/truth.h"

#include <algorithm>

#include "model/error.h"

namespace earl::gen {

TruthCollector::TruthCollector(int send_region, int recv_region, std::vector<int> collectives,
                               std::int64_t list_limit)
    : send_region_(send_region),
      recv_region_(recv_region),
      collectives_(std::move(collectives)),
      list_limit_(list_limit < 0 ? 0 : list_limit) {}

void TruthCollector::fail(const std::string& what) const {
  throw EarlError("generator internal error: " + what);
}

void TruthCollector::begin(const TraceHeader& header) {
  header_ = header;
  n_ = header.locations;
  threads_ = header.threads > 0 ? header.threads : 1;
  processes_ = n_ / threads_;
  nregions_ = static_cast<int>(header.regions.size());
  stacks_.assign(n_, {});
  region_time_.assign(static_cast<std::size_t>(n_) * nregions_, RegionTime{});
  in_flight_.assign(n_, {});
  bytes_received_.assign(n_, 0);
  bytes_sent_.assign(n_, 0);
  last_time_.assign(n_, -1);
  coll_enter_.assign(processes_, -1);
  coll_leave_.assign(processes_, -1);
  coll_left_ = 0;
  coll_root_ = -1;
  patterns_.clear();
  completed_.assign(n_, {});
  rma_ = GroundTruth::Rma{};
  sends_ = 0;
  send_left_.clear();
  send_posted_.clear();
  late_receivers_.clear();
  late_receiver_count_ = 0;
  late_receiver_total_ = 0.0;
  lock_released_.assign(n_, -1);
  lock_held_.assign(n_, -1);
  rma_.window = header.rma_window;
  program_begin_.assign(n_, -1);
  toplevel_us_.assign(n_, 0);
  program_root_.assign(n_, 0.0);
  init_.assign(processes_, {});
  finalize_.assign(processes_, {});
  const auto zeros = std::vector<std::uint64_t>(n_, 0);
  counts_ = {zeros, zeros, zeros, zeros, zeros, zeros, zeros, zeros, std::vector<std::int64_t>(n_, 0),
             std::vector<std::int64_t>(n_, 0)};
  waitalls_.clear();
  open_waitall_.assign(n_, -1);
  waitall_lr_by_location_.assign(n_, 0.0);
  find_judged_regions(header);
}

// The collectives (given, of a known kind, or the window's synchronisations), the
// non-blocking calls and MPI_Ssend.
void TruthCollector::find_judged_regions(const TraceHeader& header) {
  is_collective_.assign(nregions_, 0);
  region_kind_.assign(nregions_, nullptr);
  for (int r : collectives_)
    if (r >= 0 && r < nregions_) is_collective_[r] = 1;
  for (int r = 0; r < nregions_; ++r) {
    const std::string& name = header.regions[r].name;
    if (const CollectiveKind* kind = collective_kind_of_region(name)) {
      region_kind_[r] = kind;
      is_collective_[r] = 1;
    }
    if (name == "MPI_Isend") isend_region_ = r;
    if (name == "MPI_Wait") wait_region_ = r;
    if (name == "MPI_Waitall") waitall_region_ = r;
    if (name == "MPI_Ssend") ssend_region_ = r;
    if (name == "MPI_Init") init_region_ = r;
    if (name == "MPI_Finalize") finalize_region_ = r;
    if (!header.rma_window) continue;
    int* window_call = name == "MPI_Win_create" ? &win_create_
                       : name == "MPI_Win_fence" ? &win_fence_
                       : name == "MPI_Win_free"  ? &win_free_
                                                 : nullptr;
    if (!window_call) continue;
    *window_call = r;
    is_collective_[r] = 1;
  }
}

void TruthCollector::write(const WriterEvent* events, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    const WriterEvent& e = events[i];
    admit(e);
    std::vector<Frame>& stack = stacks_[e.loc];
    switch (e.kind) {
      case WriterEventKind::Enter: on_enter(e, stack); break;
      case WriterEventKind::Exit: on_exit(e, stack); break;
      case WriterEventKind::Send: on_send(e, stack); break;
      case WriterEventKind::Recv: on_recv(e, stack); break;
      case WriterEventKind::RmaPut: on_put(e); break;
      case WriterEventKind::RmaLockRequest:
      case WriterEventKind::RmaLockAcquire:
      case WriterEventKind::RmaLockRelease: window_lock(e, stack); break;
      case WriterEventKind::IrecvRequest:
      case WriterEventKind::IsendComplete: on_request(e, stack); break;
      case WriterEventKind::RmaPutComplete:
      case WriterEventKind::Fork:
      case WriterEventKind::Join:
        break;  // no part of any ground-truth figure
      case WriterEventKind::ProgramBegin:
      case WriterEventKind::ProgramEnd: on_program(e, stack); break;
    }
  }
}

// The event's place: a known location, strictly later than the location's previous event,
// not earlier than the previous one written; counted, and part of start/end, when every
// format holds it (ALOG has no one-sided, request or program records; OTF2 adds them).
void TruthCollector::admit(const WriterEvent& e) {
  if (e.loc < 0 || e.loc >= n_) fail("location out of range");
  if (e.time <= last_time_[e.loc]) fail("times not strictly increasing on a location");
  if (e.time < output_time_) fail("times decrease in output order");
  last_time_[e.loc] = e.time;
  output_time_ = e.time;
  if (e.kind == WriterEventKind::ProgramBegin || e.kind == WriterEventKind::ProgramEnd) return;
  if (first_time_ < 0) first_time_ = e.time;
  final_time_ = e.time;
  events_ += e.kind != WriterEventKind::RmaPut && e.kind != WriterEventKind::RmaPutComplete &&
             e.kind != WriterEventKind::IrecvRequest && e.kind != WriterEventKind::IsendComplete &&
             e.kind != WriterEventKind::RmaLockRequest && e.kind != WriterEventKind::RmaLockAcquire &&
             e.kind != WriterEventKind::RmaLockRelease;
}

void TruthCollector::on_enter(const WriterEvent& e, std::vector<Frame>& stack) {
  if (e.region < 0 || e.region >= nregions_) fail("region out of range");
  stack.push_back({e.region, e.time});
  max_depth_ = std::max<std::uint64_t>(max_depth_, stack.size());
  if (is_collective_[e.region]) enter_collective(e);
  if (e.region == waitall_region_) enter_waitall(e);
  if (e.region == init_region_ || e.region == finalize_region_) frame_call(e, true);
}

void TruthCollector::on_exit(const WriterEvent& e, std::vector<Frame>& stack) {
  if (stack.empty() || stack.back().region != e.region) fail("exit does not match enter");
  const Frame frame = stack.back();
  stack.pop_back();
  if (frame.send >= 0) end_send_call(frame, e);
  if (region_kind_[e.region]) leave_collective(e);
  if (e.flags & kWriterCollective) count_collective(e);
  if (e.region == init_region_ || e.region == finalize_region_) frame_call(e, false);
  if (stack.empty()) toplevel_us_[e.loc] += e.time - frame.enter;
  const double diff = seconds(e.time) - seconds(frame.enter);
  if (e.region == wait_region_ || e.region == waitall_region_) judge_completed_receives(e, frame);
  add_region_time(e.loc, e.region, diff, stack);
}

// Seed 004 section 9: incl/excl += diff; the caller's excl -= diff.
void TruthCollector::add_region_time(int loc, int region, double diff, const std::vector<Frame>& stack) {
  RegionTime& rt = region_time_[static_cast<std::size_t>(loc) * nregions_ + region];
  rt.incl += diff;
  rt.excl += diff;
  ++rt.count;
  if (!stack.empty()) region_time_[static_cast<std::size_t>(loc) * nregions_ + stack.back().region].excl -= diff;
}

void TruthCollector::finish() {
  for (int l = 0; l < n_; ++l) {
    if (!stacks_[l].empty()) fail("region instances left open");
    if (!in_flight_[l].empty()) fail("messages left unreceived");
    if (lock_held_[l] >= 0) fail("window lock left held");
  }
  if (coll_pending_ != 0) fail("collective instance incomplete");
  if (!waitalls_.empty()) fail("MPI_Waitall instances left unjudged");
}

GroundTruth TruthCollector::truth() const {
  GroundTruth t;
  t.events = events_;
  t.start = first_time_ < 0 ? 0.0 : seconds(first_time_);
  t.end = final_time_ < 0 ? 0.0 : seconds(final_time_);
  for (const auto& region : header_.regions) t.regions.push_back(region.name);
  t.location_names = header_.location_names;
  t.messages = messages_;
  t.max_in_flight = max_in_flight_;
  t.max_depth = max_depth_;
  t.list_limit = list_limit_;
  t.late_sender_count = late_count_;
  t.late_sender_wait_total = late_total_;
  t.late_senders = late_;
  t.late_receiver_count = late_receiver_count_;
  t.late_receiver_wait_total = late_receiver_total_;
  t.late_receivers = late_receivers_;
  t.truncated.late_receivers = late_receiver_count_ > late_receivers_.size();
  t.out_of_order_count = ooo_count_;
  t.out_of_order_reports = ooo_reports_;
  t.out_of_order = ooo_;
  t.collectives = coll_instances_;
  t.imbalance_wait_total = imbalance_total_;
  t.imbalance = imbalance_;
  t.collective_patterns = patterns_;
  t.truncated.late_senders = late_count_ > late_.size();
  t.truncated.out_of_order = ooo_count_ > ooo_.size();
  t.truncated.imbalance = static_cast<std::uint64_t>(coll_instances_) > imbalance_.size();
  t.rma = rma_;
  t.truncated.fence_waits = static_cast<std::uint64_t>(rma_.fences) > rma_.fence_waits.size();
  t.truncated.lock_waits = rma_.lock_wait_count > rma_.lock_waits.size();
  t.bytes_received_per_location = bytes_received_;
  t.bytes_sent_per_location = bytes_sent_;
  frame_truth(t);
  t.waitall_late_receiver_count = waitall_lr_count_;
  t.waitall_late_receiver_total = waitall_lr_total_;
  t.waitall_late_receiver_by_location = waitall_lr_by_location_;
  t.region_time.resize(n_);
  for (int l = 0; l < n_; ++l)
    for (int r = 0; r < nregions_; ++r) {
      const RegionTime& rt = region_time_[static_cast<std::size_t>(l) * nregions_ + r];
      if (rt.count > 0) t.region_time[l].push_back({r, rt});
    }
  return t;
}

}  // namespace earl::gen
