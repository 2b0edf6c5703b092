#include "gen/nonblocking_exchange.h"

#include <algorithm>

#include "gen/message_events.h"

namespace earl::gen {

NonblockingExchange::NonblockingExchange(int processes) : next_request_(processes, 0) {}

void NonblockingExchange::post_receive(ProgramState& state, int l, Message& m) {
  const ProgramRegions& regions = state.regions;
  m.recv_posted = state.enter(l, regions.irecv, state.after(l, 1, 2)).time;
  m.recv_request = next_request_[m.dest]++;
  state.emit(l, WriterEventKind::IrecvRequest, -1, state.clock[l] + 1).request = m.recv_request;
  state.leave(l, regions.irecv, state.after(l, 1, 2));
}

void NonblockingExchange::post_send(ProgramState& state, int l, Message& m) {
  const ProgramRegions& regions = state.regions;
  state.enter(l, regions.isend, state.after(l, 1, 2));
  m.send_request = next_request_[m.src]++;
  emit_send(state, m).request = m.send_request;
  state.leave(l, regions.isend, state.after(l, 1, 3) + state.copy_cost(m.len));
}

void NonblockingExchange::post(ProgramState& state, RoundPlan& plan, int process) {
  const int l = state.master(process);
  for (std::size_t index : plan.incoming[process]) post_receive(state, l, plan.messages[index]);
  for (std::size_t index : plan.outgoing[process]) post_send(state, l, plan.messages[index]);
}

void NonblockingExchange::complete(ProgramState& state, const RoundPlan& plan, int process) {
  const ProgramRegions& regions = state.regions;
  const int l = state.master(process);
  const std::vector<std::size_t>& incoming = plan.incoming[process];
  auto receive = [&](std::size_t index) {
    const Message& m = plan.messages[index];
    emit_receive(state, m).request = m.recv_request;
  };
  state.enter(l, regions.waitall, state.after(l, 1, 2));
  // A send completes once its receive is posted (rendezvous): a receiver that posts late
  // keeps the sender in MPI_Waitall (Scalasca's Late Receiver there).
  for (std::size_t index : plan.outgoing[process]) {
    const Message& m = plan.messages[index];
    const std::int64_t done = std::max(state.after(l, 1, 2), m.recv_posted + state.options.latency_us);
    state.emit(l, WriterEventKind::IsendComplete, -1, done).request = m.send_request;
  }
  for (std::size_t i = 0; i + 1 < incoming.size(); ++i) receive(incoming[i]);
  state.leave(l, regions.waitall, state.after(l, 1, 3));
  state.enter(l, regions.wait, state.after(l, 1, 2));
  receive(incoming.back());
  state.leave(l, regions.wait, state.after(l, 1, 3));
}

}  // namespace earl::gen
