#include "gen/generator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "gen/collective_kinds.h"
#include "gen/options.h"
#include "gen/rng.h"
#include "gen/clock_skew.h"
#include "gen/truth.h"
#include "model/error.h"
#include "registry/format_registry.h"

namespace earl::gen {

namespace {

constexpr int kTagRight = 100, kTagLeft = 101, kTagPairFirst = 200, kTagPairSecond = 201;
constexpr int kTagInFlight = 300, kFirstOwnTag = 1000;
constexpr std::int64_t kStartUs = 1000;

[[noreturn]] void bad(const std::string& what) { throw EarlError("earl gen: " + what); }

struct Message {
  int src, dest, tag;
  std::int64_t len;
  std::int64_t send_time;
  std::int64_t send_request = -1, recv_request = -1;  // non-blocking exchange
};

struct LocationPlan {
  int kernels;
  std::int64_t late_delay;
  bool out_of_order;
  std::int64_t imbalance;
};

class Program {
 public:
  Program(const GenOptions& options, const std::vector<TraceWriter*>& sinks)
      : o_(options), sinks_(sinks), rng_(options.seed), n_(options.locations), t_(options.threads) {
    const int all = n_ * t_;  // every location, worker threads included
    neighbors_ = o_.pattern == "neighbors";
    // One multiplication each, computed once (deterministic on IEEE doubles).
    kernel_jitter_ = static_cast<std::int64_t>(std::floor(static_cast<double>(o_.kernel_us) * o_.jitter));
    update_jitter_ = static_cast<std::int64_t>(std::floor(static_cast<double>(o_.update_us) * o_.jitter));
    clock_.assign(all, kStartUs);
    seq_.assign(all, 0);
    plan_.resize(n_);
    outgoing_.resize(n_);
    incoming_.resize(n_);
    coll_enter_.assign(n_, 0);
    ssender_.assign(n_, 0);
    recv_delay_.assign(n_, 0);
    posted_.assign(n_, -1);
    put_ids_.assign(n_, 0);
    next_request_.assign(n_, 0);
    last_.assign(all, -1);
    pair_index_.resize(2 * static_cast<std::size_t>(n_));
    right_index_.resize(n_);
    left_index_.resize(n_);
  }

  GenSummary run() {
    TraceHeader header = program_header(o_);
    // The regions of optional shapes by name (-1 where the run has none).
    auto id = [&](const char* name) {
      for (std::size_t r = 0; r < header.regions.size(); ++r)
        if (header.regions[r].name == name) return static_cast<int>(r);
      return -1;
    };
    recursion_region_ = id("recursion");
    win_create_ = id("MPI_Win_create");
    win_fence_ = id("MPI_Win_fence");
    put_ = id("MPI_Put");
    win_free_ = id("MPI_Win_free");
    epoch_work_ = id("epoch_work");
    win_lock_ = id("MPI_Win_lock");
    win_unlock_ = id("MPI_Win_unlock");
    locked_work_ = id("locked_work");
    isend_ = id("MPI_Isend");
    irecv_ = id("MPI_Irecv");
    wait_ = id("MPI_Wait");
    waitall_ = id("MPI_Waitall");
    ssend_ = id("MPI_Ssend");
    for (const CollectiveKind* kind : parse_collectives(o_.collectives)) {
      kinds_.push_back(kind);
      kind_region_.push_back(id(kind->region));
    }
    const bool rma = header.rma_window;
    if (o_.permute_ranks) header.rank_process = permuted_ranks(n_, o_.seed);
    rank_process_ = header.rank_process;
    if (rank_process_.empty())
      for (int r = 0; r < n_; ++r) rank_process_.push_back(r);
    for (TraceWriter* sink : sinks_) sink->begin(header);

    // main enters go out with the first round (their times interleave with it).
    for (int l = 0; l < n_; ++l)
      emit(master(l), WriterEventKind::Enter, kMain, clock_[master(l)] + rng_.uniform(0, 3));
    if (rma) window_call(win_create_);

    const std::uint64_t target = static_cast<std::uint64_t>(o_.events);
    std::uint64_t next_poll = 1 << 16;
    while (summary_.events + round_.size() + static_cast<std::uint64_t>(n_) < target) {
      round(summary_.rounds);
      ++summary_.rounds;
      flush();
      if (o_.poll && summary_.events >= next_poll) {
        o_.poll(std::min(1.0, static_cast<double>(summary_.events) / static_cast<double>(target)));
        next_poll = summary_.events + (1 << 16);
      }
    }
    if (rma) window_call(win_free_);
    for (int l = 0; l < n_; ++l)
      emit(master(l), WriterEventKind::Exit, kMain, clock_[master(l)] + rng_.uniform(1, 5));
    flush();
    for (TraceWriter* sink : sinks_) sink->finish();
    return summary_;
  }

