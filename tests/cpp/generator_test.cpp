// C++ tests of the trace generator (cpp/gen/): the random numbers, the program model's
// invariants on an in-memory sink (the one-sided and non-blocking shapes too), the ALOG
// writer, option validation and what the OTF2 writer refuses.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <climits>
#include <filesystem>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <doctest/doctest.h>

#include "formats/alog/alog_writer.h"
#include "gen/collective_kinds.h"
#include "gen/generator.h"
#include "gen/rng.h"
#include "gen/truth.h"
#include "model/error.h"
#include "registry/format_registry.h"

using namespace earl;
using namespace earl::gen;

namespace {

bool throws_earl_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const earl::EarlError&) {
    return true;
  } catch (...) {
    return false;
  }
  return false;
}

// Keeps every event (small runs only).
class MemorySink : public TraceWriter {
 public:
  void begin(const TraceHeader& h) override { header = h; ++begins; }
  void write(const WriterEvent* e, std::size_t n) override {
    events.insert(events.end(), e, e + n);
    ++batches;
  }
  void finish() override { ++finishes; }
  TraceHeader header;
  std::vector<WriterEvent> events;
  int begins = 0, batches = 0, finishes = 0;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST_CASE("random numbers: pinned values, ranges, frequencies") {
  Rng a(1), b(1), c(2);
  // Pinned: the generator's output must not depend on platform or compiler.
  CHECK_MESSAGE(a.next() == 12966619160104079557ull, "xoshiro256** first value for seed 1");
  b.next();
  CHECK_MESSAGE(a.next() == b.next(), "same seed, same sequence");
  CHECK_MESSAGE(Rng(1).next() != c.next(), "different seed, different sequence");
  Rng e(42);
  const long long expected[] = {2479, 970, 386, 78, 8};
  bool same = true;
  for (long long x : expected) same = same && e.exponential(1000) == x;
  CHECK_MESSAGE(same, "exponential(1000) values for seed 42 are pinned");

  Rng r(7);
  bool in_range = true;
  long long sum = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const auto v = r.uniform(-3, 5);
    in_range = in_range && v >= -3 && v <= 5;
  }
  CHECK_MESSAGE(in_range, "uniform stays in [lo, hi]");
  for (int i = 0; i < n; ++i) sum += r.exponential(1000);
  const double mean = static_cast<double>(sum) / n;
  CHECK_MESSAGE((mean > 980 && mean < 1020), ("exponential mean is about 1000 (got " + std::to_string(mean) + ")"));
  int hits = 0;
  for (int i = 0; i < n; ++i) hits += r.bernoulli(0.25);
  CHECK_MESSAGE((hits > n / 4 - 2000 && hits < n / 4 + 2000), "bernoulli(0.25) frequency");
  CHECK_MESSAGE((!r.bernoulli(0.0) && r.bernoulli(1.0)), "bernoulli edge cases");
  CHECK_MESSAGE((r.uniform(5, 5) == 5 && r.exponential(0) == 0), "degenerate ranges");
}

