#pragma once
// One-sided fence epochs (gen/generator.h, `rma_every` > 0).
#include "gen/program_state.h"
#include "gen/window.h"

namespace earl::gen {

// The opening MPI_Win_fence, every process' puts to its right neighbour and its work
// (longer by the injected fence imbalance), the closing MPI_Win_fence.
void fence_epoch(ProgramState& state, Window& window);

}  // namespace earl::gen
