#include "gen/compute_phase.h"

#include "gen/thread_team.h"

namespace earl::gen {

namespace {

void run_kernels(ProgramState& s, int l, const LocationPlan& plan) {
  for (int k = 0; k < plan.kernels; ++k) {
    s.enter(l, kKernel, s.after(l, 1, 2));
    std::int64_t duration = s.kernel_duration();
    if (k == plan.kernels - 1) duration += plan.late_delay;
    s.leave(l, kKernel, s.clock[l] + duration);
  }
}

}  // namespace

void compute_phase(ProgramState& state, int process, const LocationPlan& plan) {
  const int l = state.master(process);
  const bool team = state.threads > 1;
  state.enter(l, kStep, state.after(l, 1, 3));
  state.enter(l, kCompute, state.after(l, 1, 2));
  const std::int64_t team_end = team ? fork_team(state, l, plan.kernels) : 0;
  for (std::int64_t level = 0; level < state.options.depth; ++level)
    state.enter(l, state.regions.recursion, state.after(l, 1, 2));
  run_kernels(state, l, plan);
  for (std::int64_t level = 0; level < state.options.depth; ++level)
    state.leave(l, state.regions.recursion, state.after(l, 1, 2));
  if (team) join_team(state, l, team_end);
  state.leave(l, kCompute, state.after(l, 1, 2));
}

void update_phase(ProgramState& state, int process, const LocationPlan& plan) {
  const int l = state.master(process);
  state.enter(l, kUpdate, state.after(l, 1, 2));
  state.leave(l, kUpdate, state.clock[l] + state.update_duration() + plan.imbalance);
  state.leave(l, kStep, state.after(l, 1, 2));
}

}  // namespace earl::gen
