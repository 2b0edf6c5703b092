// The ground truth of the collective operations (gen/truth.h): MPI collectives judged by
// Scalasca's formulas of their kind, the window's synchronisations (create, fence, free)
// by latest enter - own enter.
#include <algorithm>

#include "gen/truth.h"

namespace earl::gen {

namespace {

double positive(double x) { return x > 0 ? x : 0.0; }

}  // namespace

// Collectives involve the master threads, one per process. A window call's instance is
// complete when the last process entered; an MPI collective's when the last one left.
void TruthCollector::enter_collective(const WriterEvent& e) {
  if (e.loc % threads_ != 0) fail("collective on a location that is no master thread");
  const int p = e.loc / threads_;
  if (coll_enter_[p] >= 0) fail("collective entered twice");
  if (coll_pending_ == 0) coll_region_ = e.region;
  coll_enter_[p] = e.time;
  if (coll_region_ != e.region) fail("collective instance of mixed regions");
  if (++coll_pending_ == processes_ && !region_kind_[e.region]) instance_complete();
}

void TruthCollector::leave_collective(const WriterEvent& e) {
  const int p = e.loc / threads_;
  if (coll_region_ != e.region || coll_enter_[p] < 0 || coll_leave_[p] >= 0) fail("collective exit out of place");
  coll_leave_[p] = e.time;
  if (e.peer >= 0) coll_root_ = e.peer / threads_;
  if (++coll_left_ == processes_) instance_complete();
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
  instance.waits.assign(processes_, 0.0);
  instance.root = is_rooted(kind.shape) ? coll_root_ : -1;
  if (is_rooted(kind.shape) && (coll_root_ < 0 || coll_root_ >= processes_)) fail("rooted collective without a root");
  switch (kind.shape) {
    case CollectiveShape::Barrier:
    case CollectiveShape::NxN: synchronising_waits(instance); break;
    case CollectiveShape::OneToN: late_broadcast_waits(instance.waits); break;
    case CollectiveShape::NToOne: early_reduce_wait(instance.waits); break;
    case CollectiveShape::Scan: early_scan_waits(instance.waits); break;
  }
  for (int p = 0; p < processes_; ++p) {
    imbalance_total_ += instance.waits[p];
    add_pattern(kind.wait_metric, p, instance.waits[p]);
    if (kind.completion_metric) add_pattern(kind.completion_metric, p, instance.completion[p]);
  }
}

void TruthCollector::synchronising_waits(CollectiveWait& instance) const {
  const std::int64_t latest = *std::max_element(coll_enter_.begin(), coll_enter_.end());
  const std::int64_t earliest_end = *std::min_element(coll_leave_.begin(), coll_leave_.end());
  instance.completion.assign(processes_, 0.0);
  for (int p = 0; p < processes_; ++p) {
    const std::int64_t lc = std::min(latest, coll_leave_[p]);
    instance.waits[p] = positive(seconds(lc) - seconds(coll_enter_[p]));
    instance.completion[p] = positive(seconds(coll_leave_[p]) - seconds(std::max(earliest_end, lc)));
  }
}

void TruthCollector::late_broadcast_waits(std::vector<double>& waits) const {
  for (int p = 0; p < processes_; ++p)
    if (p != coll_root_)
      waits[p] = positive(seconds(std::min(coll_enter_[coll_root_], coll_leave_[p])) - seconds(coll_enter_[p]));
}

void TruthCollector::early_reduce_wait(std::vector<double>& waits) const {
  std::int64_t senders = coll_enter_[coll_root_];
  for (int p = 0; p < processes_; ++p)
    if (p != coll_root_) senders = std::max(senders, coll_enter_[p]);
  waits[coll_root_] = positive(seconds(std::min(senders, coll_leave_[coll_root_])) - seconds(coll_enter_[coll_root_]));
}

void TruthCollector::early_scan_waits(std::vector<double>& waits) const {
  std::int64_t running = -1;
  for (int rank = 0; rank < processes_; ++rank) {
    const int p = header_.rank_process.empty() ? rank : header_.rank_process[rank];
    running = std::max(running, coll_enter_[p]);
    waits[p] = positive(seconds(std::min(running, coll_leave_[p])) - seconds(coll_enter_[p]));
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

}  // namespace earl::gen