void test_program_invariants(const GenOptions& o, const std::string& name) {
  MemorySink sink;
  TruthCollector truth(kMpiSend, kMpiRecv, {kMpiAllreduce, kMpiBarrier}, 100);
  GenSummary s;
  bool ok = true;
  try {
    s = run_program(o, {&sink, &truth});
  } catch (const std::exception& e) {
    MESSAGE(name << ": " << e.what());
    ok = false;
  }
  CHECK_MESSAGE(ok, (name + ": runs (the truth collector checks nesting, order and matching)"));
  if (!ok) return;
  CHECK_MESSAGE((sink.begins == 1 && sink.finishes == 1), (name + ": begin/finish once"));
  // The truth counts what ALOG holds: no ProgramBegin/End (one each per process).
  const std::uint64_t program_records = 2 * static_cast<std::uint64_t>(o.locations);
  CHECK_MESSAGE((sink.events.size() == s.events && truth.events() + program_records == s.events),
                (name + ": event counts agree"));
  CHECK_MESSAGE(s.events >= static_cast<std::uint64_t>(o.events), (name + ": target reached"));
  CHECK_MESSAGE(static_cast<int>(sink.header.regions.size()) == kRegionCount + (o.threads > 1),
        (name + ": region table"));
  CHECK_MESSAGE((sink.header.locations == o.locations * o.threads && sink.header.threads == o.threads),
        (name + ": locations and threads in the header"));

  // Global order and per-location strictly increasing times.
  bool ordered = true, strict = true, collective_together = true, flagged = true;
  std::vector<std::int64_t> last(static_cast<std::size_t>(o.locations) * o.threads, -1);
  std::vector<int> open_forks(last.size(), 0);
  bool forks_balanced = true, threads_only_compute = true;
  std::map<std::int64_t, int> collective_exits;  // time -> how many locations exit then
  for (std::size_t i = 0; i < sink.events.size(); ++i) {
    const WriterEvent& e = sink.events[i];
    if (i && e.time < sink.events[i - 1].time) ordered = false;
    if (e.time <= last[e.loc]) strict = false;
    last[e.loc] = e.time;
    const bool collective = e.region == kMpiAllreduce || e.region == kMpiBarrier;
    if (e.kind == WriterEventKind::Exit && collective) ++collective_exits[e.time];
    if ((e.kind == WriterEventKind::Enter || e.kind == WriterEventKind::Exit) &&
        collective != ((e.flags & kWriterCollective) != 0))
      flagged = false;
    if (e.kind == WriterEventKind::Fork) forks_balanced = forks_balanced && open_forks[e.loc]++ == 0;
    if (e.kind == WriterEventKind::Join) forks_balanced = forks_balanced && open_forks[e.loc]-- == 1;
    if (e.loc % o.threads != 0)
      threads_only_compute = threads_only_compute && (e.region == kKernel || e.region == kParallel) &&
                             (e.kind == WriterEventKind::Enter || e.kind == WriterEventKind::Exit);
  }
  CHECK_MESSAGE(flagged, (name + ": exactly the collective enters and exits carry kWriterCollective"));
  CHECK_MESSAGE(forks_balanced, (name + ": forks and joins alternate on every location"));
  CHECK_MESSAGE(threads_only_compute, (name + ": worker threads only run kernels in parallel"));
  for (const auto& [t, k] : collective_exits) collective_together = collective_together && k == o.locations;
  CHECK_MESSAGE(ordered, (name + ": times never decrease in output order"));
  CHECK_MESSAGE(strict, (name + ": times strictly increase per location"));
  CHECK_MESSAGE(collective_together, (name + ": every collective is left by all locations at once"));
  CHECK_MESSAGE(collective_exits.size() == s.rounds, (name + ": one collective per round"));

  // Every recv is later than the send it matches (FIFO per source, destination and tag).
  std::map<std::tuple<int, int, int>, std::vector<std::int64_t>> sent;
  bool causal = true;
  for (const WriterEvent& e : sink.events) {
    if (e.kind == WriterEventKind::Send) sent[{e.loc, e.peer, e.tag}].push_back(e.time);
    if (e.kind == WriterEventKind::Recv) {
      auto& q = sent[{e.peer, e.loc, e.tag}];
      if (q.empty() || !(q.front() < e.time)) causal = false;
      if (!q.empty()) q.erase(q.begin());
    }
  }
  CHECK_MESSAGE(causal, (name + ": every receive follows its send"));
}

TEST_CASE("the program model keeps its invariants") {
  GenOptions o;
  o.events = 5000;
  test_program_invariants(o, "defaults");
  o.locations = 2;
  o.pattern = "neighbors";
  o.out_of_order_rate = 0.5;
  test_program_invariants(o, "2 neighbors");
  o.locations = 9;
  o.late_sender_rate = 1.0;
  o.imbalance_rate = 1.0;
  o.max_kernels = 1;
  o.jitter = 0.0;
  test_program_invariants(o, "9 neighbors, always late");
  o.events = 0;
  test_program_invariants(o, "no rounds");
  GenOptions t;
  t.events = 5000;
  t.threads = 3;
  test_program_invariants(t, "3 threads");
  t.locations = 2;
  t.threads = 8;
  t.pattern = "neighbors";
  t.late_sender_rate = 1.0;
  test_program_invariants(t, "2 x 8 threads, always late");
}

