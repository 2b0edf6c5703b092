#pragma once
// Late receivers (gen/generator.h, `late_receiver_rate` > 0): a process sends its first
// message (to its right neighbour, received first there) with MPI_Ssend, and the receiver
// enters that MPI_Recv late; the MPI_Ssend leaves only after that enter.
#include <cstdint>
#include <vector>

#include "gen/program_state.h"
#include "gen/round_plan.h"

namespace earl::gen {

class LateReceivers {
 public:
  explicit LateReceivers(int processes);

  // Which processes send with MPI_Ssend this round: drawn per process in order, never one
  // whose left or right neighbour already does (an Ssend's receiver sends all its messages
  // first, so no chain of Ssends waits around the ring); the receiver's delay before it
  // posts.
  void draw(ProgramState& state);

  bool sends_synchronously(int process) const { return ssender_[process] != 0; }

  // After every process' sends as far as they go: every late receiver enters the MPI_Recv
  // of its first message after its delay; then each MPI_Ssend leaves after its receive
  // was posted and its process sends the rest.
  void post_and_release(ProgramState& state, RoundPlan& plan);

  // Whether `process` entered its first MPI_Recv already (in post_and_release).
  bool entered_first_receive(int process) const { return posted_[process] >= 0; }

 private:
  void post_late_receives(ProgramState& state);
  void release_ssends(ProgramState& state, RoundPlan& plan);

  std::vector<char> ssender_;             // per process: sends its first message with MPI_Ssend
  std::vector<std::int64_t> recv_delay_;  // per process: delay before its first MPI_Recv (0: none)
  std::vector<std::int64_t> posted_;      // per process: when it entered that MPI_Recv (-1: not yet)
};

}  // namespace earl::gen
