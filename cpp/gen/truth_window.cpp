// The ground truth of the one-sided records (gen/truth.h): puts and passive-target lock
// competition on the window.
#include <algorithm>

#include "gen/truth.h"

namespace earl::gen {

void TruthCollector::on_put(const WriterEvent& e) {
  if (!rma_.window) fail("put without the header's window");
  ++rma_.puts;
  rma_.put_bytes += e.len;
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

}  // namespace earl::gen