// The one-sided and non-blocking shapes: puts complete inside MPI_Put, window calls are
// flagged and left by all processes at once, lock epochs on a target never overlap and go
// in order of request, every request is posted and completed once, and the truth counts
// the events ALOG holds.
void test_shape_invariants(const GenOptions& o, const std::string& name) {
  MemorySink sink;
  TruthCollector truth(kMpiSend, kMpiRecv, {kMpiAllreduce, kMpiBarrier}, 100);
  GenSummary s;
  REQUIRE_NOTHROW(s = run_program(o, {&sink, &truth}));
  const TraceHeader& h = sink.header;
  auto id = [&](const char* region) {
    for (std::size_t r = 0; r < h.regions.size(); ++r)
      if (h.regions[r].name == region) return static_cast<int>(r);
    return -1;
  };
  const int put = id("MPI_Put"), lock = id("MPI_Win_lock"), waitall = id("MPI_Waitall");
  const int irecv = id("MPI_Irecv"), isend = id("MPI_Isend");
  std::vector<std::vector<int>> stack(static_cast<std::size_t>(h.locations));
  std::vector<std::int64_t> open_put(stack.size(), -1);
  std::map<int, int> holder;                                  // target -> location holding it
  std::map<int, std::set<std::pair<std::int64_t, int>>> waiting;  // target -> (request enter, loc)
  std::vector<std::int64_t> lock_enter(stack.size(), -1);
  std::map<std::pair<int, std::int64_t>, int> requests;  // (loc, request) -> posts - completions
  std::map<std::int64_t, int> window_exits;  // time -> locations leaving a window call then
  std::uint64_t records = 0;
  bool puts_ok = true, locks_ok = true, requests_ok = true, flags_ok = true;
  for (const WriterEvent& e : sink.events) {
    auto& st = stack[e.loc];
    const int top = st.empty() ? -1 : st.back();
    const bool window_call = e.region >= 0 && (h.regions[e.region].name == "MPI_Win_create" ||
                                               h.regions[e.region].name == "MPI_Win_fence" ||
                                               h.regions[e.region].name == "MPI_Win_free");
    switch (e.kind) {
      case WriterEventKind::Enter:
        st.push_back(e.region);
        if (e.region == lock) lock_enter[e.loc] = e.time;
        flags_ok = flags_ok && window_call == ((e.flags & kWriterRmaCollective) != 0);
        break;
      case WriterEventKind::Exit:
        st.pop_back();
        if (e.region == put) puts_ok = puts_ok && open_put[e.loc] < 0;
        flags_ok = flags_ok && window_call == ((e.flags & kWriterRmaCollective) != 0);
        if (window_call) ++window_exits[e.time];
        break;
      case WriterEventKind::RmaPut:
        ++records;
        puts_ok = puts_ok && top == put && open_put[e.loc] < 0 && e.peer % o.threads == 0;
        open_put[e.loc] = e.tag;
        break;
      case WriterEventKind::RmaPutComplete:
        ++records;
        puts_ok = puts_ok && top == put && open_put[e.loc] == e.tag;
        open_put[e.loc] = -1;
        break;
      case WriterEventKind::RmaLockRequest:
        ++records;
        locks_ok = locks_ok && top == lock && waiting[e.peer].insert({lock_enter[e.loc], e.loc}).second;
        break;
      case WriterEventKind::RmaLockAcquire: {
        ++records;
        // Exclusive: nobody holds it; first come (earliest MPI_Win_lock enter), first served.
        auto& queue = waiting[e.peer];
        locks_ok = locks_ok && top == lock && e.tag == 1 && !holder.count(e.peer) && !queue.empty() &&
                   *queue.begin() == std::make_pair(lock_enter[e.loc], static_cast<int>(e.loc));
        queue.erase({lock_enter[e.loc], e.loc});
        holder[e.peer] = e.loc;
        break;
      }
      case WriterEventKind::RmaLockRelease:
        ++records;
        locks_ok = locks_ok && top == id("MPI_Win_unlock") && holder.count(e.peer) && holder[e.peer] == e.loc;
        holder.erase(e.peer);
        break;
      case WriterEventKind::IrecvRequest:
        ++records;
        requests_ok = requests_ok && top == irecv && requests[{e.loc, e.request}]++ == 0;
        break;
      case WriterEventKind::IsendComplete:
        ++records;
        requests_ok = requests_ok && top == waitall && requests[{e.loc, e.request}]-- == 1;
        break;
      case WriterEventKind::Send:
        if (o.nonblocking) requests_ok = requests_ok && top == isend && e.request >= 0 && requests[{e.loc, e.request}]++ == 0;
        break;
      case WriterEventKind::Recv:
        if (o.nonblocking) requests_ok = requests_ok && e.request >= 0 && requests[{e.loc, e.request}]-- == 1;
        break;
      default: break;
    }
  }
  for (const auto& [key, open] : requests) requests_ok = requests_ok && open == 0;
  bool together = true;
  for (const auto& [t, k] : window_exits) together = together && k == o.locations;
  CHECK_MESSAGE(puts_ok, (name + ": every put completes inside its MPI_Put, to a master thread"));
  CHECK_MESSAGE(locks_ok, (name + ": exclusive lock epochs never overlap and follow the requests"));
  CHECK_MESSAGE(requests_ok, (name + ": every request is posted and completed once, in its calls"));
  CHECK_MESSAGE(flags_ok, (name + ": exactly the window calls carry kWriterRmaCollective"));
  CHECK_MESSAGE(together, (name + ": every window call is left by all processes at once"));
  CHECK_MESSAGE((truth.events() + records + 2 * static_cast<std::uint64_t>(o.locations) == sink.events.size()),
                (name + ": the truth counts what ALOG holds (no one-sided, request or program records)"));
  CHECK_MESSAGE(h.rma_window == (o.rma_every > 0 || o.lock_every > 0), (name + ": the window when asked for"));
}