 private:
  // Appends an event of location l at time t (strictly after l's previous event).
  WriterEvent& emit(int l, WriterEventKind kind, int region, std::int64_t t) {
    if (t <= last_[l]) t = last_[l] + 1;
    last_[l] = t;
    clock_[l] = t;
    WriterEvent e;
    e.time = t;
    e.loc = l;
    e.kind = kind;
    e.region = region;
    e.seq = seq_[l]++;
    round_.push_back(e);
    return round_.back();
  }

  // The master thread (the MPI rank's location) of process r.
  int master(int r) const { return r * t_; }

  std::int64_t jittered(std::int64_t base, std::int64_t jitter) {
    return std::max<std::int64_t>(1, base + rng_.uniform(-jitter, jitter));
  }

  std::int64_t copy_cost(std::int64_t len) const { return len / o_.bandwidth; }

  void round(std::uint64_t r) {
    // Decisions for this round, drawn in location order. Every location runs the same
    // number of kernels (balanced work up to jitter).
    const int kernels = static_cast<int>(rng_.uniform(1, o_.max_kernels));
    for (int l = 0; l < n_; ++l) {
      LocationPlan& p = plan_[l];
      p.kernels = kernels;
      p.late_delay = rng_.bernoulli(o_.late_sender_rate) ? 1 + rng_.exponential(o_.late_sender_us) : 0;
      p.out_of_order = rng_.bernoulli(o_.out_of_order_rate);
      p.imbalance = rng_.bernoulli(o_.imbalance_rate) ? 1 + rng_.exponential(o_.imbalance_us) : 0;
      summary_.injected_late_senders += p.late_delay > 0;
      summary_.injected_out_of_order += p.out_of_order;
      summary_.injected_imbalance += p.imbalance > 0;
    }

    // The messages of this round: send order per source, receive order per destination.
    messages_.clear();
    for (int l = 0; l < n_; ++l) {
      outgoing_[l].clear();
      incoming_[l].clear();
    }
    auto add = [&](int src, int dest, int tag) {
      const std::int64_t len = rng_.uniform(o_.msg_bytes / 2, o_.msg_bytes + o_.msg_bytes / 2);
      messages_.push_back({src, dest, tag, len, 0});
      outgoing_[src].push_back(messages_.size() - 1);
      return messages_.size() - 1;
    };
    std::vector<std::size_t>& pair_index = pair_index_;
    std::vector<std::size_t>& right_index = right_index_;
    std::vector<std::size_t>& left_index = left_index_;
    std::fill(pair_index.begin(), pair_index.end(), SIZE_MAX);
    std::fill(left_index.begin(), left_index.end(), SIZE_MAX);
    for (int l = 0; l < n_; ++l) {
      const int right = (l + 1) % n_, left = (l + n_ - 1) % n_;
      right_index[l] = add(l, right, kTagRight);
      if (plan_[l].out_of_order) {
        pair_index[2 * l] = add(l, right, kTagPairFirst);
        pair_index[2 * l + 1] = add(l, right, kTagPairSecond);
      }
      if (neighbors_) left_index[l] = add(l, left, kTagLeft);
    }
    // The in-flight messages: K/N per process (the first K mod N one more), numbered in
    // the round.
    std::vector<std::size_t> flood_first(n_ + 1, messages_.size());
    for (int l = 0; l < n_; ++l) {
      const std::int64_t count = o_.in_flight / n_ + (l < o_.in_flight % n_ ? 1 : 0);
      for (std::int64_t k = 0; k < count; ++k) {
        const int number = static_cast<int>(messages_.size() - flood_first[0]);
        add(l, (l + 1) % n_, o_.tag_per_message ? kFirstOwnTag + number : kTagInFlight);
      }
      flood_first[l + 1] = messages_.size();
    }
    for (int d = 0; d < n_; ++d) {
      const int left = (d + n_ - 1) % n_, right = (d + 1) % n_;
      incoming_[d].push_back(right_index[left]);
      if (plan_[left].out_of_order) {
        incoming_[d].push_back(pair_index[2 * left + 1]);  // the second one first
        incoming_[d].push_back(pair_index[2 * left]);
      }
      if (neighbors_) incoming_[d].push_back(left_index[right]);
      for (std::size_t index = flood_first[left]; index < flood_first[left + 1]; ++index)
        incoming_[d].push_back(index);
    }

    draw_late_receivers();

    // Phase 1: computation and sends (they depend on nothing but the location itself).
    for (int proc = 0; proc < n_; ++proc) {
      const LocationPlan& p = plan_[proc];
      const int l = master(proc);
      emit(l, WriterEventKind::Enter, kStep, clock_[l] + rng_.uniform(1, 3));
      emit(l, WriterEventKind::Enter, kCompute, clock_[l] + rng_.uniform(1, 2));
      std::int64_t team_end = 0;
      if (t_ > 1) team_end = fork_team(l, p.kernels);
      for (std::int64_t level = 0; level < o_.depth; ++level)
        emit(l, WriterEventKind::Enter, recursion_region_, clock_[l] + rng_.uniform(1, 2));
      for (int k = 0; k < p.kernels; ++k) {
        emit(l, WriterEventKind::Enter, kKernel, clock_[l] + rng_.uniform(1, 2));
        std::int64_t d = jittered(o_.kernel_us, kernel_jitter_);
        if (k == p.kernels - 1) d += p.late_delay;
        emit(l, WriterEventKind::Exit, kKernel, clock_[l] + d);
      }
      for (std::int64_t level = 0; level < o_.depth; ++level)
        emit(l, WriterEventKind::Exit, recursion_region_, clock_[l] + rng_.uniform(1, 2));
      if (t_ > 1) {
        emit(l, WriterEventKind::Exit, kParallel, clock_[l] + rng_.uniform(1, 2));
        emit(l, WriterEventKind::Join, -1, std::max(clock_[l], team_end) + rng_.uniform(1, 2)).tag = t_;
      }
      emit(l, WriterEventKind::Exit, kCompute, clock_[l] + rng_.uniform(1, 2));
      emit(l, WriterEventKind::Enter, kExchange, clock_[l] + rng_.uniform(1, 2));
      if (o_.nonblocking) {
        post_nonblocking(proc);
        continue;
      }
      if (ssender_[proc]) {
        // Its first message goes with MPI_Ssend, which leaves once the receive is posted
        // (late_receivers(), after every process' phase 1); the other sends follow then.
        begin_send(proc, outgoing_[proc].front(), ssend_);
        continue;
      }
      send_from(proc, 0);
    }

    // Phase 2: receives (after the matching sends), update, and entering the collective.
    // A fence epoch synchronises all processes between their receives and their updates;
    // without one each process goes on alone, its random draws in the order they always had.
    const CollectiveKind* kind = kinds_.empty() ? nullptr : kinds_[r % kinds_.size()];
    const int collective =
        kind ? kind_region_[r % kinds_.size()]
        : o_.barrier_every > 0 && (r + 1) % static_cast<std::uint64_t>(o_.barrier_every) == 0
            ? kMpiBarrier
            : kMpiAllreduce;
    const bool rma_round =
        o_.rma_every > 0 && (r + 1) % static_cast<std::uint64_t>(o_.rma_every) == 0;
    const bool lock_round =
        o_.lock_every > 0 && (r + 1) % static_cast<std::uint64_t>(o_.lock_every) == 0;
    late_receivers();
    if (rma_round || lock_round) {
      for (int proc = 0; proc < n_; ++proc) receive(proc);
      if (rma_round) fence_epoch();
      if (lock_round) lock_epochs();
      for (int proc = 0; proc < n_; ++proc) finish_step(proc, collective);
    } else {
      for (int proc = 0; proc < n_; ++proc) {
        receive(proc);
        finish_step(proc, collective);
      }
    }

    if (kind) {
      end_collective(*kind, collective, r);
      summary_.messages += messages_.size();
      return;
    }
    // Phase 3: everybody leaves the collective together, after the last one entered.
    // (An allreduce of one double: 8 bytes sent and received per rank; a barrier moves none.)
    const std::int64_t latest = *std::max_element(coll_enter_.begin(), coll_enter_.end());
    const std::int64_t cost = collective == kMpiBarrier ? rng_.uniform(2, 6) : rng_.uniform(5, 20);
    for (int proc = 0; proc < n_; ++proc) {
      WriterEvent& e = emit(master(proc), WriterEventKind::Exit, collective, latest + cost);
      e.flags = kWriterCollective;
      e.len = collective == kMpiBarrier ? 0 : 8;
      e.received = e.len;
      e.peer = -1;
    }
    summary_.messages += messages_.size();
  }

