#pragma once
// The one-sided window (gen/generator.h, `rma_every` or `lock_every` > 0): the master
// threads' collective window calls and their puts.
#include <cstdint>
#include <vector>

#include "gen/program_state.h"

namespace earl::gen {

class Window {
 public:
  explicit Window(int processes);

  // One collective call on the window (MPI_Win_create, MPI_Win_fence or MPI_Win_free) by
  // every master thread: each enters when it is ready, all leave together after the last
  // one entered.
  void collective_call(ProgramState& state, int region);

  // One MPI_Put of `process` to `target`, completed inside the call.
  void put(ProgramState& state, int process, int target);

 private:
  std::vector<std::int64_t> enters_;   // per process: its enter of the current call
  std::vector<std::int32_t> put_ids_;  // per process: the next put's matching id
};

}  // namespace earl::gen
