#pragma once
// `earl gen`: reproducible synthetic MPI-like traces with known, injected inefficiencies.
// The program model below is gen/program.cpp's, which orders its phases; each phase has a
// file of its own (round_plan, compute_phase, thread_team, blocking_exchange,
// late_receivers, nonblocking_exchange, window, fence_epoch, lock_epochs, collective_phase)
// over the state they share (program_state: options, random stream, clocks, events).
//
// The simulated program runs on N locations. `main` spans the whole run on every location,
// inside the program frame of gen/program_frame.h (MPI_Init first and MPI_Finalize last in
// main, ProgramBegin/ProgramEnd around it, as Score-P records an MPI program); each round is
//
//   step
//     compute
//       kernel (1 .. max_kernels instances)
//     exchange
//       MPI_Send ...   (one send event inside each instance)
//       MPI_Recv ...   (one recv event inside each instance)
//     [fence epoch]  [lock epochs]   (optional one-sided phases, below)
//     update
//   MPI_Allreduce or MPI_Barrier   (all locations exit together after the last one entered;
//                                   with `collectives`, the kinds listed, in turn: below)
//
// Point-to-point pattern "ring": every location sends one message (tag 100) to its right
// neighbour and receives one from its left; "neighbors": additionally one message (tag 101)
// to the left neighbour, received from the right. Every location sends before it receives,
// so the receive times follow from the sends of the same round.
//
// Injected inefficiencies (each per location and round, seeded):
// - late sender: the last kernel before the sends takes `late_sender_us` (exponential mean)
//   longer, so MPI_Send is entered after the receiver entered MPI_Recv;
// - out of order: the location sends two more messages to its right neighbour, tags 200 then
//   201, which receives 201 first;
// - imbalance: `update` takes `imbalance_us` (exponential mean) longer, so the others wait
//   in the collective that ends the round;
// - late receiver (`late_receiver_rate` > 0, off by default; blocking exchange only): the
//   process sends its first message (tag 100, to its right neighbour) with MPI_Ssend, and
//   the neighbour enters the MPI_Recv taking it `late_receiver_us` (exponential mean) later
//   than it would have; the MPI_Ssend leaves only after that enter. Never two neighbours in
//   a row in one round (drawn in process order), so an Ssend's receiver has sent all its
//   messages when it posts and no chain of Ssends waits around the ring. The ground truth
//   judges every blocking send (MPI_Send too) by Scalasca's Late Receiver: enter of the
//   MPI_Recv - enter of the send call, when the call left after that enter.
//
// Rounds never overlap in time (each ends with the collective), so only one round's events
// are held and sorted by (time, location, sequence) before they go to the sinks.
//
// Shapes for scale tests (both off by default, leaving the output unchanged):
// - in flight (`in_flight` K > 0): in every round's exchange the processes send K more
//   messages to their right neighbours (K/N each, tag 300, or 1000 + the message's number
//   in the round with `tag_per_message`) before receiving any of them, so about K messages
//   are in flight at once (the ground truth's max_in_flight says exactly how many);
// - recursion (`depth` D > 0): each compute phase of a master thread enters region
//   `recursion` D times nested before its kernels and leaves it after them.
//
// Threads (`threads` T > 1): every simulated MPI process has T locations, numbered
// process-major (location p*T + k is thread k of process p; thread 0, the master thread, is
// the one that does everything above). In each compute phase the master forks a team
// (fork, team size T), enters region `parallel` and runs its kernels there; each other
// thread of the team enters `parallel` after the fork, runs the same number of kernels
// and leaves; the master leaves `parallel` and joins (join, team size T) after the last
// team member has left. The worker threads do nothing else; collectives and messages stay
// on the master threads. With T = 1 (the default) nothing of this exists and the output
// is unchanged.
//
// One-sided fence epochs (`rma_every` k > 0, off by default): the master threads create
// one window collectively (MPI_Win_create) after entering main and free it (MPI_Win_free)
// before leaving main. Every k-th round has, between its exchange and its update,
//
//     MPI_Win_fence           (opening; all leave after the last one entered)
//     MPI_Put ...             (`rma_puts` puts to the right neighbour, each completed inside)
//     epoch_work              (update_us +- jitter, plus the injected fence imbalance)
//     MPI_Win_fence           (closing; all leave after the last one entered)
//
// - fence imbalance: epoch_work takes `fence_imbalance_us` (exponential mean) longer on a
//   process with probability `fence_imbalance_rate`, so the others wait in the closing
//   fence. The ground truth holds each window call's wait per process (latest enter - own
//   enter: Scalasca's Wait at Fence/Create/Free).
//
// Passive-target lock epochs (`lock_every` k > 0, off by default, on the same window):
// every k-th round has, after its exchange (and fence epoch), on every master thread
//
//     MPI_Win_lock            (exclusive lock of the window at one target process, the
//                              next one each time: requested at the enter, acquired when
//                              the previous holder released it, in order of request)
//     MPI_Put                 (to the target)
//     locked_work             (update_us +- jitter, plus the injected hold)
//     MPI_Win_unlock          (releases the lock)
//
// - lock hold: locked_work takes `lock_hold_us` (exponential mean) longer with probability
//   `lock_hold_rate`, so later requesters wait longer. The ground truth holds every epoch
//   that waited (Scalasca's Lock Competition: min(latest release of the epochs acquired
//   before, acquisition) - enter of MPI_Win_lock).
//
// Either option creates the window (and defines all its regions). OTF2 writes the window
// and its RMA records (formats/otf2/otf2_writer.h); ALOG, which has none, the regions only.
//
// Non-blocking exchange (`nonblocking`, off by default): the exchange becomes
//
//   exchange
//     MPI_Irecv ...      (one per message the location receives, in receive order)
//     MPI_Isend ...      (one send event each, as MPI_Send had)
//     MPI_Waitall        (completes the sends, then every receive but the last)
//     MPI_Wait           (completes the last receive)
//
// so a late sender makes the receiver wait in MPI_Wait or MPI_Waitall. A send completes
// only once its receive is posted (rendezvous), so a receiver that posts late keeps the
// sender in MPI_Waitall (Scalasca's Late Receiver there, in the truth). The ground truth's
// late senders follow Scalasca: a receive completed in MPI_Wait waited min(enter of the
// send's call, leave of the wait) - enter of the wait; MPI_Waitall counts only the largest
// such wait of the messages it completes, once. OTF2 links requests (MpiIsend/
// MpiIsendComplete, MpiIrecvRequest/MpiIrecv); ALOG has the sends and receives only.
//
// Collective kinds (`collectives`, a comma list of gen/collective_kinds.h's names; empty, the
// default: MPI_Allreduce, every barrier_every-th round MPI_Barrier): round r ends with the
// list's kind r mod length. Rooted kinds have MPI_COMM_WORLD rank r mod N as root. After
// entering, each process leaves `cost` after the enters it waits for: barrier and N x N
// (allreduce, allgather, alltoall) after the last one's; bcast/scatter non-roots after the
// root's (the root after its own); reduce/gather the root after the last one's (the others
// after their own); scan/exscan rank r after those of ranks 0..r, in rank order. The next
// round starts after the last process left (who left earlier is in main meanwhile), so
// rounds still never overlap. The imbalance before the collective thus becomes Scalasca's
// wait of the kind, which the ground truth computes per instance (gen/truth.h).
//
// Ranks (`permute_ranks`): MPI_COMM_WORLD's rank r is process rank_process[r], a seeded
// permutation that is never the identity. Only formats with communicators (OTF2) show it;
// events, locations and the ground truth do not change.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "format_interface/trace_writer.h"

