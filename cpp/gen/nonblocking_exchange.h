#pragma once
// The non-blocking exchange (gen/generator.h, `nonblocking`): MPI_Irecv for every message
// a process receives, MPI_Isend for every one it sends, then MPI_Waitall for the sends and
// every receive but the last, MPI_Wait for the last. A send completes in the MPI_Waitall
// only once its receive is posted (rendezvous), latency_us after the receiver's MPI_Irecv
// at the earliest.
#include <cstdint>
#include <vector>

#include "gen/program_state.h"
#include "gen/round_plan.h"

namespace earl::gen {

class NonblockingExchange {
 public:
  explicit NonblockingExchange(int processes);

  // `process`' MPI_Irecv calls (in receive order), then its MPI_Isend calls.
  void post(ProgramState& state, RoundPlan& plan, int process);

  // Its MPI_Waitall and MPI_Wait, each receive after its message arrived.
  void complete(ProgramState& state, const RoundPlan& plan, int process);

 private:
  void post_receive(ProgramState& state, int l, Message& m);
  void post_send(ProgramState& state, int l, Message& m);

  std::vector<std::int64_t> next_request_;  // per process: the next request id
};

}  // namespace earl::gen
