#include "gen/collective_phase.h"

#include <algorithm>

#include "gen/program_regions.h"

namespace earl::gen {

CollectivePhase::CollectivePhase(const GenOptions& options, const TraceHeader& header)
    : barrier_every_(options.barrier_every),
      kinds_(parse_collectives(options.collectives)),
      rank_process_(header.rank_process),
      enters_(options.locations, 0),
      leaves_(options.locations, 0) {
  for (const CollectiveKind* kind : kinds_) kind_regions_.push_back(region_id(header, kind->region));
  if (rank_process_.empty())
    for (int r = 0; r < options.locations; ++r) rank_process_.push_back(r);
}

RoundCollective CollectivePhase::of_round(std::uint64_t round) const {
  if (!kinds_.empty()) {
    const std::size_t turn = round % kinds_.size();
    return {kinds_[turn], kind_regions_[turn]};
  }
  return {nullptr, every_kth_round(barrier_every_, round) ? kMpiBarrier : kMpiAllreduce};
}

void CollectivePhase::enter(ProgramState& state, int process, const RoundCollective& collective) {
  const int l = state.master(process);
  WriterEvent& e = state.enter(l, collective.region, state.after(l, 1, 3));
  e.flags = kWriterCollective;
  enters_[process] = e.time;
}

void CollectivePhase::leave(ProgramState& state, const RoundCollective& collective, std::uint64_t round) {
  if (collective.kind)
    leave_by_kind(state, *collective.kind, collective.region, round);
  else
    leave_together(state, collective.region);
}

// Without `collectives`: everybody leaves together, after the last one entered. (An
// allreduce of one double: 8 bytes sent and received per rank; a barrier moves none.)
void CollectivePhase::leave_together(ProgramState& state, int region) {
  const bool barrier = region == kMpiBarrier;
  const std::int64_t latest = *std::max_element(enters_.begin(), enters_.end());
  const std::int64_t cost = barrier ? state.rng.uniform(2, 6) : state.rng.uniform(5, 20);
  for (int p = 0; p < state.processes; ++p) {
    WriterEvent& e = state.leave(state.master(p), region, latest + cost);
    e.flags = kWriterCollective;
    e.len = barrier ? 0 : 8;
    e.received = e.len;
    e.peer = -1;
  }
}

// Each process leaves `cost` after the enters it waits for (gen/collective_kinds.h: all of
// them, the root's, or those of its own and the lower ranks); the root is MPI_COMM_WORLD
// rank round mod N.
void CollectivePhase::compute_leave_times(const CollectiveKind& kind, int root, std::int64_t cost) {
  const int n = static_cast<int>(enters_.size());
  const std::int64_t latest = *std::max_element(enters_.begin(), enters_.end());
  std::int64_t latest_sender = 0, running = 0;
  for (int p = 0; p < n; ++p)
    if (p != root) latest_sender = std::max(latest_sender, enters_[p]);
  for (int rank = 0; rank < n; ++rank) {
    const int p = rank_process_[rank];
    running = std::max(running, enters_[p]);
    switch (kind.shape) {
      case CollectiveShape::Barrier:
      case CollectiveShape::NxN: leaves_[p] = latest + cost; break;
      case CollectiveShape::OneToN: leaves_[p] = std::max(enters_[p], enters_[root]) + cost; break;
      case CollectiveShape::NToOne:
        leaves_[p] = (p == root ? std::max(enters_[p], latest_sender) : enters_[p]) + cost;
        break;
      case CollectiveShape::Scan: leaves_[p] = running + cost; break;
    }
  }
}

// With `collectives`: the exits in rank order; the next round starts after the last one
// left, so that rounds never overlap (who left earlier idles in main meanwhile).
void CollectivePhase::leave_by_kind(ProgramState& state, const CollectiveKind& kind, int region,
                                    std::uint64_t round) {
  const int n = state.processes;
  const int root_rank = static_cast<int>(round % static_cast<std::uint64_t>(n));
  const int root = rank_process_[root_rank];
  const std::int64_t cost =
      kind.shape == CollectiveShape::Barrier ? state.rng.uniform(2, 6) : state.rng.uniform(5, 20);
  compute_leave_times(kind, root, cost);
  std::int64_t round_end = 0;
  for (int rank = 0; rank < n; ++rank) {
    const int p = rank_process_[rank];
    const CollectiveBytes bytes = collective_bytes(kind, p == root, rank, n);
    WriterEvent& e = state.leave(state.master(p), region, leaves_[p]);
    e.flags = kWriterCollective;
    e.len = bytes.sent;
    e.received = bytes.received;
    e.peer = is_rooted(kind.shape) ? state.master(root) : -1;
    round_end = std::max(round_end, e.time);
  }
  for (int p = 0; p < n; ++p) state.clock[state.master(p)] = std::max(state.clock[state.master(p)], round_end);
}

}  // namespace earl::gen
