#pragma once
// The local work of a process' step (gen/generator.h): the compute phase before its
// exchange and the update after it.
#include "gen/program_state.h"
#include "gen/round_plan.h"

namespace earl::gen {

// The master thread of `process` enters the round's step and runs its compute phase: (its
// team's fork,) the recursion levels, its kernels (the last one longer by a late sender's
// delay), (the join); ends when it left compute.
void compute_phase(ProgramState& state, int process, const LocationPlan& plan);

// Its update (longer by the injected imbalance) and the end of its step.
void update_phase(ProgramState& state, int process, const LocationPlan& plan);

}  // namespace earl::gen