  // Phase 3 with --collectives: each process leaves `cost` after the enters it waits for
  // (gen/collective_kinds.h: all of them, the root's, or its own rank's and the lower
  // ranks'); the root is MPI_COMM_WORLD rank r mod N. The next round starts after the last
  // one left, so that rounds never overlap (who left earlier idles in main meanwhile).
  void end_collective(const CollectiveKind& kind, int region, std::uint64_t r) {
    const int root_rank = static_cast<int>(r % static_cast<std::uint64_t>(n_));
    const int root = rank_process_[root_rank];
    const std::int64_t cost = kind.shape == CollectiveShape::Barrier ? rng_.uniform(2, 6) : rng_.uniform(5, 20);
    std::vector<std::int64_t>& leave = coll_leave_;
    leave.assign(n_, 0);
    const std::int64_t latest = *std::max_element(coll_enter_.begin(), coll_enter_.end());
    std::int64_t latest_sender = 0, running = 0;
    for (int proc = 0; proc < n_; ++proc)
      if (proc != root) latest_sender = std::max(latest_sender, coll_enter_[proc]);
    for (int rank = 0; rank < n_; ++rank) {
      const int proc = rank_process_[rank];
      running = std::max(running, coll_enter_[proc]);
      switch (kind.shape) {
        case CollectiveShape::Barrier:
        case CollectiveShape::NxN: leave[proc] = latest + cost; break;
        case CollectiveShape::OneToN:
          leave[proc] = std::max(coll_enter_[proc], coll_enter_[root]) + cost;
          break;
        case CollectiveShape::NToOne:
          leave[proc] = (proc == root ? std::max(coll_enter_[proc], latest_sender) : coll_enter_[proc]) + cost;
          break;
        case CollectiveShape::Scan: leave[proc] = running + cost; break;
      }
    }
    std::int64_t round_end = 0;
    for (int rank = 0; rank < n_; ++rank) {
      const int proc = rank_process_[rank];
      const CollectiveBytes bytes = collective_bytes(kind, proc == root, rank, n_);
      WriterEvent& e = emit(master(proc), WriterEventKind::Exit, region, leave[proc]);
      e.flags = kWriterCollective;
      e.len = bytes.sent;
      e.received = bytes.received;
      e.peer = is_rooted(kind.shape) ? master(root) : -1;
      round_end = std::max(round_end, e.time);
    }
    for (int proc = 0; proc < n_; ++proc) clock_[master(proc)] = std::max(clock_[master(proc)], round_end);
  }

