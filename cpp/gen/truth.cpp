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
  is_collective_.assign(nregions_, 0);
  region_kind_.assign(nregions_, nullptr);
  for (int r : collectives_)
    if (r >= 0 && r < nregions_) is_collective_[r] = 1;
  for (int r = 0; r < nregions_; ++r)
    if (const CollectiveKind* kind = collective_kind_of_region(header.regions[r].name)) {
      region_kind_[r] = kind;
      is_collective_[r] = 1;
    }
  completed_.assign(n_, {});
  for (int r = 0; r < nregions_; ++r) {
    const std::string& name = header.regions[r].name;
    if (name == "MPI_Isend") isend_region_ = r;
    if (name == "MPI_Wait") wait_region_ = r;
    if (name == "MPI_Waitall") waitall_region_ = r;
    if (name == "MPI_Ssend") ssend_region_ = r;
  }
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
  for (int r = 0; r < nregions_ && header.rma_window; ++r) {
    const std::string& name = header.regions[r].name;
    int* id = name == "MPI_Win_create" ? &win_create_
              : name == "MPI_Win_fence" ? &win_fence_
              : name == "MPI_Win_free"  ? &win_free_
                                        : nullptr;
    if (!id) continue;
    *id = r;
    is_collective_[r] = 1;
  }
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

void TruthCollector::window_lock(const WriterEvent& e, const std::vector<Frame>& stack) {
  if (!rma_.window) fail("window lock without the header's window");
  if (e.peer < 0 || e.peer >= n_) fail("lock target out of range");
  if (e.kind == WriterEventKind::RmaLockRequest) return;
  if (e.kind == WriterEventKind::RmaLockRelease) {
    if (lock_held_[e.loc] != e.peer) fail("release of a lock not held");
    lock_held_[e.loc] = -1;
    lock_released_[e.peer] = std::max(lock_released_[e.peer], e.time);
    return;
  }
  if (e.tag != 1) fail("shared locks are not modelled");
  if (lock_held_[e.loc] >= 0) fail("lock acquired while holding one");
  if (stack.empty()) fail("lock acquired outside a call");
  lock_held_[e.loc] = e.peer;
  ++rma_.locks;
  const std::int64_t blocker = lock_released_[e.peer];
  if (blocker < 0) return;
  const std::int64_t requested = stack.back().enter;
  const double wait = seconds(std::min(blocker, e.time)) - seconds(requested);
  if (wait <= 0) return;
  rma_.lock_wait_total += wait;
  ++rma_.lock_wait_count;
  if (static_cast<std::int64_t>(rma_.lock_waits.size()) < list_limit_)
    rma_.lock_waits.push_back({e.loc, e.peer, seconds(requested), seconds(e.time), wait});
}

void TruthCollector::add_pattern(const char* metric, int process, double wait) {
  if (!(wait > 0)) return;
  auto it = std::find_if(patterns_.begin(), patterns_.end(),
                         [metric](const PatternTotal& p) { return p.metric == metric; });
  if (it == patterns_.end()) {
    patterns_.push_back({metric, 0.0, 0, std::vector<double>(processes_, 0.0)});
    it = patterns_.end() - 1;
  }
  it->total += wait;
  ++it->count;
  it->by_process[process] += wait;
}