TEST_CASE("one-sided and non-blocking shapes keep their invariants") {
  GenOptions o;
  o.events = 6000;
  o.rma_every = 2;
  o.rma_puts = 3;
  test_shape_invariants(o, "fences");
  o.lock_every = 1;
  o.lock_hold_rate = 1.0;
  test_shape_invariants(o, "fences and locks");
  o.nonblocking = true;
  o.pattern = "neighbors";
  o.out_of_order_rate = 0.5;
  o.in_flight = 7;
  test_shape_invariants(o, "fences, locks, non-blocking");
  o.threads = 3;
  o.locations = 3;
  test_shape_invariants(o, "3 x 3 threads");
  GenOptions n;
  n.events = 3000;
  n.nonblocking = true;
  test_shape_invariants(n, "non-blocking only");
}

#ifdef EARL_HAVE_OTF2
// What the OTF2 writer refuses: one-sided events without the header's window, a window
// synchronisation flag on a region that is none, a request record without its id.
// --collectives: each kind's timing makes its wait well defined. Per instance, in
// MPI_COMM_WORLD's rank order: barrier-like kinds are left by all at once after the last
// enter; a 1-to-N kind's non-roots leave after the root entered; an N-to-1 kind's root
// leaves after every enter; a scan's rank r after the enters of ranks 0..r. Roots rotate
// over the ranks round by round, every call is flagged, and no round starts before the
// last process left the previous round's collective.
void test_collective_kinds(const GenOptions& o, const std::string& name) {
  MemorySink sink;
  TruthCollector truth(kMpiSend, kMpiRecv, {kMpiAllreduce, kMpiBarrier}, 100);
  GenSummary s;
  REQUIRE_NOTHROW(s = run_program(o, {&sink, &truth}));
  const TraceHeader& h = sink.header;
  const std::vector<const CollectiveKind*> kinds = parse_collectives(o.collectives);
  std::vector<int> rank_process = h.rank_process;
  if (rank_process.empty())
    for (int r = 0; r < o.locations; ++r) rank_process.push_back(r);
  struct Call {
    std::int64_t enter = -1, leave = -1;
    int peer = -1;
    std::int64_t sent = -1;
  };
  std::vector<std::vector<Call>> calls(o.locations);  // per process, in order
  bool flagged = true, no_overlap = true;
  std::int64_t last_exit = -1;
  for (const WriterEvent& e : sink.events) {
    if (e.kind != WriterEventKind::Enter && e.kind != WriterEventKind::Exit) continue;
    const CollectiveKind* kind = collective_kind_of_region(h.regions[e.region].name);
    if (!kind) {
      if (e.kind == WriterEventKind::Enter && e.region == kStep) no_overlap = no_overlap && e.time > last_exit;
      continue;
    }
    flagged = flagged && (e.flags & kWriterCollective) && e.loc % o.threads == 0;
    auto& mine = calls[e.loc / o.threads];
    if (e.kind == WriterEventKind::Enter) {
      mine.push_back({e.time});
    } else {
      mine.back().leave = e.time;
      mine.back().peer = e.peer;
      mine.back().sent = e.len;
      last_exit = std::max(last_exit, e.time);
    }
  }
  CHECK_MESSAGE(flagged, (name + ": collective calls flagged, on master threads only"));
  CHECK_MESSAGE(no_overlap, (name + ": each round starts after the previous collective ended"));
  bool counts = true, timing = true, roots = true, payload = true;
  for (const auto& mine : calls) counts = counts && mine.size() == s.rounds;
  REQUIRE_MESSAGE(counts, (name + ": one collective per process and round"));
  for (std::uint64_t r = 0; r < s.rounds; ++r) {
    const CollectiveKind& kind = *kinds[r % kinds.size()];
    const int root = rank_process[r % static_cast<std::uint64_t>(o.locations)];
    std::int64_t latest = 0, latest_other = 0, lowest_leave = INT64_MAX, highest_leave = 0, running = 0;
    for (int p = 0; p < o.locations; ++p) {
      latest = std::max(latest, calls[p][r].enter);
      if (p != root) latest_other = std::max(latest_other, calls[p][r].enter);
      lowest_leave = std::min(lowest_leave, calls[p][r].leave);
      highest_leave = std::max(highest_leave, calls[p][r].leave);
    }
    for (int rank = 0; rank < o.locations; ++rank) {
      const int p = rank_process[rank];
      const Call& c = calls[p][r];
      running = std::max(running, c.enter);
      switch (kind.shape) {
        case CollectiveShape::Barrier:
        case CollectiveShape::NxN:
          timing = timing && lowest_leave == highest_leave && lowest_leave > latest;
          break;
        case CollectiveShape::OneToN: timing = timing && c.leave > calls[root][r].enter; break;
        case CollectiveShape::NToOne: timing = timing && (p != root || c.leave > latest_other); break;
        case CollectiveShape::Scan: timing = timing && c.leave > running; break;
      }
      roots = roots && c.peer == (is_rooted(kind.shape) ? root * o.threads : -1);
      payload = payload && c.sent == collective_bytes(kind, p == root, rank, o.locations).sent;
    }
  }
  CHECK_MESSAGE(timing, (name + ": every process leaves after the enters it waits for"));
  CHECK_MESSAGE(roots, (name + ": roots rotate over the ranks; unrooted kinds name none"));
  CHECK_MESSAGE(payload, (name + ": bytes sent as the kind's table says"));
  const GroundTruth t = truth.truth();
  bool sums = !t.collective_patterns.empty();
  for (const PatternTotal& p : t.collective_patterns) {
    double by_process = 0.0;
    for (double w : p.by_process) by_process += w;
    sums = sums && p.count > 0 && std::abs(by_process - p.total) < 1e-9;
  }
  CHECK_MESSAGE(sums, (name + ": the truth's per-process waits add up to its totals"));
}

