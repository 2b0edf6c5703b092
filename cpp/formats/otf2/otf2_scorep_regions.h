#pragma once
// How Score-P defines a region, which is how analysis tools recognise it: Scalasca's
// reader (pearl, Region.cpp classify) takes a region for an MPI function only when its
// source file is "MPI", and for an OpenMP construct when its file is "OMP" or its name
// starts with "!$omp"; Vampir and Cube read paradigm and role. EARL's writer gives every
// region of a trace the definition Score-P would have written for it.
#include <otf2/otf2.h>

#include <string>

#include "format_interface/trace_writer.h"

namespace earl {

struct ScorepRegion {
  OTF2_Paradigm paradigm = OTF2_PARADIGM_USER;
  OTF2_RegionRole role = OTF2_REGION_ROLE_FUNCTION;
  std::string file;        // source file: "MPI", "OMP", or "" (unknown) for user regions
  int collective_op = -1;  // OTF2_COLLECTIVE_OP_* of an MPI collective, -1: none
};

// The paradigm is RegionDef::group when it names an OTF2 paradigm, else MPI for "MPI_*"
// names and USER otherwise. MPI regions: file "MPI", the role Score-P's MPI wrappers give
// (point2point, barrier, coll_one2all/all2one/all2all/other, rma for one-sided data
// transfer, atomic for accumulates, function for the rest: MPI_Init, MPI_Wait*,
// MPI_Win_*). OpenMP regions: file "OMP", role parallel for a parallel region, barrier
// for a barrier, function otherwise. Everything else: role function, no file.
ScorepRegion scorep_region(const RegionDef& region);

}  // namespace earl
