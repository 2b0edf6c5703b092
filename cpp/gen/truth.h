#pragma once
// The ground truth of a generated trace, computed from the very event stream the trace
// writer receives, the way a reader of the written file computes it: times in seconds as
// (double)microseconds / 1e6, sums accumulated in file order (seed 004's example scripts).
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <string>
#include <vector>

#include "format_interface/trace_writer.h"
#include "gen/collective_kinds.h"
#include "model/clock.h"

namespace earl::gen {

// Microseconds -> seconds exactly as EARL's readers compute it (model/clock.h).
inline double seconds(std::int64_t us) { return ticks_to_seconds(us, kMicrosecondsPerSecond); }

struct LateSender {
  int src, dest, tag;
  double send_enter, recv_enter, wait;
};

// A blocking send (MPI_Send, MPI_Ssend) still running when its receive was posted
// (Scalasca's Late Receiver): wait = enter of the MPI_Recv - enter of the send call, when
// the send call left after that enter. Attributed to the sender `src`.
struct LateReceiver {
  int src, dest, tag;
  double send_enter, recv_enter, wait;
};

struct OutOfOrder {
  int src, dest;
  int first_sent, first_received;  // tags
  double time;                      // of the receive that overtook
};

struct CollectiveWait {
  std::int64_t index;  // 0-based instance number
  int region;
  double enter_max;
  // Per process (its master thread). Window calls: max enter - own enter. MPI collectives:
  // the wait by Scalasca's formula of the kind (gen/collective_kinds.h; for MPI_Allreduce
  // and MPI_Barrier, whose calls all end after the last enter, max enter - own enter too).
  std::vector<double> waits;
  int root = -1;                   // rooted MPI collectives: the root's process
  std::vector<double> completion;  // Barrier/NxN: per process, Scalasca's completion time
};

// Per Scalasca metric of the MPI collectives: the sum of the positive waits, how many there
// are, and the sum per process.
struct PatternTotal {
  std::string metric;
  double total = 0.0;
  std::uint64_t count = 0;
  std::vector<double> by_process;
};

// A passive-target lock epoch that waited for an earlier one (Scalasca's Lock
// Competition): wait = min(latest release of the epochs acquired before, acquired) -
// enter of the call that requested the lock.
struct LockWait {
  int loc, target;
  double requested, acquired, wait;
};

struct RegionTime {
  double incl = 0.0, excl = 0.0;
  std::uint64_t count = 0;
};

struct RegionTimeRow {
  int region;
  RegionTime time;
};

// What a generated trace contains, as data (the Python binding turns it into the dict that
// `earl gen` writes as OUT.truth.json). Times in seconds; lists hold at most `list_limit`
// entries, counts and totals are complete.
struct GroundTruth {
  std::uint64_t events = 0;            // as ALOG holds them (no one-sided or request records)
  double start = 0.0, end = 0.0;       // first and last event time (as ALOG holds them)
  std::vector<std::string> regions;    // region names by id
  std::vector<std::string> location_names;
  std::uint64_t messages = 0;
  std::uint64_t max_in_flight = 0;  // most messages sent and not yet received at once
  std::uint64_t max_depth = 0;      // deepest region stack of any location
  std::int64_t list_limit = 0;

  std::uint64_t late_sender_count = 0;
  double late_sender_wait_total = 0.0;
  std::vector<LateSender> late_senders;

  std::uint64_t late_receiver_count = 0;
  double late_receiver_wait_total = 0.0;
  std::vector<LateReceiver> late_receivers;

  std::uint64_t out_of_order_count = 0;  // receives that overtook older messages
  std::uint64_t out_of_order_reports = 0;  // overtaken messages, summed over those receives
  std::vector<OutOfOrder> out_of_order;

  std::int64_t collectives = 0;
  double imbalance_wait_total = 0.0;
  std::vector<CollectiveWait> imbalance;
  std::vector<PatternTotal> collective_patterns;  // in the order first met

  struct Truncated {
    bool late_senders = false, late_receivers = false, out_of_order = false, imbalance = false, fence_waits = false,
         lock_waits = false;
  } truncated;