TEST_CASE("collective kinds keep their invariants") {
  GenOptions o;
  o.events = 6000;
  o.imbalance_rate = 0.5;
  o.collectives = "allreduce,bcast,reduce,gather,scatter,allgather,alltoall,scan,exscan,barrier";
  test_collective_kinds(o, "all kinds");
  o.permute_ranks = true;
  o.threads = 2;
  o.locations = 5;
  test_collective_kinds(o, "permuted ranks, threads");
  o.collectives = "scan";
  o.late_sender_rate = 1.0;
  test_collective_kinds(o, "scans only, always late");
  CHECK_MESSAGE(throws_earl_error([] { parse_collectives("bcast,nope"); }), "unknown kind");
  CHECK_MESSAGE(throws_earl_error([] { parse_collectives(","); }), "empty entry");
  CHECK(parse_collectives("").empty());
}

// late_receiver_rate: each MPI_Ssend holds one send (tag 100, to the right neighbour) and
// leaves only after its receiver entered the MPI_Recv that takes it; its receiver sends
// no MPI_Ssend in the same round (no chain of them around the ring).
void test_late_receivers(const GenOptions& o, const std::string& name) {
  MemorySink sink;
  TruthCollector truth(kMpiSend, kMpiRecv, {kMpiAllreduce, kMpiBarrier}, 100);
  GenSummary s;
  REQUIRE_NOTHROW(s = run_program(o, {&sink, &truth}));
  int ssend = -1;
  for (std::size_t r = 0; r < sink.header.regions.size(); ++r)
    if (sink.header.regions[r].name == "MPI_Ssend") ssend = static_cast<int>(r);
  REQUIRE_MESSAGE(ssend >= 0, (name + ": MPI_Ssend defined"));
  const int n = o.locations, t = o.threads;
  std::vector<int> region(n * t, -1);          // innermost region, MPI calls only
  std::vector<std::int64_t> recv_enter(n * t, -1);
  std::vector<std::int64_t> round_of(n * t, 0);  // collectives left so far
  struct Ssend {
    int loc, dest;
    std::uint64_t round;
    std::int64_t leave = -1, posted = -1;
    int sends = 0;
  };
  std::vector<Ssend> ssends;
  std::vector<std::size_t> current(n * t, 0);  // per location: its open MPI_Ssend
  std::map<std::tuple<int, int, int>, std::vector<std::size_t>> open;  // channel -> ssends
  bool one_send = true, right_tag = true;
  for (const WriterEvent& e : sink.events) {
    if (e.kind == WriterEventKind::Enter) {
      region[e.loc] = e.region;
      if (e.region == kMpiRecv) recv_enter[e.loc] = e.time;
      if (e.region == ssend) {
        current[e.loc] = ssends.size();
        ssends.push_back({e.loc, -1, static_cast<std::uint64_t>(round_of[e.loc])});
      }
    } else if (e.kind == WriterEventKind::Exit) {
      if (e.region == ssend) ssends[current[e.loc]].leave = e.time;
      if (e.region == kMpiAllreduce || e.region == kMpiBarrier) ++round_of[e.loc];
      region[e.loc] = -1;
    } else if (e.kind == WriterEventKind::Send && region[e.loc] == ssend) {
      Ssend& x = ssends[current[e.loc]];
      one_send = one_send && x.loc == e.loc && ++x.sends == 1;
      right_tag = right_tag && e.tag == 100 && e.peer == ((e.loc / t + 1) % n) * t;
      x.dest = e.peer;
      open[{e.loc, e.peer, e.tag}].push_back(current[e.loc]);
    } else if (e.kind == WriterEventKind::Recv) {
      auto it = open.find({e.peer, e.loc, e.tag});
      if (it != open.end() && !it->second.empty()) {
        ssends[it->second.front()].posted = recv_enter[e.loc];
        it->second.erase(it->second.begin());
      }
    }
  }
  bool after_post = true, no_chain = true;
  std::set<std::pair<std::uint64_t, int>> senders;
  for (const Ssend& x : ssends) {
    after_post = after_post && x.posted >= 0 && x.leave > x.posted;
    senders.insert({x.round, x.loc});
  }
  for (const Ssend& x : ssends) no_chain = no_chain && !senders.count({x.round, x.dest});
  CHECK_MESSAGE(ssends.size() == s.injected_late_receivers, (name + ": one MPI_Ssend per injection"));
  CHECK_MESSAGE(!ssends.empty(), (name + ": some injected"));
  CHECK_MESSAGE(one_send, (name + ": one send inside each MPI_Ssend"));
  CHECK_MESSAGE(right_tag, (name + ": the first message, to the right neighbour"));
  CHECK_MESSAGE(after_post, (name + ": every MPI_Ssend leaves after its receive was posted"));
  CHECK_MESSAGE(no_chain, (name + ": no MPI_Ssend's receiver sends one in the same round"));
  const GroundTruth g = truth.truth();
  CHECK_MESSAGE(g.late_receiver_count > 0, (name + ": the truth finds late receivers"));
}

