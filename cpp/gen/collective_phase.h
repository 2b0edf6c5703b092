#pragma once
// The collective that ends every round (gen/generator.h): MPI_Allreduce, every
// barrier_every-th round MPI_Barrier; with `collectives` the kinds listed, in turn
// (gen/collective_kinds.h). Every process enters when its step is done; who leaves when
// follows the kind's shape.
#include <cstdint>
#include <vector>

#include "gen/collective_kinds.h"
#include "gen/program_state.h"

namespace earl::gen {

struct RoundCollective {
  const CollectiveKind* kind;  // nullptr: MPI_Allreduce or MPI_Barrier without `collectives`
  int region;
};

class CollectivePhase {
 public:
  // `header`: the run's regions and MPI_COMM_WORLD's ranks.
  CollectivePhase(const GenOptions& options, const TraceHeader& header);

  RoundCollective of_round(std::uint64_t round) const;

  // The master thread of `process` enters the collective.
  void enter(ProgramState& state, int process, const RoundCollective& collective);

  // Every process leaves it; the next round starts after the last one left.
  void leave(ProgramState& state, const RoundCollective& collective, std::uint64_t round);

 private:
  void leave_together(ProgramState& state, int region);
  void leave_by_kind(ProgramState& state, const CollectiveKind& kind, int region, std::uint64_t round);
  void compute_leave_times(const CollectiveKind& kind, int root, std::int64_t cost);

  int barrier_every_;
  std::vector<const CollectiveKind*> kinds_;  // `collectives`, cycled per round
  std::vector<int> kind_regions_;             // their region ids
  std::vector<int> rank_process_;             // MPI_COMM_WORLD rank -> process
  std::vector<std::int64_t> enters_, leaves_;  // per process, this round
};

}  // namespace earl::gen
