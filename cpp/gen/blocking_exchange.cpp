#include "gen/blocking_exchange.h"

#include "gen/message_events.h"

namespace earl::gen {

void enter_send_call(ProgramState& state, RoundPlan& plan, int process, std::size_t index, int region) {
  const int l = state.master(process);
  state.enter(l, region, state.after(l, 1, 2));
  emit_send(state, plan.messages[index]);
}

void send_blocking(ProgramState& state, RoundPlan& plan, int process, std::size_t first) {
  const int l = state.master(process);
  const std::vector<std::size_t>& outgoing = plan.outgoing[process];
  for (std::size_t i = first; i < outgoing.size(); ++i) {
    enter_send_call(state, plan, process, outgoing[i], kMpiSend);
    state.leave(l, kMpiSend, state.after(l, 1, 3) + state.copy_cost(plan.messages[outgoing[i]].len));
  }
}

void receive_blocking(ProgramState& state, const RoundPlan& plan, int process, bool first_entered) {
  const int l = state.master(process);
  const std::vector<std::size_t>& incoming = plan.incoming[process];
  for (std::size_t i = 0; i < incoming.size(); ++i) {
    if (i > 0 || !first_entered) state.enter(l, kMpiRecv, state.after(l, 1, 2));
    emit_receive(state, plan.messages[incoming[i]]);
    state.leave(l, kMpiRecv, state.after(l, 1, 3));
  }
}

}  // namespace earl::gen