TEST_CASE("late receivers keep their invariants") {
  GenOptions o;
  o.events = 6000;
  o.late_receiver_rate = 0.5;
  test_late_receivers(o, "ring");
  o.late_receiver_rate = 1.0;
  o.locations = 2;
  o.pattern = "neighbors";
  o.out_of_order_rate = 0.5;
  test_late_receivers(o, "2 neighbors, always");
  o.locations = 5;
  o.threads = 2;
  o.late_sender_rate = 0.5;
  o.in_flight = 7;
  test_late_receivers(o, "5 x 2 threads, in flight, late senders");
  GenOptions bad;
  bad.late_receiver_rate = 0.5;
  bad.nonblocking = true;
  CHECK_MESSAGE(throws_earl_error([&] { bad.validate(); }), "late receivers need the blocking exchange");
}

TEST_CASE("OTF2 writer refuses one-sided and request events it cannot write") {
  namespace fs = std::filesystem;
  const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
  const fs::path dir = fs::temp_directory_path() / ("earl_generator_rma_" + std::to_string(stamp));
  fs::create_directories(dir);
  TraceHeader h;
  h.locations = 2;
  h.regions = {{"main", "", "USER"}, {"MPI_Win_fence", "", "MPI"}};
  auto refused = [&](bool window, WriterEvent e) {
    auto writer = earl::open_writer("otf2", (dir / "x.otf2").string(), WriterOptions{});
    TraceHeader with = h;
    with.rma_window = window;
    writer->begin(with);
    const bool threw = throws_earl_error([&] { writer->write(&e, 1); });
    writer->discard();
    return threw;
  };
  WriterEvent put;
  put.kind = WriterEventKind::RmaPut;
  put.peer = 1;
  put.len = 8;
  CHECK_MESSAGE(refused(false, put), "a put without the window");
  CHECK_MESSAGE(!refused(true, put), "a put on the window is written");
  WriterEvent enter;
  enter.kind = WriterEventKind::Enter;
  enter.region = 0;
  enter.flags = kWriterRmaCollective;
  CHECK_MESSAGE(refused(true, enter), "main flagged as a window synchronisation");
  enter.region = 1;
  CHECK_MESSAGE(refused(false, enter), "a fence without the window");
  CHECK_MESSAGE(!refused(true, enter), "a fence on the window is written");
  WriterEvent complete;
  complete.kind = WriterEventKind::IsendComplete;
  CHECK_MESSAGE(refused(false, complete), "a request record without its request id");
  fs::remove_all(dir);
}
#endif

