#include "formats/otf2/otf2_mpi_regions.h"

#include <unordered_map>

namespace earl {

MpiRegionInfo mpi_region_info(const std::string& name) {
  using R = MpiRole;
  // Collective numbers: OTF2_COLLECTIVE_OP_* of OTF2 3.x.
  static const std::unordered_map<std::string, MpiRegionInfo> table = {
      {"MPI_Barrier", {R::Barrier, 0}},
      {"MPI_Bcast", {R::OneToAll, 1}},
      {"MPI_Gather", {R::AllToOne, 2}},
      {"MPI_Gatherv", {R::AllToOne, 3}},
      {"MPI_Scatter", {R::OneToAll, 4}},
      {"MPI_Scatterv", {R::OneToAll, 5}},
      {"MPI_Allgather", {R::AllToAll, 6}},
      {"MPI_Allgatherv", {R::AllToAll, 7}},
      {"MPI_Alltoall", {R::AllToAll, 8}},
      {"MPI_Alltoallv", {R::AllToAll, 9}},
      {"MPI_Alltoallw", {R::AllToAll, 10}},
      {"MPI_Allreduce", {R::AllToAll, 11}},
      {"MPI_Reduce", {R::AllToOne, 12}},
      {"MPI_Reduce_scatter", {R::AllToAll, 13}},
      {"MPI_Scan", {R::OtherCollective, 14}},
      {"MPI_Exscan", {R::OtherCollective, 15}},
      {"MPI_Reduce_scatter_block", {R::AllToAll, 16}},
      {"MPI_Send", {R::PointToPoint, -1}},
      {"MPI_Recv", {R::PointToPoint, -1}},
      {"MPI_Isend", {R::PointToPoint, -1}},
      {"MPI_Irecv", {R::PointToPoint, -1}},
      {"MPI_Bsend", {R::PointToPoint, -1}},
      {"MPI_Ssend", {R::PointToPoint, -1}},
      {"MPI_Rsend", {R::PointToPoint, -1}},
      {"MPI_Ibsend", {R::PointToPoint, -1}},
      {"MPI_Issend", {R::PointToPoint, -1}},
      {"MPI_Irsend", {R::PointToPoint, -1}},
      {"MPI_Sendrecv", {R::PointToPoint, -1}},
      {"MPI_Sendrecv_replace", {R::PointToPoint, -1}},
      {"MPI_Probe", {R::PointToPoint, -1}},
      {"MPI_Iprobe", {R::PointToPoint, -1}},
      {"MPI_Mrecv", {R::PointToPoint, -1}},
      {"MPI_Imrecv", {R::PointToPoint, -1}},
  };
  auto it = table.find(name);
  return it == table.end() ? MpiRegionInfo{} : it->second;
}

}  // namespace earl
