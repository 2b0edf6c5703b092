#pragma once
// The send and receive events of a message, shared by the blocking and non-blocking
// exchanges (gen/blocking_exchange.h, gen/nonblocking_exchange.h).
#include "gen/program_state.h"
#include "gen/round_plan.h"

namespace earl::gen {

// The send event of message `m` on its source's master thread; records its time in `m`.
WriterEvent& emit_send(ProgramState& state, Message& m);

// The receive event of message `m` on its destination's master thread: not before the
// message arrived.
WriterEvent& emit_receive(ProgramState& state, const Message& m);

}  // namespace earl::gen