  // One-sided (a header with rma_window): the window's collective calls, each instance's
  // wait per process = latest enter - own enter (Wait at Fence/Create/Free; every process
  // leaves after the last one entered, so all calls overlap).
  struct Rma {
    bool window = false;        // the trace has the window (all below is empty otherwise)
    std::int64_t fences = 0;    // MPI_Win_fence instances
    double fence_wait_total = 0.0;
    std::vector<CollectiveWait> fence_waits;  // index = the fence's number, from 0
    std::vector<double> create_waits, free_waits;  // per process; empty: no such call
    std::uint64_t puts = 0;
    std::int64_t put_bytes = 0;
    std::uint64_t locks = 0;  // lock epochs (all exclusive)
    std::uint64_t lock_wait_count = 0;
    double lock_wait_total = 0.0;
    std::vector<LockWait> lock_waits;
  } rma;

  std::vector<std::int64_t> bytes_received_per_location, bytes_sent_per_location;

  // The program frame (gen/program_frame.h), per location (0 where a location has none:
  // the worker threads), each as Scalasca 2.6 defines it:
  // - program_root: the program root's own time, ProgramBegin to main's enter plus main's
  //   leave to ProgramEnd (the call tree's root on OTF2 archives: its exclusive time);
  // - mpi_init_completion: MPI.pattern MPI_INIT_COMPLETION, leave - max(earliest leave of
  //   MPI_Init, min(latest enter, leave)), at least 0 (no wait time at MPI_Init);
  // - mpi_finalize_wait: MPI.pattern MPI_FINALIZE_WAIT, min(latest enter of
  //   MPI_Finalize, leave) - own enter, at least 0.
  std::vector<double> program_root, mpi_init_completion, mpi_finalize_wait;

  // Per location, Message.pattern's counts: point-to-point messages sent/received with
  // zero bytes (syncs_send/syncs_recv, by the send's bytes) or more (comms_send/
  // comms_recv); MPI collective operations by their bytes sent/received (syncs_coll:
  // neither, comms_cxch: both, comms_csrc: only sent, comms_cdst: only received) and those
  // bytes (bytes_cout/bytes_cin). Point-to-point bytes are bytes_sent/received_per_location.
  struct MessageCounts {
    std::vector<std::uint64_t> syncs_send, syncs_recv, comms_send, comms_recv;
    std::vector<std::uint64_t> syncs_coll, comms_cxch, comms_csrc, comms_cdst;
    std::vector<std::int64_t> bytes_cout, bytes_cin;
  } counts;

  // Late Receiver completed in MPI_Waitall (MPI.pattern MPI_LATERECEIVER, backward
  // replay): per MPI_Waitall that completes sends and has no late-sender candidate (no
  // receive completed in it waited), the largest idle of its sends, idle = enter of the
  // receiver's MPI_Irecv - enter of the Waitall when the Waitall left after that enter;
  // counted when > 0, attributed to the sender.
  std::uint64_t waitall_late_receiver_count = 0;
  double waitall_late_receiver_total = 0.0;
  std::vector<double> waitall_late_receiver_by_location;
  // With skewed clocks (gen/clock_skew.h): per MPI process, offset (seconds) and drift
  // (ppm) of the clock the written trace was recorded with; empty for exact clocks.
  struct Clock {
    double offset = 0.0, drift_ppm = 0.0;
  };
  std::vector<Clock> clocks;
  // Per location, the regions it entered (count > 0), by region id.
  std::vector<std::vector<RegionTimeRow>> region_time;
};

class TruthCollector : public TraceWriter {
 public:
  // send_region/recv_region: the MPI_Send/MPI_Recv region ids; collectives: region ids of
  // collective operations (their instances must cover all locations); list_limit: at most
  // this many entries in each list (counts and totals are always complete). With the
  // header's rma_window, the regions named MPI_Win_create, MPI_Win_fence and MPI_Win_free
  // are the window's collective calls (their instances cover all processes as well); the
  // receives completed in regions named MPI_Wait/MPI_Waitall of sends in MPI_Isend are
  // judged for late sender there (Waitall: the largest wait only).
  TruthCollector(int send_region, int recv_region, std::vector<int> collectives,
                 std::int64_t list_limit);

  void begin(const TraceHeader& header) override;
  void write(const WriterEvent* events, std::size_t count) override;
  void finish() override;

  std::uint64_t events() const { return events_; }
  std::uint64_t messages() const { return messages_; }