  // The blocking sends of process `proc` from its `first` outgoing message on.
  void send_from(int proc, std::size_t first) {
    const int l = master(proc);
    for (std::size_t i = first; i < outgoing_[proc].size(); ++i) {
      const Message& m = messages_[outgoing_[proc][i]];
      begin_send(proc, outgoing_[proc][i], kMpiSend);
      emit(l, WriterEventKind::Exit, kMpiSend, clock_[l] + rng_.uniform(1, 3) + copy_cost(m.len));
    }
  }

  // Enter of a blocking send call and its send event.
  void begin_send(int proc, std::size_t index, int region) {
    const int l = master(proc);
    Message& m = messages_[index];
    emit(l, WriterEventKind::Enter, region, clock_[l] + rng_.uniform(1, 2));
    WriterEvent& e = emit(l, WriterEventKind::Send, -1, clock_[l] + rng_.uniform(1, 2));
    e.peer = master(m.dest);
    e.tag = m.tag;
    e.len = m.len;
    m.send_time = e.time;
  }

  // Which processes send their first message (to the right neighbour, received first
  // there) with MPI_Ssend this round: drawn per process in order, never one whose left or
  // right neighbour already does (an Ssend's receiver sends all its messages first, so no
  // chain of Ssends waits around the ring); the receiver's delay before it posts.
  void draw_late_receivers() {
    std::fill(ssender_.begin(), ssender_.end(), 0);
    std::fill(recv_delay_.begin(), recv_delay_.end(), 0);
    if (o_.late_receiver_rate <= 0) return;
    for (int l = 0; l < n_; ++l) {
      const int left = (l + n_ - 1) % n_, right = (l + 1) % n_;
      if (!rng_.bernoulli(o_.late_receiver_rate) || ssender_[left] || ssender_[right]) continue;
      ssender_[l] = 1;
      recv_delay_[right] = 1 + rng_.exponential(o_.late_receiver_us);
      ++summary_.injected_late_receivers;
    }
  }

