#include "gen/program_frame.h"

#include <algorithm>

namespace earl::gen {

ProgramFrame::ProgramFrame(const GenOptions& options)
    : rng_(options.seed ^ 0xf4a3e0bd5c1e7a11ULL), enters_(options.locations, 0) {}

void ProgramFrame::begin(ProgramState& state) {
  for (int p = 0; p < state.processes; ++p) {
    const int l = state.master(p);
    const std::int64_t main_enter = state.after(l, 0, 3);
    // The program starts before main: the start-up Score-P records before main's enter.
    state.emit(l, WriterEventKind::ProgramBegin, -1, main_enter - rng_.uniform(5, 40));
    state.enter(l, kMain, main_enter);
  }
  synchronising_call(state, kMpiInit, 10, rng_.uniform(20, 60), 8);
}

void ProgramFrame::end(ProgramState& state) {
  synchronising_call(state, kMpiFinalize, 10, rng_.uniform(10, 40), 5);
  for (int p = 0; p < state.processes; ++p) {
    const int l = state.master(p);
    state.leave(l, kMain, state.after(l, 1, 5));
    state.emit(l, WriterEventKind::ProgramEnd, -1, state.clock[l] + rng_.uniform(3, 30));
  }
}

void ProgramFrame::synchronising_call(ProgramState& state, int region, std::int64_t gap, std::int64_t cost,
                                      std::int64_t spread) {
  for (int p = 0; p < state.processes; ++p) {
    const int l = state.master(p);
    enters_[p] = state.enter(l, region, state.clock[l] + rng_.uniform(1, gap)).time;
  }
  const std::int64_t latest = *std::max_element(enters_.begin(), enters_.end());
  for (int p = 0; p < state.processes; ++p)
    state.leave(state.master(p), region, latest + cost + rng_.uniform(0, spread));
}

}  // namespace earl::gen
