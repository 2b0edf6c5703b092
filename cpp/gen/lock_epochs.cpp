#include "gen/lock_epochs.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace earl::gen {

namespace {

// A lock event of location `l` on `target`'s window (exclusive); returns its time.
std::int64_t lock_event(ProgramState& s, int l, int target, WriterEventKind kind, std::int64_t time) {
  WriterEvent& e = s.emit(l, kind, -1, time);
  e.peer = s.master(target);
  e.tag = 1;  // exclusive
  return e.time;
}

// One epoch of `process`, requested at `request`, acquired after `released`; returns when it
// released the lock.
std::int64_t lock_epoch(ProgramState& s, Window& window, int process, int target, std::int64_t request,
                        std::int64_t released) {
  const GenOptions& o = s.options;
  const ProgramRegions& regions = s.regions;
  const int l = s.master(process);
  s.enter(l, regions.win_lock, request);
  lock_event(s, l, target, WriterEventKind::RmaLockRequest, s.clock[l] + 1);
  lock_event(s, l, target, WriterEventKind::RmaLockAcquire, std::max(s.clock[l], released) + s.rng.uniform(1, 2));
  s.leave(l, regions.win_lock, s.after(l, 1, 2));
  window.put(s, process, target);
  const std::int64_t extra = s.injected_delay(o.lock_hold_rate, o.lock_hold_us);
  s.summary.injected_lock_hold += extra > 0;
  s.enter(l, regions.locked_work, s.after(l, 1, 2));
  s.leave(l, regions.locked_work, s.clock[l] + s.update_duration() + extra);
  s.enter(l, regions.win_unlock, s.after(l, 1, 2));
  const std::int64_t release = lock_event(s, l, target, WriterEventKind::RmaLockRelease, s.after(l, 1, 2));
  s.leave(l, regions.win_unlock, s.after(l, 1, 2));
  return release;
}

}  // namespace

void LockEpochs::run(ProgramState& state, Window& window) {
  const int target = static_cast<int>(phases_++ % static_cast<std::uint64_t>(state.processes));
  std::vector<std::pair<std::int64_t, int>> requests;
  for (int p = 0; p < state.processes; ++p) requests.push_back({state.after(state.master(p), 1, 3), p});
  std::sort(requests.begin(), requests.end());
  std::int64_t released = 0;
  for (const auto& [request, process] : requests)
    released = lock_epoch(state, window, process, target, request, released);
}

}  // namespace earl::gen
