#include "gen/program_regions.h"

namespace earl::gen {

int region_id(const TraceHeader& header, const char* name) {
  for (std::size_t r = 0; r < header.regions.size(); ++r)
    if (header.regions[r].name == name) return static_cast<int>(r);
  return -1;
}

ProgramRegions find_program_regions(const TraceHeader& header) {
  ProgramRegions ids;
  ids.recursion = region_id(header, "recursion");
  ids.win_create = region_id(header, "MPI_Win_create");
  ids.win_fence = region_id(header, "MPI_Win_fence");
  ids.put = region_id(header, "MPI_Put");
  ids.win_free = region_id(header, "MPI_Win_free");
  ids.epoch_work = region_id(header, "epoch_work");
  ids.win_lock = region_id(header, "MPI_Win_lock");
  ids.win_unlock = region_id(header, "MPI_Win_unlock");
  ids.locked_work = region_id(header, "locked_work");
  ids.isend = region_id(header, "MPI_Isend");
  ids.irecv = region_id(header, "MPI_Irecv");
  ids.wait = region_id(header, "MPI_Wait");
  ids.waitall = region_id(header, "MPI_Waitall");
  ids.ssend = region_id(header, "MPI_Ssend");
  return ids;
}

}  // namespace earl::gen