TEST_CASE("permuted ranks") {
  for (int n : {2, 3, 7, 64}) {
    const std::vector<int> p = permuted_ranks(n, 5);
    std::vector<int> sorted = p;
    std::sort(sorted.begin(), sorted.end());
    bool permutation = true, identity = true;
    for (int i = 0; i < n; ++i) {
      permutation = permutation && sorted[i] == i;
      identity = identity && p[i] == i;
    }
    CHECK_MESSAGE((permutation && !identity), ("permuted_ranks(" + std::to_string(n) + ") is a non-identity permutation"));
    CHECK_MESSAGE(permuted_ranks(n, 5) == p, "permuted_ranks is seeded");
  }
}

TEST_CASE("ALOG and truth files") {
  const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
  const std::string trace =
      (std::filesystem::temp_directory_path() / ("earl_generator_test_" + std::to_string(stamp) + ".alog"))
          .string();
  GenOptions o;
  o.events = 2000;
  o.seed = 3;
  o.rollover = 1000;
  const GenResult r1 = generate(o, trace);
  const GenSummary s1 = r1.summary;
  const std::string first = read_file(trace);
  const GenResult r2 = generate(o, trace);
  CHECK_MESSAGE((read_file(trace) == first && r2.truth->late_sender_wait_total == r1.truth->late_sender_wait_total &&
            r2.truth->bytes_received_per_location == r1.truth->bytes_received_per_location),
        "same seed, same file and truth");
  CHECK_MESSAGE((first.rfind("-3 0 0 4 0 0\n-11 0 0 0 0 1000\n-13 0 1 2 0 0 gray:solid main\n", 0) == 0),
        "ALOG header: -3, -11, -13 first");
  CHECK_MESSAGE(first.find("\n-15 2 0 0 0 0 rank 2\n") != std::string::npos, "location names");
  std::size_t lines = 0;
  for (char c : first) lines += c == '\n';
  CHECK_MESSAGE((lines == r1.truth->events + 1 + 1 + kRegionCount + 4), "one line per event plus the header");
  CHECK_MESSAGE((r1.truth->events + 2 * static_cast<std::uint64_t>(o.locations) == s1.events &&
                 r1.truth->messages == s1.messages),
        "truth counts the events and messages written (ALOG holds no ProgramBegin/End)");
  o.seed = 4;
  generate(o, trace);
  CHECK_MESSAGE((read_file(trace) != first), "different seed, different trace");
  std::remove(trace.c_str());
}