  // The truth of everything written so far (complete after finish()).
  GroundTruth truth() const;

 private:
  struct Frame {
    int region;
    std::int64_t enter;
    std::int64_t send = -1;  // a blocking send call: the number of the send inside
  };
  struct InFlight {
    int src, tag;
    int send_region;        // innermost region around the send, -1 none
    std::int64_t send_enter;  // its enter time (us)
    std::int64_t number;      // of the blocking send, from 0 (-1: not blocking)
    std::int64_t message;     // of the send, from 0
    std::int64_t len;         // bytes
  };

  void fail(const std::string& what) const;

  // begin(): the regions whose events the truth judges.
  void find_judged_regions(const TraceHeader& header);

  // write(), per event (gen/truth.cpp): its place in the output, then by kind.
  void admit(const WriterEvent& e);
  void on_enter(const WriterEvent& e, std::vector<Frame>& stack);
  void on_exit(const WriterEvent& e, std::vector<Frame>& stack);
  void add_region_time(int loc, int region, double diff, const std::vector<Frame>& stack);

  // Messages (gen/truth_messages.cpp).
  void on_send(const WriterEvent& e, std::vector<Frame>& stack);
  void on_recv(const WriterEvent& e, const std::vector<Frame>& stack);
  InFlight match_receive(const WriterEvent& e);
  void judge_blocking_receive(const WriterEvent& e, const InFlight& sent, const std::vector<Frame>& stack);
  void track_late_receiver(const WriterEvent& e, const InFlight& sent, const std::vector<Frame>& stack);
  void end_send_call(const Frame& frame, const WriterEvent& e);
  void judge_completed_receives(const WriterEvent& e, const Frame& frame);

  // Collectives and window synchronisations (gen/truth_collectives.cpp).
  void enter_collective(const WriterEvent& e);
  void leave_collective(const WriterEvent& e);

  // One-sided records (gen/truth_window.cpp).
  void on_put(const WriterEvent& e);

  // The program frame and the message counts (gen/truth_frame.cpp).
  void on_program(const WriterEvent& e, const std::vector<Frame>& stack);
  void frame_call(const WriterEvent& e, bool enter);
  void count_message(const WriterEvent& e, std::int64_t send_bytes);
  void count_collective(const WriterEvent& e);
  void frame_truth(GroundTruth& t) const;
  std::vector<std::int64_t> program_begin_;  // per location: its ProgramBegin (-1: none)
  std::vector<std::int64_t> toplevel_us_;    // per location: top-level region time since then
  std::vector<double> program_root_;
  int init_region_ = -1, finalize_region_ = -1;
  struct CallTimes {
    std::int64_t enter = -1, leave = -1;
  };
  std::vector<CallTimes> init_, finalize_;  // per process: its first call
  GroundTruth::MessageCounts counts_;

  // Late receivers in MPI_Waitall (gen/truth_messages.cpp). Each MPI_Waitall instance is
  // judged once it has left and the MPI_Irecv enters of all receives of the sends it
  // completed are known (posted, with `pending` still unknown); then it is forgotten.
  struct WaitallInstance {
    std::int64_t enter, leave;
    bool late_sender;
    int pending;
    std::vector<std::int64_t> posted;
  };
  std::unordered_map<std::int64_t, WaitallInstance> waitalls_;
  std::int64_t next_waitall_ = 0;
  std::vector<std::int64_t> open_waitall_;  // per location: its open MPI_Waitall, -1 none
  std::unordered_map<std::int64_t, std::int64_t> message_of_request_;  // (loc, request) -> message
  std::unordered_map<std::int64_t, std::int64_t> irecv_enter_;         // (loc, request) -> MPI_Irecv enter
  std::unordered_map<std::int64_t, std::int64_t> recv_posted_;         // message -> MPI_Irecv enter
  std::unordered_map<std::int64_t, std::pair<int, std::int64_t>> waiting_waitall_;  // message -> (loc, waitall)
  std::uint64_t waitall_lr_count_ = 0;
  double waitall_lr_total_ = 0.0;
  std::vector<double> waitall_lr_by_location_;
  std::int64_t request_key(int loc, std::int64_t request) const { return request * n_ + loc; }
  void on_request(const WriterEvent& e, const std::vector<Frame>& stack);
  void enter_waitall(const WriterEvent& e);
  void leave_waitall(const WriterEvent& e, bool late_sender_candidate);
  void receive_posted(const WriterEvent& e, std::int64_t message);
  void settle_waitall(int loc, std::int64_t id);

