#pragma once
// Threads (gen/generator.h, `threads` > 1): the fork/join team of a compute phase.
#include <cstdint>

#include "gen/program_state.h"

namespace earl::gen {

// The master thread `master` forks its team; every other thread of the process enters
// region parallel after the fork, runs `kernels` kernels and leaves; then the master enters
// parallel itself (its kernels follow in the caller). Returns when the last of the others
// left parallel.
std::int64_t fork_team(ProgramState& state, int master, int kernels);

// The master leaves parallel and joins its team, after `team_end`.
void join_team(ProgramState& state, int master, std::int64_t team_end);

}  // namespace earl::gen
