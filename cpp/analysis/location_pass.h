#pragma once
// One location's pass over its own events, in their order: the region stack with call
// paths, the exclusive time and visits of each call path, and the records the matching
// step needs (analysis/records.h). It sees no other location.
#include <array>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/call_tree.h"
#include "analysis/counter_samples.h"
#include "analysis/records.h"
#include "analysis/region_catalog.h"
#include "analysis/severities.h"
#include "model/event.h"
#include "model/location_time_order.h"

namespace earl::analysis {

// The message counts and bytes a call path's events add up to (Scalasca's syncs, comms
// and bytes metrics), counted as events pass and folded into the metrics at the end.
enum class Tally : std::uint8_t {
  SyncsSend, CommsSend, BytesSent, SyncsRecv, CommsRecv, BytesRcvd,
  SyncsColl, CommsCxch, CommsCsrc, CommsCdst, BytesCout, BytesCin, BytesPut, BytesGet,
  Count
};
constexpr std::size_t kTallies = static_cast<std::size_t>(Tally::Count);
// The metric of each tally, in Tally's order.
constexpr Metric kTallyMetric[kTallies] = {
    Metric::SyncsSend, Metric::CommsSend, Metric::BytesSent, Metric::SyncsRecv, Metric::CommsRecv,
    Metric::BytesRcvd, Metric::SyncsColl, Metric::CommsCxch, Metric::CommsCsrc, Metric::CommsCdst,
    Metric::BytesCout, Metric::BytesCin, Metric::BytesPut, Metric::BytesGet};
using Tallies = std::array<ByteSum, kTallies>;

// Per call path of one location (indexed by CallPathId).
struct LocationProfile {
  std::vector<double> exclusive_time;
  std::vector<std::uint64_t> visits;
  // Tallies only for the call paths that have any (the MPI calls): 1 + the index into
  // `tallies`, 0 for none.
  std::vector<std::uint32_t> tally_slot;
  std::vector<Tallies> tallies;
  void ensure(CallPathId id);
  Tallies& tallies_of(CallPathId id) {
    std::uint32_t& slot = tally_slot[id];
    if (slot == 0) {
      tallies.emplace_back();
      slot = static_cast<std::uint32_t>(tallies.size());
    }
    return tallies[slot - 1];
  }
  // A message or call of `bytes`: one more `message` (a synchronisation or communication
  // count), its bytes on `bytes_tally`.
  void count(CallPathId id, Tally message, Tally bytes_tally, std::uint64_t bytes) {
    Tallies& t = tallies_of(id);
    ++t[static_cast<std::size_t>(message)];
    t[static_cast<std::size_t>(bytes_tally)] += bytes;
  }
  struct Traffic {
    ByteSum bytes = 0;
    std::uint64_t messages = 0;
  };
  std::unordered_map<Location, Traffic> sent_to;  // point-to-point sends by destination
};

class LocationPass {
 public:
  LocationPass(Location loc, CallTree& tree, RegionCatalog& regions, RecordSink& sink,
               ProblemCounts& problems)
      : loc_(loc),
        tree_(tree),
        regions_(regions),
        sink_(sink),
        problems_(problems),
        counters_(regions.definitions().metrics) {}

  void event(const Event& e);
  // Regions still open at the end count as problems; their time is not counted.
  void finish();

  const LocationProfile& profile() const { return profile_; }
  // Counts a receive this pass counted by its own length again, as the matching found it.
  void recount_receive(const ReceiveRecount& recount);
  const CounterSamples& counters() const { return counters_; }

 private:
  struct Frame {
    CallPathId callpath;
    SymbolId region;
    double enter;
    double children = 0.0;    // inclusive time of the calls made from here
    std::uint32_t first_send;  // this call's sends/receives start here in pending_*
    std::uint32_t first_recv;
    std::uint32_t first_completed;  // sends of earlier calls this call completed
    std::uint32_t first_rma_op;     // its RMA operations start here in pending_rma_ops_
    std::int64_t rma_window = -1, rma_group = -1;  // from an RmaGroupSync inside the call
  };
  struct RmaOp {  // an MPI_Put/Get (OTF2's RmaPut/RmaGet) whose call has not ended
    std::int64_t window;
    Location target;
    double issued;
  };
  struct OpenEpoch {
    CallInstance call;  // MPI_Win_start (access) or MPI_Win_post (exposure)
    std::int64_t group, window;
    std::vector<RmaOpCall> ops;  // access: its operations on its window so far
  };

  void dispatch(const Event& e);
  void enter(const Event& e);
  void exit(const Event& e);
  void send(const Event& e);
  void recv(const Event& e);
  void request_record(const Event& e);
  void program_record(const Event& e, RequestRecord kind);
  void count_collective(CallPathId callpath, std::uint64_t sent, std::uint64_t received);
  void open_send(std::uint64_t request, const SendRecord& send);
  void end_call(const Frame& frame, const CallInstance& call);
  void rma_synchronization(const Frame& frame, const CallInstance& call);
  void window_lock(const Event& e);
  void rma_op_ended(const RmaOp& op, double end, CallPathId callpath);
  std::vector<RmaPeer> rma_peers(std::int64_t window, std::int64_t group, bool access, double since);
  CallPathId current() const { return frames_.empty() ? kNoCallPath : frames_.back().callpath; }

  Location loc_;
  CallTree& tree_;
  RegionCatalog& regions_;
  RecordSink& sink_;
  ProblemCounts& problems_;
  std::vector<Frame> frames_;
  std::vector<SendRecord> pending_sends_;  // of open calls, innermost last
  std::vector<RecvRecord> pending_recvs_;
  std::vector<SendRecord> pending_completed_;  // non-blocking sends completed in open calls
  std::vector<std::uint64_t> pending_requests_;  // the request of each pending send, or kNoRequest
  // Non-blocking sends whose call ended, by request; enter of each MPI_Irecv by request.
  std::unordered_map<std::uint64_t, SendRecord> open_sends_;
  std::unordered_map<std::uint64_t, double> posted_receives_;
  // Active-target epochs open per window (-1: a window no record named), epochs so far and
  // the end of the last RMA operation per (window, peer).
  std::unordered_map<std::int64_t, OpenEpoch> access_open_, exposure_open_;
  std::unordered_map<std::uint64_t, std::uint64_t> access_seq_, exposure_seq_;
  std::unordered_map<std::uint64_t, double> last_op_end_;
  std::vector<RmaOp> pending_rma_ops_;  // of open calls, innermost last
  // End of the last RMA operation per (window, target) since the previous fence (Early
  // Fence); an MPI_Win_complete takes its window's out, as Scalasca's replay does.
  std::map<std::pair<std::int64_t, Location>, double> fence_op_end_;
  std::unordered_map<std::uint64_t, RmaLockEpoch> locks_held_;  // by (window, target)
  std::unordered_map<Channel, std::uint64_t, ChannelHash> sends_on_, recvs_on_;
  std::unordered_map<std::int64_t, std::uint64_t> collectives_on_;
  static constexpr SymbolId kNoProgram = ~SymbolId(0);
  SymbolId program_region_ = kNoProgram;  // the root a ProgramBegin entered
  LocationProfile profile_;
  CounterSamples counters_;
  LocationTimeOrder order_;
};

}  // namespace earl::analysis
