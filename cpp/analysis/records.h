#pragma once
// The compact records a location's pass emits and the matching step joins
// (analysis/analysis.h). They carry everything a pattern needs, so passes over different
// locations can run apart and their records be matched anywhere.
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "analysis/call_tree.h"
#include "analysis/mpi_functions.h"
#include "model/event.h"
#include "model/message_channel.h"

namespace earl::analysis {

// A message channel; MPI's non-overtaking rule makes the k-th send of a channel the
// partner of its k-th receive.
using Channel = MessageChannel;
using ChannelHash = MessageChannelHash;

// One region instance (a call) on one location.
struct CallInstance {
  double enter = 0.0, leave = 0.0;
  CallPathId callpath = kNoCallPath;
  CallRole role = CallRole::None;
  Location loc = 0;
};

// A send is emitted once the call completing it has ended: for a blocking send the call
// holding it, for MPI_Isend the call where its request completes (OTF2 links the two by
// request id; a send never completed gets a completion with role None).
struct SendRecord {
  Channel channel;
  std::uint64_t seq;  // number of this send on its channel, from 0
  double time;
  std::uint64_t bytes;  // the message's length (0: a synchronisation)
  CallInstance call;  // the call holding the send
  CallInstance completion;  // the call completing it
};

// When the receive was posted: the enter of MPI_Recv/MPI_Sendrecv, or of the MPI_Irecv
// whose request it completes (OTF2); unknown for a receive completed in a wait whose
// MPI_Irecv the trace does not name (ALOG).
constexpr double kUnknownPost = -1.0e300;

struct RecvRecord {
  Channel channel;
  std::uint64_t seq;
  double time;
  double posted = kUnknownPost;
  std::uint64_t bytes = 0;  // the length the receive record gives
};

// A receive whose location counted it (syncs_recv/comms_recv, bytes_rcvd) by its own
// length, where Scalasca counts the matched send's length and no unmatched receive: the
// matching step tells the location to count it again (`matched`: as `bytes`) or not.
struct ReceiveRecount {
  Location loc;
  CallPathId callpath;
  std::uint64_t counted;
  bool matched;
  std::uint64_t bytes;
};

// The receives one call completed (several for MPI_Waitall), emitted when it ends.
struct ReceiveCall {
  CallInstance call;
  std::vector<RecvRecord> receives;
  bool completed_sends = false;  // the call also completed non-blocking sends
};

struct CollectiveRecord {
  std::int64_t key;    // the communicator, or -2 - region where the format has none
  std::uint64_t seq;   // number of this call on `key` on its location, from 0
  SymbolId region;
  CallRole role;
  bool sizes_known;    // the format records root and byte counts (OTF2)
  Location root;       // -1: none or unknown
  std::uint64_t sent, recvd;
  CallInstance call;   // begin, end, call path, location
};

// One-sided active-target synchronisation (MPI_Win_post/start/complete/wait). An origin's
// access epoch (MPI_Win_start .. MPI_Win_complete) to target t on window w pairs with t's
// exposure epoch (MPI_Win_post .. MPI_Win_wait) naming the origin, the k-th with the k-th:
// `seq` numbers the epochs of each (origin, target, window).
struct RmaPeer {
  Location peer;      // a target of an access epoch, an origin of an exposure epoch
  std::uint64_t seq;
  double last_op_end;  // access: end of the origin's last RMA operation to it (-inf: none)
};

// An MPI_Put/Get (OTF2's RmaPut/RmaGet) of an access epoch on the epoch's window.
struct RmaOpCall {
  double issued;  // the operation's record
  double leave;   // of the call issuing it
  CallPathId callpath;
};

struct RmaAccessEpoch {
  std::int64_t window;
  CallInstance start, complete;  // start: enter == leave == -inf where none was seen
  std::vector<RmaPeer> targets;
  std::vector<RmaOpCall> ops;
};

struct RmaExposureEpoch {
  std::int64_t window;
  double post_enter;
  CallInstance wait;
  std::vector<RmaPeer> origins;
};

// One passive-target lock epoch of a location on (window, target): from the call that
// waited for the lock (MPI_Win_lock, or the first RMA operation when the lock is taken
// lazily) through its release.
struct RmaLockEpoch {
  std::int64_t window;
  Location target;
  bool exclusive;
  double requested;  // enter of the call holding the acquisition
  double acquired, released;
  CallPathId callpath;  // of that call
  Location loc;
  Metric call_class;  // of that call: MPI_Win_lock/unlock (synchronisation), MPI_Put/Get
                      // (communication: the lock was taken lazily), or another
};

// The one-sided operations (MPI_Put, MPI_Get and kin) a location issued before an
// MPI_Win_fence, sent with that fence (`key` and `seq` of its collective record): per
// target, when the last operation to it ended. An operation ends when the call issuing it
// leaves (Scalasca's end of an RMA operation; OTF2's completion records may sit in a
// later synchronisation call).
struct RmaFenceOps {
  std::int64_t key;
  std::uint64_t seq;
  std::vector<std::pair<Location, double>> last_op_end;  // (target, end)
};

// Where a location's pass sends its records.
class RecordSink {
 public:
  virtual ~RecordSink() = default;
  virtual void on_send(const SendRecord& send) = 0;
  virtual void on_receive_call(ReceiveCall&& call) = 0;
  virtual void on_collective(const CollectiveRecord& collective) = 0;
  virtual void on_rma_access(RmaAccessEpoch&& epoch) = 0;
  virtual void on_rma_exposure(RmaExposureEpoch&& epoch) = 0;
  virtual void on_rma_lock(const RmaLockEpoch& epoch) = 0;
  virtual void on_rma_fence_ops(RmaFenceOps&& ops) = 0;
};

}  // namespace earl::analysis