  // Before the receives: every late receiver enters the MPI_Recv of its first message
  // after its delay, then each MPI_Ssend leaves after its receive was posted and its
  // process sends the rest.
  void late_receivers() {
    for (int proc = 0; proc < n_; ++proc) {
      posted_[proc] = -1;
      if (recv_delay_[proc] == 0) continue;
      const int l = master(proc);
      posted_[proc] = emit(l, WriterEventKind::Enter, kMpiRecv, clock_[l] + rng_.uniform(1, 2) + recv_delay_[proc]).time;
    }
    for (int proc = 0; proc < n_; ++proc) {
      if (!ssender_[proc]) continue;
      const int l = master(proc);
      const Message& m = messages_[outgoing_[proc].front()];
      const std::int64_t own = clock_[l] + rng_.uniform(1, 3) + copy_cost(m.len);
      const std::int64_t matched = posted_[m.dest] + rng_.uniform(1, 3);
      emit(l, WriterEventKind::Exit, ssend_, std::max(own, matched));
      send_from(proc, 1);
    }
  }

  // Phase 2 of a round, first part: the receives of process `proc` (after the matching
  // sends) and the end of its exchange.
  void receive(int proc) {
    if (o_.nonblocking) {
      complete_nonblocking(proc);
      return;
    }
    const int l = master(proc);
    for (std::size_t index : incoming_[proc]) {
      const Message& m = messages_[index];
      if (index != incoming_[proc].front() || posted_[proc] < 0)  // a late receiver entered already
        emit(l, WriterEventKind::Enter, kMpiRecv, clock_[l] + rng_.uniform(1, 2));
      const std::int64_t arrival = m.send_time + o_.latency_us + copy_cost(m.len);
      WriterEvent& e = emit(l, WriterEventKind::Recv, -1, std::max(clock_[l] + rng_.uniform(1, 2), arrival));
      e.peer = master(m.src);
      e.tag = m.tag;
      e.len = m.len;
      emit(l, WriterEventKind::Exit, kMpiRecv, clock_[l] + rng_.uniform(1, 3));
    }
    emit(l, WriterEventKind::Exit, kExchange, clock_[l] + rng_.uniform(1, 2));
  }

  // Phase 2, second part: update, end of the step, entering the collective.
  void finish_step(int proc, int collective) {
    const int l = master(proc);
    emit(l, WriterEventKind::Enter, kUpdate, clock_[l] + rng_.uniform(1, 2));
    emit(l, WriterEventKind::Exit, kUpdate, clock_[l] + jittered(o_.update_us, update_jitter_) + plan_[proc].imbalance);
    emit(l, WriterEventKind::Exit, kStep, clock_[l] + rng_.uniform(1, 2));
    WriterEvent& enter = emit(l, WriterEventKind::Enter, collective, clock_[l] + rng_.uniform(1, 3));
    enter.flags = kWriterCollective;
    coll_enter_[proc] = enter.time;
  }

