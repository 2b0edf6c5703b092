#include "gen/fence_epoch.h"

namespace earl::gen {

namespace {

void puts_and_work(ProgramState& s, Window& window, int process) {
  const GenOptions& o = s.options;
  const int l = s.master(process);
  for (int k = 0; k < o.rma_puts; ++k) window.put(s, process, s.right_of(process));
  const std::int64_t extra = s.injected_delay(o.fence_imbalance_rate, o.fence_imbalance_us);
  s.summary.injected_fence_imbalance += extra > 0;
  s.enter(l, s.regions.epoch_work, s.after(l, 1, 2));
  s.leave(l, s.regions.epoch_work, s.clock[l] + s.update_duration() + extra);
}

}  // namespace

void fence_epoch(ProgramState& state, Window& window) {
  window.collective_call(state, state.regions.win_fence);
  for (int p = 0; p < state.processes; ++p) puts_and_work(state, window, p);
  window.collective_call(state, state.regions.win_fence);
}

}  // namespace earl::gen
