#pragma once
// What writers need to know about MPI regions by name: whether a region is an MPI
// point-to-point or collective operation, and which collective. The collective numbers are
// those of OTF2's OTF2_CollectiveOp (OTF2_Events.h), so writers without libotf2 can share
// the table.
#include <string>

namespace earl {

enum class MpiRole { None, PointToPoint, Barrier, OneToAll, AllToOne, AllToAll, OtherCollective };

struct MpiRegionInfo {
  MpiRole role = MpiRole::None;
  int collective_op = -1;  // OTF2_CollectiveOp value; -1 for no collective
};

// By the region's name ("MPI_Allreduce" -> all-to-all, op 11). Names not listed: None.
MpiRegionInfo mpi_region_info(const std::string& name);

}  // namespace earl