// Scalasca's formulas on one MPI collective instance (L = latest begin, E = earliest end;
// the calls' enter and leave bound the operation, as the generator writes them):
// Barrier/NxN: wait min(L, end) - begin, completion end - max(E, min(L, end)); 1-to-N:
// non-roots min(root begin, end) - begin; N-to-1: the root min(latest non-root begin, end)
// - begin; Scan: rank r min(latest begin of ranks 0..r, end) - begin. Waits <= 0 are 0.
void TruthCollector::judge_collective(CollectiveWait& instance) {
  const CollectiveKind& kind = *region_kind_[coll_region_];
  auto s = [](std::int64_t us) { return seconds(us); };
  auto positive = [](double x) { return x > 0 ? x : 0.0; };
  const std::int64_t latest = *std::max_element(coll_enter_.begin(), coll_enter_.end());
  const std::int64_t earliest_end = *std::min_element(coll_leave_.begin(), coll_leave_.end());
  std::vector<double>& waits = instance.waits;
  waits.assign(processes_, 0.0);
  instance.root = is_rooted(kind.shape) ? coll_root_ : -1;
  if (is_rooted(kind.shape) && (coll_root_ < 0 || coll_root_ >= processes_)) fail("rooted collective without a root");
  switch (kind.shape) {
    case CollectiveShape::Barrier:
    case CollectiveShape::NxN:
      instance.completion.assign(processes_, 0.0);
      for (int p = 0; p < processes_; ++p) {
        const std::int64_t lc = std::min(latest, coll_leave_[p]);
        waits[p] = positive(s(lc) - s(coll_enter_[p]));
        instance.completion[p] = positive(s(coll_leave_[p]) - s(std::max(earliest_end, lc)));
      }
      break;
    case CollectiveShape::OneToN:
      for (int p = 0; p < processes_; ++p)
        if (p != coll_root_) waits[p] = positive(s(std::min(coll_enter_[coll_root_], coll_leave_[p])) - s(coll_enter_[p]));
      break;
    case CollectiveShape::NToOne: {
      std::int64_t senders = coll_enter_[coll_root_];
      for (int p = 0; p < processes_; ++p)
        if (p != coll_root_) senders = std::max(senders, coll_enter_[p]);
      waits[coll_root_] = positive(s(std::min(senders, coll_leave_[coll_root_])) - s(coll_enter_[coll_root_]));
      break;
    }
    case CollectiveShape::Scan: {
      std::int64_t running = -1;
      for (int rank = 0; rank < processes_; ++rank) {
        const int p = header_.rank_process.empty() ? rank : header_.rank_process[rank];
        running = std::max(running, coll_enter_[p]);
        waits[p] = positive(s(std::min(running, coll_leave_[p])) - s(coll_enter_[p]));
      }
      break;
    }
  }
  for (int p = 0; p < processes_; ++p) {
    imbalance_total_ += waits[p];
    add_pattern(kind.wait_metric, p, waits[p]);
    if (kind.completion_metric) add_pattern(kind.completion_metric, p, instance.completion[p]);
  }
}

// The last process entered a window call, or left an MPI collective: the instance's waits
// go to the imbalance before collectives or to the window's synchronisation.
void TruthCollector::instance_complete() {
  const std::int64_t latest = *std::max_element(coll_enter_.begin(), coll_enter_.end());
  const bool window = coll_region_ == win_create_ || coll_region_ == win_fence_ || coll_region_ == win_free_;
  CollectiveWait instance{window ? rma_.fences : coll_instances_, coll_region_, seconds(latest), {}, -1, {}};
  if (window) {
    instance.waits.reserve(processes_);
    for (int l = 0; l < processes_; ++l) {
      const double wait = seconds(latest) - seconds(coll_enter_[l]);
      if (coll_region_ == win_fence_) rma_.fence_wait_total += wait;
      instance.waits.push_back(wait);
    }
  } else {
    judge_collective(instance);
  }
  if (coll_region_ == win_create_) {
    rma_.create_waits = std::move(instance.waits);
  } else if (coll_region_ == win_free_) {
    rma_.free_waits = std::move(instance.waits);
  } else if (window) {
    if (static_cast<std::int64_t>(rma_.fence_waits.size()) < list_limit_)
      rma_.fence_waits.push_back(std::move(instance));
    ++rma_.fences;
  } else {
    if (static_cast<std::int64_t>(imbalance_.size()) < list_limit_)
      imbalance_.push_back(std::move(instance));
    ++coll_instances_;
  }
  coll_pending_ = 0;
  coll_left_ = 0;
  coll_root_ = -1;
  std::fill(coll_enter_.begin(), coll_enter_.end(), -1);
  std::fill(coll_leave_.begin(), coll_leave_.end(), -1);
}