  TraceHeader header_;
  int send_region_, recv_region_;
  std::vector<char> is_collective_;
  std::vector<int> collectives_;
  std::int64_t list_limit_;

  int n_ = 0, nregions_ = 0;
  int threads_ = 1, processes_ = 0;  // collectives involve each process' master thread
  std::vector<std::vector<Frame>> stacks_;
  std::vector<RegionTime> region_time_;  // [loc * nregions + region]
  std::vector<std::deque<InFlight>> in_flight_;  // per destination, in send order
  std::vector<std::int64_t> bytes_received_, bytes_sent_;
  std::vector<std::int64_t> last_time_;

  std::uint64_t events_ = 0, messages_ = 0, receives_ = 0;
  std::uint64_t max_in_flight_ = 0, max_depth_ = 0;
  std::int64_t first_time_ = -1, final_time_ = -1;  // of the events every format holds
  std::int64_t output_time_ = -1;                   // of the latest event of any kind

  // Late receivers: the blocking sends (MPI_Send, MPI_Ssend) by number whose call left
  // before their receive was judged (leave), or whose receive was posted while the call
  // still ran (the receive's dest, tag and post).
  int ssend_region_ = -1;
  std::int64_t sends_ = 0;
  struct Posted {
    int dest, tag;
    std::int64_t posted;
  };
  std::unordered_map<std::int64_t, std::int64_t> send_left_;
  std::unordered_map<std::int64_t, Posted> send_posted_;
  std::vector<LateReceiver> late_receivers_;
  std::uint64_t late_receiver_count_ = 0;
  double late_receiver_total_ = 0.0;
  void late_receiver(int src, const Posted& posted, std::int64_t send_enter, std::int64_t send_leave);

  std::vector<LateSender> late_;
  std::uint64_t late_count_ = 0;
  double late_total_ = 0.0;

  std::vector<OutOfOrder> ooo_;
  std::uint64_t ooo_count_ = 0, ooo_reports_ = 0;

  std::vector<std::int64_t> coll_enter_;
  int coll_pending_ = 0, coll_region_ = -1;
  std::int64_t coll_instances_ = 0;
  std::vector<CollectiveWait> imbalance_;
  double imbalance_total_ = 0.0;

  // Non-blocking receives: MPI_Isend/MPI_Wait/MPI_Waitall (-1: absent) and, per location,
  // the receives the wait it is in completed so far.
  int isend_region_ = -1, wait_region_ = -1, waitall_region_ = -1;
  struct Completed {
    int src, tag;
    std::int64_t send_enter;
  };
  std::vector<std::vector<Completed>> completed_;
  void late_sender(int src, int dest, int tag, std::int64_t send_enter, std::int64_t recv_enter,
                   double wait);

  // Window synchronisations: region ids (-1: absent) and what they found.
  int win_create_ = -1, win_fence_ = -1, win_free_ = -1;
  GroundTruth::Rma rma_;
  void instance_complete();
  // MPI collectives: per region its kind (nullptr: none), per process the leave of the
  // current instance, how many left, its root (process, -1 none).
  std::vector<const CollectiveKind*> region_kind_;
  std::vector<std::int64_t> coll_leave_;
  int coll_left_ = 0, coll_root_ = -1;
  std::vector<PatternTotal> patterns_;
  void add_pattern(const char* metric, int process, double wait);
  void judge_collective(CollectiveWait& instance);
  // The waits of the current instance by shape (gen/truth_collectives.cpp).
  void synchronising_waits(CollectiveWait& instance) const;
  void late_broadcast_waits(std::vector<double>& waits) const;
  void early_reduce_wait(std::vector<double>& waits) const;
  void early_scan_waits(std::vector<double>& waits) const;
  // Per target location: the latest release of its window's lock so far (-1: none). Locks
  // are exclusive, so every epoch acquired earlier has released when the next acquires.
  std::vector<std::int64_t> lock_released_;
  std::vector<std::int64_t> lock_held_;  // per location: the target it holds, -1 none
  void window_lock(const WriterEvent& e, const std::vector<Frame>& stack);
};

}  // namespace earl::gen
