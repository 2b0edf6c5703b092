#include "gen/window.h"

#include <algorithm>

namespace earl::gen {

Window::Window(int processes) : enters_(processes, 0), put_ids_(processes, 0) {}

void Window::collective_call(ProgramState& state, int region) {
  for (int p = 0; p < state.processes; ++p) {
    const int l = state.master(p);
    WriterEvent& e = state.enter(l, region, state.after(l, 1, 3));
    e.flags = kWriterRmaCollective;
    enters_[p] = e.time;
  }
  const std::int64_t latest = *std::max_element(enters_.begin(), enters_.end());
  const std::int64_t cost = state.rng.uniform(2, 6);
  for (int p = 0; p < state.processes; ++p)
    state.leave(state.master(p), region, latest + cost).flags = kWriterRmaCollective;
}

void Window::put(ProgramState& state, int process, int target) {
  const int l = state.master(process);
  const int region = state.regions.put;
  state.enter(l, region, state.after(l, 1, 2));
  const std::int64_t len = state.message_length();
  WriterEvent& e = state.emit(l, WriterEventKind::RmaPut, -1, state.clock[l] + 1);
  e.peer = state.master(target);
  e.len = len;
  e.tag = put_ids_[process];
  state.emit(l, WriterEventKind::RmaPutComplete, -1, state.after(l, 1, 2) + state.copy_cost(len)).tag =
      put_ids_[process]++;
  state.leave(l, region, state.after(l, 1, 2));
}

}  // namespace earl::gen