  // Non-blocking exchange, first part: MPI_Irecv for every message the process receives
  // (in receive order), then MPI_Isend for every message it sends.
  void post_nonblocking(int proc) {
    const int l = master(proc);
    for (std::size_t index : incoming_[proc]) {
      Message& m = messages_[index];
      emit(l, WriterEventKind::Enter, irecv_, clock_[l] + rng_.uniform(1, 2));
      m.recv_request = next_request_[proc]++;
      emit(l, WriterEventKind::IrecvRequest, -1, clock_[l] + 1).request = m.recv_request;
      emit(l, WriterEventKind::Exit, irecv_, clock_[l] + rng_.uniform(1, 2));
    }
    for (std::size_t index : outgoing_[proc]) {
      Message& m = messages_[index];
      emit(l, WriterEventKind::Enter, isend_, clock_[l] + rng_.uniform(1, 2));
      m.send_request = next_request_[proc]++;
      WriterEvent& e = emit(l, WriterEventKind::Send, -1, clock_[l] + rng_.uniform(1, 2));
      e.peer = master(m.dest);
      e.tag = m.tag;
      e.len = m.len;
      e.request = m.send_request;
      m.send_time = e.time;
      emit(l, WriterEventKind::Exit, isend_, clock_[l] + rng_.uniform(1, 3) + copy_cost(m.len));
    }
  }

  // Non-blocking exchange, second part: one MPI_Waitall for the sends and every receive
  // but the last (several from one source: its largest wait counts), then MPI_Wait for
  // the last receive; the end of the exchange.
  void complete_nonblocking(int proc) {
    const int l = master(proc);
    auto receive_one = [&](std::size_t index) {
      const Message& m = messages_[index];
      const std::int64_t arrival = m.send_time + o_.latency_us + copy_cost(m.len);
      WriterEvent& e = emit(l, WriterEventKind::Recv, -1, std::max(clock_[l] + rng_.uniform(1, 2), arrival));
      e.peer = master(m.src);
      e.tag = m.tag;
      e.len = m.len;
      e.request = m.recv_request;
    };
    const std::vector<std::size_t>& incoming = incoming_[proc];
    emit(l, WriterEventKind::Enter, waitall_, clock_[l] + rng_.uniform(1, 2));
    for (std::size_t index : outgoing_[proc])
      emit(l, WriterEventKind::IsendComplete, -1, clock_[l] + rng_.uniform(1, 2)).request =
          messages_[index].send_request;
    for (std::size_t i = 0; i + 1 < incoming.size(); ++i) receive_one(incoming[i]);
    emit(l, WriterEventKind::Exit, waitall_, clock_[l] + rng_.uniform(1, 3));
    emit(l, WriterEventKind::Enter, wait_, clock_[l] + rng_.uniform(1, 2));
    receive_one(incoming.back());
    emit(l, WriterEventKind::Exit, wait_, clock_[l] + rng_.uniform(1, 3));
    emit(l, WriterEventKind::Exit, kExchange, clock_[l] + rng_.uniform(1, 2));
  }

  // One MPI_Put of process `proc` to process `target`, completed inside the call.
  void put(int proc, int target) {
    const int l = master(proc);
    emit(l, WriterEventKind::Enter, put_, clock_[l] + rng_.uniform(1, 2));
    const std::int64_t len = rng_.uniform(o_.msg_bytes / 2, o_.msg_bytes + o_.msg_bytes / 2);
    WriterEvent& e = emit(l, WriterEventKind::RmaPut, -1, clock_[l] + 1);
    e.peer = master(target);
    e.len = len;
    e.tag = put_ids_[proc];
    emit(l, WriterEventKind::RmaPutComplete, -1, clock_[l] + rng_.uniform(1, 2) + copy_cost(len)).tag =
        put_ids_[proc]++;
    emit(l, WriterEventKind::Exit, put_, clock_[l] + rng_.uniform(1, 2));
  }

