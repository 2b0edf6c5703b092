#pragma once
// Passive-target lock epochs (gen/generator.h, `lock_every` > 0) on the window.
#include <cstdint>

#include "gen/program_state.h"
#include "gen/window.h"

namespace earl::gen {

class LockEpochs {
 public:
  // Every process locks the window at this phase's target (the next process each time)
  // exclusively, puts to it, works (longer by the injected hold) and unlocks. The lock goes
  // to the requesters in order of request (ties: lower process first), each when the
  // previous holder has released it.
  void run(ProgramState& state, Window& window);

 private:
  std::uint64_t phases_ = 0;
};

}  // namespace earl::gen