namespace earl::gen {

// The defaults are the initializers below; names, help texts and valid ranges are in
// gen/options.h.
struct GenOptions {
  int locations = 4;
  std::int64_t events = 10000;  // approximate target: whole rounds until reached
  std::uint64_t seed = 1;
  std::string format = "alog";
  std::int64_t rollover = 0;    // microseconds; 0 = no roll-over (cycle always 0)
  std::string byte_order = "little";  // EPILOG's numbers: "little" or "big"
  std::string pattern = "ring";  // "ring" or "neighbors"
  int threads = 1;               // locations per process (see above)
  bool permute_ranks = false;    // MPI_COMM_WORLD ranks permuted against processes

  int max_kernels = 3;           // kernel instances per compute: uniform 1..max_kernels per round
  std::int64_t kernel_us = 100;  // kernel duration, +- jitter
  double jitter = 0.05;          // relative, for kernel and update durations
  std::int64_t update_us = 50;
  std::int64_t msg_bytes = 4096;  // message length uniform in [msg_bytes/2, 3*msg_bytes/2]
  std::int64_t latency_us = 5;    // >= 1: a receive is always later than its send
  std::int64_t bandwidth = 1000;  // bytes per microsecond (copy and transfer cost)
  int barrier_every = 4;          // every k-th collective is MPI_Barrier (0: never)
  std::string collectives;        // kinds cycled per round (gen/collective_kinds.h); "": as above
  std::int64_t in_flight = 0;     // extra messages per round, all in flight at once
  bool tag_per_message = false;   // each of them with its own tag
  std::int64_t depth = 0;         // nested recursion levels per compute phase