TEST_CASE("option validation and unwritable outputs") {
  auto with = [](const std::function<void(GenOptions&)>& change) {
    return throws_earl_error([&] {
      GenOptions o;
      change(o);
      o.validate();
    });
  };
  CHECK_MESSAGE((with([](GenOptions& o) { o.locations = 1; })), "locations < 2");
  CHECK_MESSAGE((with([](GenOptions& o) { o.events = -1; })), "negative events");
  CHECK_MESSAGE((with([](GenOptions& o) { o.format = "nope"; })), "unsupported format");
  CHECK_MESSAGE((with([](GenOptions& o) { o.threads = 0; })), "zero threads");
  CHECK_MESSAGE((with([](GenOptions& o) { o.locations = 40000; o.threads = 2; })), "too many locations");
  CHECK_MESSAGE((with([](GenOptions& o) { o.pattern = "star"; })), "unknown pattern");
  CHECK_MESSAGE((with([](GenOptions& o) { o.late_sender_rate = 1.5; })), "rate above 1");
  CHECK_MESSAGE((with([](GenOptions& o) { o.latency_us = 0; })), "zero latency");
  CHECK_MESSAGE((!with([](GenOptions&) {})), "defaults are valid");
  CHECK_MESSAGE((throws_earl_error([] { earl::open_writer("nope", "x", WriterOptions{}); })),
        "writer factory rejects unknown formats");
  CHECK_MESSAGE((throws_earl_error([] {
          generate(GenOptions{}, "no/such/dir/generator_test.alog");
        })),
        "unwritable output");
  const std::string refused = (std::filesystem::temp_directory_path() / "earl_generator_refused.alog").string();
  CHECK_MESSAGE((throws_earl_error([&] {
          generate(GenOptions{}, refused, [](const GenResult&) { throw earl::EarlError("refused"); });
        }) && !std::filesystem::exists(refused)),
        "a keep that throws removes the trace");
}

#ifdef EARL_HAVE_OTF2
// The OTF2 archive is written beside the anchor; a failure (here: the truth is
// refused) removes all of it again. (Its content is checked in tests/test_otf2_writer.py
// with the official otf2 reader.)
TEST_CASE("OTF2 archive files") {
  namespace fs = std::filesystem;
  const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
  const fs::path dir = fs::temp_directory_path() / ("earl_generator_test_" + std::to_string(stamp));
  fs::create_directories(dir);
  GenOptions o;
  o.events = 2000;
  o.format = "otf2";
  o.threads = 2;
  o.permute_ranks = true;
  const GenSummary s = generate(o, (dir / "run.otf2").string()).summary;
  CHECK_MESSAGE((s.events >= 2000), "OTF2 archive generated");
  CHECK_MESSAGE((fs::is_regular_file(dir / "run.otf2") && fs::is_regular_file(dir / "run.def") &&
            fs::is_directory(dir / "run") && fs::is_regular_file(dir / "run" / "0.evt") &&
            fs::is_regular_file(dir / "run" / "4294967296.evt")),
        "anchor, definitions and per-location files (Score-P location ids)");
  generate(o, (dir / "run.otf2").string());
  CHECK_MESSAGE((fs::is_regular_file(dir / "run.otf2")), "an existing archive is replaced");
  CHECK_MESSAGE((throws_earl_error([&] {
          generate(o, (dir / "bad.otf2").string(),
                   [](const GenResult&) { throw earl::EarlError("cannot write the truth"); });
        })),
        "the truth is refused");
  CHECK_MESSAGE((!fs::exists(dir / "bad.otf2") && !fs::exists(dir / "bad.def") && !fs::exists(dir / "bad")),
        "a failed OTF2 generation leaves nothing behind");
  CHECK_MESSAGE((throws_earl_error([&] { generate(o, (dir / "noanchor").string()); })),
        "OTF2 output must be named NAME.otf2");
  std::ofstream(dir / "other.otf2") << "not an archive";
  CHECK_MESSAGE((throws_earl_error([&] { generate(o, (dir / "other.otf2").string()); }) &&
            read_file((dir / "other.otf2").string()) == "not an archive"),
        "a file that is no OTF2 anchor is never replaced");
  fs::remove_all(dir);
}
#endif

}  // namespace

