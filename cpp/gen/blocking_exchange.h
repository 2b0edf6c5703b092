#pragma once
// The blocking exchange (gen/generator.h): MPI_Send calls (MPI_Ssend for a late receiver's
// sender, gen/late_receivers.h), then MPI_Recv calls in receive order.
#include <cstddef>

#include "gen/program_state.h"
#include "gen/round_plan.h"

namespace earl::gen {

// The enter of a send call in `region` and its send event, of `process`' message `index`.
void enter_send_call(ProgramState& state, RoundPlan& plan, int process, std::size_t index, int region);

// `process`' MPI_Send calls, from its `first` outgoing message on.
void send_blocking(ProgramState& state, RoundPlan& plan, int process, std::size_t first);

// `process`' MPI_Recv calls; `first_entered`: a late receiver entered the first already.
void receive_blocking(ProgramState& state, const RoundPlan& plan, int process, bool first_entered);

}  // namespace earl::gen
