#include "formats/otf2/otf2_scorep_regions.h"

#include "formats/otf2/otf2_mpi_regions.h"
#include "formats/otf2/otf2_paradigms.h"

namespace earl {

namespace {

OTF2_RegionRole role_of(MpiRole role) {
  switch (role) {
    case MpiRole::PointToPoint: return OTF2_REGION_ROLE_POINT2POINT;
    case MpiRole::Barrier: return OTF2_REGION_ROLE_BARRIER;
    case MpiRole::OneToAll: return OTF2_REGION_ROLE_COLL_ONE2ALL;
    case MpiRole::AllToOne: return OTF2_REGION_ROLE_COLL_ALL2ONE;
    case MpiRole::AllToAll: return OTF2_REGION_ROLE_COLL_ALL2ALL;
    case MpiRole::OtherCollective: return OTF2_REGION_ROLE_COLL_OTHER;
    case MpiRole::None: break;
  }
  return OTF2_REGION_ROLE_FUNCTION;
}

// One-sided calls that mpi_region_info (which knows messages and collectives) leaves
// out; their roles as Score-P's MPI adapter defines them.
OTF2_RegionRole one_sided_role(const std::string& name) {
  if (name == "MPI_Put" || name == "MPI_Get" || name == "MPI_Rput" || name == "MPI_Rget")
    return OTF2_REGION_ROLE_RMA;
  if (name == "MPI_Accumulate" || name == "MPI_Get_accumulate" || name == "MPI_Fetch_and_op" ||
      name == "MPI_Compare_and_swap" || name == "MPI_Raccumulate" || name == "MPI_Rget_accumulate")
    return OTF2_REGION_ROLE_ATOMIC;
  return OTF2_REGION_ROLE_FUNCTION;
}

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

}  // namespace

ScorepRegion scorep_region(const RegionDef& region) {
  ScorepRegion out;
  if (auto named = otf2_paradigm_named(region.group))
    out.paradigm = *named;
  else
    out.paradigm = region.name.compare(0, 4, "MPI_") == 0 ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER;
  if (out.paradigm == OTF2_PARADIGM_MPI) {
    out.file = "MPI";
    const MpiRegionInfo mpi = mpi_region_info(region.name);
    out.role = mpi.role == MpiRole::None ? one_sided_role(region.name) : role_of(mpi.role);
    out.collective_op = mpi.collective_op;
  } else if (out.paradigm == OTF2_PARADIGM_OPENMP) {
    out.file = "OMP";
    if (contains(region.name, "barrier"))
      out.role = contains(region.name, "implicit") ? OTF2_REGION_ROLE_IMPLICIT_BARRIER : OTF2_REGION_ROLE_BARRIER;
    else if (contains(region.name, "parallel"))
      out.role = OTF2_REGION_ROLE_PARALLEL;
  }
  return out;
}

}  // namespace earl
