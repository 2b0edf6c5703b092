#pragma once
#include <otf2/otf2.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/definitions.h"

namespace earl {

// The global definitions of an OTF2 archive that event decoding needs, read once through
// libotf2's global definition reader, plus the EARL definitions made from them.
struct Otf2Definitions {
  std::uint64_t timer_resolution = 1;
  std::uint64_t global_offset = 0;
  std::uint64_t trace_length = 0;  // ticks; 0 = not given

  std::unordered_map<std::uint64_t, std::string> strings;
  std::vector<OTF2_LocationRef> location_ids;                 // EARL location -> OTF2 id
  std::vector<std::uint64_t> location_records;                // records per location
  std::unordered_map<OTF2_LocationRef, Location> location_of;  // OTF2 id -> EARL location
  std::unordered_map<std::uint64_t, SymbolId> region_of;        // OTF2 region -> EARL region
  // Communicator -> location of each rank (-1 where the archive does not say).
  std::unordered_map<std::uint64_t, std::vector<Location>> comm_ranks;
  std::unordered_map<std::uint64_t, bool> comm_is_self;
  std::unordered_map<std::uint64_t, std::uint64_t> window_comm;  // RMA window -> comm
  // Metric (class or instance) -> its members, in record order, as indices into
  // earl.metrics (-1: a member the archive does not define).
  std::unordered_map<std::uint64_t, std::vector<std::int64_t>> metric_members;
  std::unordered_map<std::uint64_t, std::string> parameter_names;

  Definitions earl;

  const std::string& string(std::uint64_t ref) const;
  // The location of `rank` in `comm`, seen from `self` (for MPI_COMM_SELF); -1 if unknown.
  Location rank_location(std::uint64_t comm, std::uint64_t rank, Location self) const;
};

// Reads the global definitions of an open reader. Throws EarlError naming `archive`.
void read_otf2_definitions(OTF2_Reader* reader, const std::string& archive, Otf2Definitions& out);

}  // namespace earl
