#include "gen/thread_team.h"

#include <algorithm>

namespace earl::gen {

namespace {

// One worker thread's part: parallel around `kernels` kernels; returns when it left.
std::int64_t run_worker(ProgramState& s, int worker, std::int64_t fork_time, int kernels) {
  s.enter(worker, kParallel, std::max(s.clock[worker], fork_time) + s.rng.uniform(1, 3));
  for (int i = 0; i < kernels; ++i) {
    s.enter(worker, kKernel, s.after(worker, 1, 2));
    s.leave(worker, kKernel, s.clock[worker] + s.kernel_duration());
  }
  return s.leave(worker, kParallel, s.after(worker, 1, 2)).time;
}

}  // namespace

std::int64_t fork_team(ProgramState& state, int master, int kernels) {
  WriterEvent& fork = state.emit(master, WriterEventKind::Fork, -1, state.after(master, 1, 2));
  fork.tag = state.threads;
  const std::int64_t fork_time = fork.time;
  std::int64_t team_end = 0;
  for (int k = 1; k < state.threads; ++k)
    team_end = std::max(team_end, run_worker(state, master + k, fork_time, kernels));
  state.enter(master, kParallel, state.after(master, 1, 2));
  return team_end;
}

void join_team(ProgramState& state, int master, std::int64_t team_end) {
  state.leave(master, kParallel, state.after(master, 1, 2));
  state.emit(master, WriterEventKind::Join, -1, std::max(state.clock[master], team_end) + state.rng.uniform(1, 2))
      .tag = state.threads;
}

}  // namespace earl::gen