  // Every process locks the window of this phase's target exclusively, puts to it, works
  // and unlocks. The lock goes to the requesters in order of request (ties: lower process
  // first), each when the previous holder has released it.
  void lock_epochs() {
    const int target = static_cast<int>(lock_phases_++ % static_cast<std::uint64_t>(n_));
    std::vector<std::pair<std::int64_t, int>> requests;
    for (int proc = 0; proc < n_; ++proc)
      requests.push_back({clock_[master(proc)] + rng_.uniform(1, 3), proc});
    std::sort(requests.begin(), requests.end());
    std::int64_t released = 0;
    for (const auto& [request, proc] : requests) {
      const int l = master(proc);
      emit(l, WriterEventKind::Enter, win_lock_, request);
      auto lock_event = [&](WriterEventKind kind, std::int64_t t) {
        WriterEvent& e = emit(l, kind, -1, t);
        e.peer = master(target);
        e.tag = 1;  // exclusive
        return e.time;
      };
      lock_event(WriterEventKind::RmaLockRequest, clock_[l] + 1);
      lock_event(WriterEventKind::RmaLockAcquire, std::max(clock_[l], released) + rng_.uniform(1, 2));
      emit(l, WriterEventKind::Exit, win_lock_, clock_[l] + rng_.uniform(1, 2));
      put(proc, target);
      const std::int64_t extra = rng_.bernoulli(o_.lock_hold_rate) ? 1 + rng_.exponential(o_.lock_hold_us) : 0;
      summary_.injected_lock_hold += extra > 0;
      emit(l, WriterEventKind::Enter, locked_work_, clock_[l] + rng_.uniform(1, 2));
      emit(l, WriterEventKind::Exit, locked_work_, clock_[l] + jittered(o_.update_us, update_jitter_) + extra);
      emit(l, WriterEventKind::Enter, win_unlock_, clock_[l] + rng_.uniform(1, 2));
      released = lock_event(WriterEventKind::RmaLockRelease, clock_[l] + rng_.uniform(1, 2));
      emit(l, WriterEventKind::Exit, win_unlock_, clock_[l] + rng_.uniform(1, 2));
    }
  }

  // One collective call on the window by every master thread: each enters when it is
  // ready, all leave together after the last one entered (create, fence and free
  // synchronise).
  void window_call(int region) {
    for (int proc = 0; proc < n_; ++proc) {
      const int l = master(proc);
      WriterEvent& e = emit(l, WriterEventKind::Enter, region, clock_[l] + rng_.uniform(1, 3));
      e.flags = kWriterRmaCollective;
      coll_enter_[proc] = e.time;
    }
    const std::int64_t latest = *std::max_element(coll_enter_.begin(), coll_enter_.end());
    const std::int64_t cost = rng_.uniform(2, 6);
    for (int proc = 0; proc < n_; ++proc)
      emit(master(proc), WriterEventKind::Exit, region, latest + cost).flags = kWriterRmaCollective;
  }

  // A fence epoch: opening fence, puts to the right neighbour, work (with the injected
  // imbalance), closing fence.
  void fence_epoch() {
    window_call(win_fence_);
    for (int proc = 0; proc < n_; ++proc) {
      const int l = master(proc);
      for (int k = 0; k < o_.rma_puts; ++k) put(proc, (proc + 1) % n_);
      const std::int64_t extra =
          rng_.bernoulli(o_.fence_imbalance_rate) ? 1 + rng_.exponential(o_.fence_imbalance_us) : 0;
      summary_.injected_fence_imbalance += extra > 0;
      emit(l, WriterEventKind::Enter, epoch_work_, clock_[l] + rng_.uniform(1, 2));
      emit(l, WriterEventKind::Exit, epoch_work_, clock_[l] + jittered(o_.update_us, update_jitter_) + extra);
    }
    window_call(win_fence_);
  }

  // Threads: the master l forks its team; every other thread of the process runs
  // `kernels` kernels in region parallel. Returns when the last of them left parallel.
  // The master then enters parallel itself (its kernels follow in the caller).
  std::int64_t fork_team(int l, int kernels) {
    WriterEvent& fork = emit(l, WriterEventKind::Fork, -1, clock_[l] + rng_.uniform(1, 2));
    fork.tag = t_;
    const std::int64_t fork_time = fork.time;
    std::int64_t team_end = 0;
    for (int k = 1; k < t_; ++k) {
      const int w = l + k;
      emit(w, WriterEventKind::Enter, kParallel, std::max(clock_[w], fork_time) + rng_.uniform(1, 3));
      for (int i = 0; i < kernels; ++i) {
        emit(w, WriterEventKind::Enter, kKernel, clock_[w] + rng_.uniform(1, 2));
        emit(w, WriterEventKind::Exit, kKernel, clock_[w] + jittered(o_.kernel_us, kernel_jitter_));
      }
      team_end = std::max(team_end, emit(w, WriterEventKind::Exit, kParallel, clock_[w] + rng_.uniform(1, 2)).time);
    }
    emit(l, WriterEventKind::Enter, kParallel, clock_[l] + rng_.uniform(1, 2));
    return team_end;
  }

