// The header of a generated run (gen/generator.h): its locations and the program model's
// regions, those of the optional shapes after the fixed ones in a fixed order (region ids
// are positions, so the order is part of the output).
#include <algorithm>
#include <initializer_list>

#include "gen/collective_kinds.h"
#include "gen/generator.h"
#include "gen/rng.h"

namespace earl::gen {

namespace {

// The name of the program in ProgramBegin (Score-P writes the executable's).
constexpr const char* kProgramName = "earl-gen-program";

// In GenRegion's order.
std::vector<RegionDef> fixed_regions() {
  return {
      {"main", "gray:solid", "USER"},       {"step", "blue:solid", "USER"},
      {"compute", "green:boxes", "USER"},   {"kernel", "yellow:solid", "USER"},
      {"exchange", "cyan:solid", "USER"},   {"update", "orange:boxes", "USER"},
      {"MPI_Send", "red:solid", "MPI"},     {"MPI_Recv", "magenta:solid", "MPI"},
      {"MPI_Allreduce", "brown:solid", "MPI"}, {"MPI_Barrier", "black:solid", "MPI"},
      {"MPI_Init", "white:solid", "MPI"},      {"MPI_Finalize", "white:solid", "MPI"},
  };
}

// Collectives beyond MPI_Allreduce/MPI_Barrier, in the kinds table's order, each once.
void add_collective_regions(std::vector<RegionDef>& regions, const std::string& collectives) {
  const std::vector<const CollectiveKind*> used = parse_collectives(collectives);
  for (const CollectiveKind& kind : collective_kinds()) {
    if (kind.region == regions[kMpiAllreduce].name || kind.region == regions[kMpiBarrier].name) continue;
    if (std::find(used.begin(), used.end(), &kind) != used.end()) regions.push_back({kind.region, "brown:solid", "MPI"});
  }
}

// A shape's regions: MPI calls in `style`, its user regions as work.
void add_shape_regions(std::vector<RegionDef>& regions, std::initializer_list<const char*> names, const char* style) {
  for (const char* name : names) {
    const bool mpi = std::string(name).compare(0, 4, "MPI_") == 0;
    regions.push_back({name, mpi ? style : "tan:boxes", mpi ? "MPI" : "USER"});
  }
}

std::vector<std::string> location_names(int processes, int threads) {
  std::vector<std::string> names;
  for (int p = 0; p < processes; ++p) {
    names.push_back("rank " + std::to_string(p));
    for (int k = 1; k < threads; ++k) names.push_back("rank " + std::to_string(p) + " thread " + std::to_string(k));
  }
  return names;
}

}  // namespace

TraceHeader program_header(const GenOptions& options) {
  TraceHeader h;
  h.locations = options.locations * options.threads;
  h.threads = options.threads;
  h.regions = fixed_regions();
  if (options.threads > 1) h.regions.push_back({"parallel", "pink:boxes", "OPENMP"});
  add_collective_regions(h.regions, options.collectives);
  if (options.depth > 0) h.regions.push_back({"recursion", "purple:solid", "USER"});
  h.rma_window = options.rma_every > 0 || options.lock_every > 0;
  if (h.rma_window)
    add_shape_regions(h.regions, {"MPI_Win_create", "MPI_Win_fence", "MPI_Put", "MPI_Win_free", "epoch_work"},
                      "turquoise:solid");
  if (options.nonblocking) add_shape_regions(h.regions, {"MPI_Isend", "MPI_Irecv", "MPI_Wait", "MPI_Waitall"}, "salmon:solid");
  if (options.lock_every > 0) add_shape_regions(h.regions, {"MPI_Win_lock", "MPI_Win_unlock", "locked_work"}, "gold:solid");
  if (options.late_receiver_rate > 0) add_shape_regions(h.regions, {"MPI_Ssend"}, "red:solid");
  h.location_names = location_names(options.locations, options.threads);
  h.program_name = kProgramName;
  return h;
}

std::vector<int> permuted_ranks(int processes, std::uint64_t seed) {
  std::vector<int> rank_process(processes > 0 ? processes : 0);
  for (int r = 0; r < processes; ++r) rank_process[r] = r;
  Rng rng(seed ^ 0x5eed0f4a11ab1e5ULL);  // its own stream: the program's draws stay the same
  for (int i = processes - 1; i > 0; --i)
    std::swap(rank_process[i], rank_process[static_cast<std::size_t>(rng.uniform(0, i))]);
  bool identity = true;
  for (int r = 0; r < processes; ++r) identity = identity && rank_process[r] == r;
  if (identity && processes >= 2) std::swap(rank_process[0], rank_process[1]);
  return rank_process;
}

}  // namespace earl::gen
