#pragma once
// What the analysis needs to know about a region: the metric its time belongs to (by MPI
// function name, since only OTF2 marks MPI regions) and the role of the call in the
// patterns. Names compare in MPI's spelling after normalising case ("MPI_Allreduce";
// "mpi_allreduce" and "PMPI_Allreduce" are the same function).
#include <string>

#include "analysis/metric_tree.h"

namespace earl::analysis {

enum class CallRole : std::uint8_t {
  None,
  Recv,         // MPI_Recv: completes its receive, posts it
  Sendrecv,     // completes its receive, posts it
  Wait,         // MPI_Wait, MPI_Waitany: each receive completed here counts
  WaitMany,     // MPI_Waitall, MPI_Waitsome: only the largest wait counts
  Test,         // MPI_Test*: receives completed here are skipped
  BlockingSend, // MPI_Send, MPI_Ssend (late receiver)
  NonBlockingSend,  // MPI_Isend, MPI_Issend: late receiver in the MPI_Wait/Waitany completing it
  Barrier,      // MPI_Barrier
  NxN,          // Allgather[v], Alltoall, Allreduce, Reduce_scatter[_block]
  OneToN,       // Bcast, Scatter[v]
  NToOne,       // Reduce, Gather[v]
  Scan,         // Scan, Exscan
  Init,         // MPI_Init, MPI_Init_thread (completion only: Scalasca judges no wait there)
  Finalize,     // MPI_Finalize
  WinFence,
  WinCreate,    // MPI_Win_create, MPI_Win_allocate[_shared], MPI_Win_create_dynamic
  WinFree,
  WinPost,      // active-target synchronisation: an exposure epoch from post to wait
  WinStart,     // an access epoch from start to complete
  WinComplete,
  WinWait,
  OtherCollective,  // collectives without a pattern (Alltoallv/w, non-blocking ones)
};

struct RegionClass {
  Metric metric = Metric::Comp;  // the most specific class metric of the region's time
  CallRole role = CallRole::None;
  bool is_mpi = false;
};

RegionClass classify_region(const std::string& name);

// True for roles whose calls are matched across locations.
inline bool is_collective(CallRole role) {
  return role == CallRole::Barrier || role == CallRole::NxN || role == CallRole::OneToN ||
         role == CallRole::NToOne || role == CallRole::Scan || role == CallRole::Init ||
         role == CallRole::Finalize ||
         role == CallRole::WinFence || role == CallRole::WinCreate || role == CallRole::WinFree ||
         role == CallRole::OtherCollective;
}

}  // namespace earl::analysis
