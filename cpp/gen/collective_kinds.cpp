#include "gen/collective_kinds.h"

#include "model/error.h"

namespace earl::gen {

namespace {
constexpr std::int64_t kValue = 8;  // one double per rank
}

const std::vector<CollectiveKind>& collective_kinds() {
  using S = CollectiveShape;
  static const std::vector<CollectiveKind> kinds = {
      {"allreduce", "MPI_Allreduce", S::NxN, "mpi_wait_nxn", "mpi_nxn_completion"},
      {"barrier", "MPI_Barrier", S::Barrier, "mpi_barrier_wait", "mpi_barrier_completion"},
      {"bcast", "MPI_Bcast", S::OneToN, "mpi_latebroadcast", nullptr},
      {"reduce", "MPI_Reduce", S::NToOne, "mpi_earlyreduce", nullptr},
      {"gather", "MPI_Gather", S::NToOne, "mpi_earlyreduce", nullptr},
      {"scatter", "MPI_Scatter", S::OneToN, "mpi_latebroadcast", nullptr},
      {"allgather", "MPI_Allgather", S::NxN, "mpi_wait_nxn", "mpi_nxn_completion"},
      {"alltoall", "MPI_Alltoall", S::NxN, "mpi_wait_nxn", "mpi_nxn_completion"},
      {"scan", "MPI_Scan", S::Scan, "mpi_earlyscan", nullptr},
      {"exscan", "MPI_Exscan", S::Scan, "mpi_earlyscan", nullptr},
  };
  return kinds;
}

const CollectiveKind* collective_kind_named(const std::string& name) {
  for (const CollectiveKind& kind : collective_kinds())
    if (name == kind.name) return &kind;
  return nullptr;
}

const CollectiveKind* collective_kind_of_region(const std::string& region) {
  for (const CollectiveKind& kind : collective_kinds())
    if (region == kind.region) return &kind;
  return nullptr;
}

std::vector<const CollectiveKind*> parse_collectives(const std::string& list) {
  std::vector<const CollectiveKind*> out;
  if (list.empty()) return out;
  std::string known;
  for (const CollectiveKind& kind : collective_kinds()) known += (known.empty() ? "" : ", ") + std::string(kind.name);
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = list.find(',', start);
    const std::string name = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const CollectiveKind* kind = collective_kind_named(name);
    if (!kind)
      throw EarlError("earl gen: collectives must be a comma-separated list of " + known + " (got '" + name +
                      "' in '" + list + "')");
    out.push_back(kind);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

CollectiveBytes collective_bytes(const CollectiveKind& kind, bool root, int rank, int processes) {
  const std::int64_t all = kValue * processes;
  const std::string name = kind.name;
  if (kind.shape == CollectiveShape::Barrier) return {0, 0};
  if (name == "allgather") return {kValue, all};
  if (name == "alltoall") return {all, all};
  if (kind.shape == CollectiveShape::OneToN) return {root ? all : 0, kValue};
  if (kind.shape == CollectiveShape::NToOne) return {kValue, root ? all : 0};
  if (name == "exscan") return {kValue, rank == 0 ? 0 : kValue};
  return {kValue, kValue};  // allreduce, scan
}

}  // namespace earl::gen
