#pragma once
// The MPI collectives `earl gen --collectives` can end a round with: the option's name for
// each, its MPI region, how the generator times it (which enters a process waits for before
// it leaves) and the Scalasca metrics its waits belong to. The generator (gen/generator.h)
// and the ground truth (gen/truth.h) both read this one table.
#include <cstdint>
#include <string>
#include <vector>

namespace earl::gen {

enum class CollectiveShape {
  Barrier,  // everybody leaves after the last one entered: Wait at Barrier (+ completion)
  NxN,      // the same, with data: Wait at NxN (+ completion)
  OneToN,   // non-roots leave after the root entered: Late Broadcast
  NToOne,   // the root leaves after the last non-root entered: Early Reduce
  Scan,     // rank r leaves after ranks 0..r entered: Early Scan
};

struct CollectiveKind {
  const char* name;    // the option's value, e.g. "bcast"
  const char* region;  // "MPI_Bcast"
  CollectiveShape shape;
  const char* wait_metric;        // Scalasca's metric id of the wait
  const char* completion_metric;  // Barrier/NxN: of the completion; nullptr otherwise
};

// Every kind, in the order the option's help lists them.
const std::vector<CollectiveKind>& collective_kinds();

// The kind named `name` in the option (nullptr: none), the kind of region `region`.
const CollectiveKind* collective_kind_named(const std::string& name);
const CollectiveKind* collective_kind_of_region(const std::string& region);

// The option's comma-separated list, in order; empty for "". EarlError naming the first
// unknown or empty entry.
std::vector<const CollectiveKind*> parse_collectives(const std::string& list);

inline bool is_rooted(CollectiveShape shape) {
  return shape == CollectiveShape::OneToN || shape == CollectiveShape::NToOne;
}

// Bytes a process sends and receives in one instance (one 8-byte value per rank, its own
// share counted as Score-P counts it): `root` whether it is the instance's root, `rank` its
// rank in MPI_COMM_WORLD, `processes` the communicator's size.
struct CollectiveBytes {
  std::int64_t sent = 0, received = 0;
};
CollectiveBytes collective_bytes(const CollectiveKind& kind, bool root, int rank, int processes);

}  // namespace earl::gen