  double late_sender_rate = 0.1;
  std::int64_t late_sender_us = 400;
  double late_receiver_rate = 0.0;   // off by default, leaving the output unchanged
  std::int64_t late_receiver_us = 300;
  double out_of_order_rate = 0.05;
  double imbalance_rate = 0.1;
  std::int64_t imbalance_us = 800;

  // One-sided fence epochs (off by default, leaving the output unchanged).
  std::int64_t rma_every = 0;          // every k-th round has one (0: never)
  int rma_puts = 1;                    // MPI_Put calls per process and epoch
  double fence_imbalance_rate = 0.3;   // per process and epoch: longer work before the closing fence
  std::int64_t fence_imbalance_us = 300;

  // Non-blocking exchange (off by default): MPI_Irecv/MPI_Isend, MPI_Waitall, MPI_Wait.
  bool nonblocking = false;

  // Passive-target lock epochs (off by default).
  std::int64_t lock_every = 0;       // every k-th round has one (0: never)
  double lock_hold_rate = 0.3;       // per process and epoch: longer work holding the lock
  std::int64_t lock_hold_us = 200;

  // Clocks that disagree (gen/clock_skew.h): the written times only; 0 = exact clocks.
  double clock_offset = 0.0;  // seconds: each process' offset uniform in [0, this]
  double clock_drift = 0.0;   // ppm: each process' drift uniform in [-this, this]

  std::int64_t truth_limit = 10000;  // at most this many entries per ground-truth list

  // Called every few thousand events with the part of `events` written (0..1); may throw
  // (e.g. Interrupted) to stop.
  std::function<void(double fraction)> poll;

  // EarlError naming the first bad option.
  void validate() const;
};

struct GenSummary {
  std::uint64_t events = 0;
  std::uint64_t rounds = 0;
  std::uint64_t messages = 0;
  std::uint64_t injected_late_senders = 0;
  std::uint64_t injected_out_of_order = 0;
  std::uint64_t injected_imbalance = 0;
  std::uint64_t injected_fence_imbalance = 0;
  std::uint64_t injected_lock_hold = 0;
  std::uint64_t injected_late_receivers = 0;
};

// Region ids of the program model, in definition order. kParallel exists only when
// threads > 1 (the header of a single-threaded run is the same as it always was).
enum GenRegion : int {
  kMain, kStep, kCompute, kKernel, kExchange, kUpdate, kMpiSend, kMpiRecv, kMpiAllreduce,
  kMpiBarrier, kMpiInit, kMpiFinalize, kRegionCount, kParallel = kRegionCount
};

// The header of a run: `locations` MPI processes of `threads` locations each, the program
// model's regions, and those of the shapes the options turn on (recursion, the window's
// calls with TraceHeader::rma_window, the non-blocking calls, the lock calls) after them.
TraceHeader program_header(const GenOptions& options);

// MPI_COMM_WORLD's rank -> process for permute_ranks (seeded, never the identity for >= 2
// processes).
std::vector<int> permuted_ranks(int processes, std::uint64_t seed);

// Runs the program model and feeds every sink (begin, write per round, finish).
GenSummary run_program(const GenOptions& options, const std::vector<TraceWriter*>& sinks);

struct GroundTruth;

// What generate() made: the summary and the ground truth of the written trace.
struct GenResult {
  GenSummary summary;
  std::shared_ptr<const GroundTruth> truth;  // gen/truth.h
};

// Writes the trace in options.format to trace_path. `keep`, when given, receives the result
// once the trace is complete but still under its staging name (output/staged_output.h; the
// Python binding writes the truth file there); then the trace is put under trace_path. When
// it or anything before it throws, the staged trace is removed (an old file at trace_path
// stays as it was) and the exception propagates.
GenResult generate(const GenOptions& options, const std::string& trace_path,
                   const std::function<void(const GenResult&)>& keep = {});

}  // namespace earl::gen