void TruthCollector::write(const WriterEvent* events, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    const WriterEvent& e = events[i];
    if (e.loc < 0 || e.loc >= n_) fail("location out of range");
    if (e.time <= last_time_[e.loc]) fail("times not strictly increasing on a location");
    if (e.time < final_time_) fail("times decrease in output order");
    last_time_[e.loc] = e.time;
    if (first_time_ < 0) first_time_ = e.time;
    final_time_ = e.time;
    // The events every format holds (ALOG has no one-sided or request records; OTF2 adds them).
    events_ += e.kind != WriterEventKind::RmaPut && e.kind != WriterEventKind::RmaPutComplete &&
               e.kind != WriterEventKind::IrecvRequest && e.kind != WriterEventKind::IsendComplete &&
               e.kind != WriterEventKind::RmaLockRequest && e.kind != WriterEventKind::RmaLockAcquire &&
               e.kind != WriterEventKind::RmaLockRelease;
    auto& stack = stacks_[e.loc];
    switch (e.kind) {
      case WriterEventKind::Enter: {
        if (e.region < 0 || e.region >= nregions_) fail("region out of range");
        stack.push_back({e.region, e.time});
        max_depth_ = std::max<std::uint64_t>(max_depth_, stack.size());
        if (is_collective_[e.region]) {
          // Collectives involve the master threads, one per process.
          if (e.loc % threads_ != 0) fail("collective on a location that is no master thread");
          const int p = e.loc / threads_;
          if (coll_enter_[p] >= 0) fail("collective entered twice");
          if (coll_pending_ == 0) coll_region_ = e.region;
          coll_enter_[p] = e.time;
          if (coll_region_ != e.region) fail("collective instance of mixed regions");
          if (++coll_pending_ == processes_ && !region_kind_[e.region]) instance_complete();
        }
        break;
      }
      case WriterEventKind::Exit: {
        if (stack.empty() || stack.back().region != e.region) fail("exit does not match enter");
        const Frame frame = stack.back();
        stack.pop_back();
        if (frame.send >= 0) {
          // A blocking send call ends: judged now if its receive was posted, else then.
          auto posted = send_posted_.find(frame.send);
          if (posted != send_posted_.end()) {
            late_receiver(e.loc, posted->second, frame.enter, e.time);
            send_posted_.erase(posted);
          } else {
            send_left_[frame.send] = e.time;
          }
        }
        if (region_kind_[e.region]) {
          // An MPI collective is judged when the last process left it.
          const int p = e.loc / threads_;
          if (coll_region_ != e.region || coll_enter_[p] < 0 || coll_leave_[p] >= 0) fail("collective exit out of place");
          coll_leave_[p] = e.time;
          if (e.peer >= 0) coll_root_ = e.peer / threads_;
          if (++coll_left_ == processes_) instance_complete();
        }
        // Seed 004 section 9: incl/excl += diff; the caller's excl -= diff.
        const double diff = seconds(e.time) - seconds(frame.enter);
        if (e.region == wait_region_ || e.region == waitall_region_) {
          // Scalasca: min(enter of the send's call, leave of the wait) - enter of the wait;
          // MPI_Waitall only the largest of its receives.
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
        }
        RegionTime& rt = region_time_[static_cast<std::size_t>(e.loc) * nregions_ + e.region];
        rt.incl += diff;
        rt.excl += diff;
        ++rt.count;
        if (!stack.empty())
          region_time_[static_cast<std::size_t>(e.loc) * nregions_ + stack.back().region].excl -= diff;
        break;
      }
      case WriterEventKind::Send: {
        if (e.peer < 0 || e.peer >= n_) fail("send destination out of range");
        const int region = stack.empty() ? -1 : stack.back().region;
        const std::int64_t enter = stack.empty() ? 0 : stack.back().enter;
        const bool blocking = region >= 0 && (region == send_region_ || region == ssend_region_);
        if (blocking) stack.back().send = sends_;
        in_flight_[e.peer].push_back({e.loc, e.tag, region, enter, blocking ? sends_ : -1});
        ++sends_;
        bytes_sent_[e.loc] += e.len;
        ++messages_;
        max_in_flight_ = std::max(max_in_flight_, messages_ - receives_);
        break;
      }
      case WriterEventKind::Recv: {
        if (e.peer < 0 || e.peer >= n_) fail("receive source out of range");
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
        bytes_received_[e.loc] += e.len;
        ++receives_;
        // Seed 004 section 8: every older unreceived message from the same source.
        if (older > 0) {
          ++ooo_count_;
          ooo_reports_ += older;
          if (static_cast<std::int64_t>(ooo_.size()) < list_limit_)
            ooo_.push_back({e.peer, e.loc, oldest_tag, e.tag, seconds(e.time)});
        }
        // Seed 004 section 7: MPI_Send (or MPI_Ssend) enter - MPI_Recv enter, when positive.
        const bool blocking_send = sent.send_region == send_region_ || (ssend_region_ >= 0 && sent.send_region == ssend_region_);
        if (!stack.empty() && stack.back().region == recv_region_ && blocking_send) {
          const double wait = seconds(sent.send_enter) - seconds(stack.back().enter);
          if (wait > 0) late_sender(e.peer, e.loc, e.tag, sent.send_enter, stack.back().enter, wait);
        }
        // Late receiver: a blocking send's call still running when MPI_Recv was entered.
        if (sent.number >= 0) {
          auto left = send_left_.find(sent.number);
          const bool posted = !stack.empty() && stack.back().region == recv_region_;
          const Posted post{e.loc, e.tag, posted ? stack.back().enter : 0};
          if (left != send_left_.end()) {
            if (posted) late_receiver(e.peer, post, sent.send_enter, left->second);
            send_left_.erase(left);
          } else if (posted) {
            send_posted_[sent.number] = post;
          }
        }
        // Completed in MPI_Wait/MPI_Waitall: judged when the wait ends.
        if (!stack.empty() && (stack.back().region == wait_region_ || stack.back().region == waitall_region_) &&
            (sent.send_region == send_region_ || sent.send_region == isend_region_))
          completed_[e.loc].push_back({e.peer, e.tag, sent.send_enter});
        break;
      }
      case WriterEventKind::RmaPut:
        if (!rma_.window) fail("put without the header's window");
        ++rma_.puts;
        rma_.put_bytes += e.len;
        break;
      case WriterEventKind::RmaLockRequest:
      case WriterEventKind::RmaLockAcquire:
      case WriterEventKind::RmaLockRelease:
        window_lock(e, stack);
        break;
      case WriterEventKind::RmaPutComplete:
      case WriterEventKind::IrecvRequest:
      case WriterEventKind::IsendComplete:
      case WriterEventKind::Fork:
      case WriterEventKind::Join:
        break;  // no part of any ground-truth figure
    }
  }
}

void TruthCollector::finish() {
  for (int l = 0; l < n_; ++l) {
    if (!stacks_[l].empty()) fail("region instances left open");
    if (!in_flight_[l].empty()) fail("messages left unreceived");
    if (lock_held_[l] >= 0) fail("window lock left held");
  }
  if (coll_pending_ != 0) fail("collective instance incomplete");
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
  t.region_time.resize(n_);
  for (int l = 0; l < n_; ++l)
    for (int r = 0; r < nregions_; ++r) {
      const RegionTime& rt = region_time_[static_cast<std::size_t>(l) * nregions_ + r];
      if (rt.count > 0) t.region_time[l].push_back({r, rt});
    }
  return t;
}

}  // namespace earl::gen