  void flush() {
    std::sort(round_.begin(), round_.end(), writer_event_before);
    for (TraceWriter* sink : sinks_) sink->write(round_.data(), round_.size());
    summary_.events += round_.size();
    round_.clear();
    std::fill(seq_.begin(), seq_.end(), 0);
  }

  const GenOptions& o_;
  const std::vector<TraceWriter*>& sinks_;
  Rng rng_;
  int n_;  // MPI processes
  int t_;  // locations (threads) per process
  bool neighbors_ = false;
  int recursion_region_ = -1;
  std::int64_t kernel_jitter_ = 0, update_jitter_ = 0;
  std::vector<std::int64_t> clock_;
  std::vector<std::int64_t> last_;
  std::vector<std::uint32_t> seq_;
  std::vector<LocationPlan> plan_;
  std::vector<Message> messages_;
  std::vector<std::vector<std::size_t>> outgoing_, incoming_;
  std::vector<std::size_t> pair_index_, right_index_, left_index_;
  std::vector<std::int64_t> coll_enter_, coll_leave_;
  std::vector<const CollectiveKind*> kinds_;  // --collectives, cycled per round
  std::vector<int> kind_region_;              // their region ids
  std::vector<int> rank_process_;             // MPI_COMM_WORLD rank -> process
  int ssend_ = -1;
  std::vector<char> ssender_;                 // per process: sends its first message with MPI_Ssend
  std::vector<std::int64_t> recv_delay_;      // per process: delay before its first MPI_Recv (0: none)
  std::vector<std::int64_t> posted_;          // per process: when it entered that MPI_Recv (-1: not yet)
  std::vector<std::int32_t> put_ids_;  // per process: the next put's matching id
  int win_create_ = -1, win_fence_ = -1, put_ = -1, win_free_ = -1, epoch_work_ = -1;
  int win_lock_ = -1, win_unlock_ = -1, locked_work_ = -1;
  int isend_ = -1, irecv_ = -1, wait_ = -1, waitall_ = -1;
  std::vector<std::int64_t> next_request_;  // per process: the next request id
  std::uint64_t lock_phases_ = 0;
  std::vector<WriterEvent> round_;
  GenSummary summary_;
};

}  // namespace

void GenOptions::validate() const {
  for (const OptionSpec& spec : option_table()) check_option(spec, *this);
  // What no single row can say: options that constrain each other, and this build's writers.
  if (static_cast<std::int64_t>(locations) * threads > kMaxLocations)
    bad("locations * threads must be at most " + std::to_string(kMaxLocations));
  const std::string why = why_not_writable(format);
  if (!why.empty()) bad(why);
  parse_collectives(collectives);
  if (late_receiver_rate > 0 && nonblocking)
    bad("late_receiver_rate needs the blocking exchange (MPI_Ssend/MPI_Recv), not nonblocking");
  if (rollover != 0 && format != "alog")
    bad("rollover is an ALOG notion; format '" + format + "' has no clock roll-over");
}

GenSummary run_program(const GenOptions& options, const std::vector<TraceWriter*>& sinks) {
  options.validate();
  return Program(options, sinks).run();
}

GenResult generate(const GenOptions& options, const std::string& trace_path,
                   const std::function<void(const GenResult&)>& keep) {
  options.validate();
  if (trace_path.empty()) bad("no output path");
  std::unique_ptr<TraceWriter> writer;
  try {
    WriterOptions wo;
    wo.rollover = options.rollover;
    writer = open_writer(options.format, trace_path, wo);
    TruthCollector collector(kMpiSend, kMpiRecv, {kMpiAllreduce, kMpiBarrier}, options.truth_limit);
    std::vector<ClockSkew> skews = draw_clock_skews(options);
    SkewedWriter skewed(*writer, skews, options.threads);
    TraceWriter* file_sink = skews.empty() ? writer.get() : &skewed;
    GenResult result;
    result.summary = run_program(options, {file_sink, &collector});
    GroundTruth truth = collector.truth();
    for (const ClockSkew& skew : skews)
      truth.clocks.push_back(GroundTruth::Clock{seconds(skew.offset_us), skew.drift * 1e6});
    result.truth = std::make_shared<const GroundTruth>(std::move(truth));
    if (keep) keep(result);
    return result;
  } catch (...) {
    if (writer) writer->discard();
    throw;
  }
}

}  // namespace earl::gen
