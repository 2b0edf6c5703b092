// C++ tests of the wait-state analysis' parts (cpp/analysis/): the metric table, region
// classes, and the claim the design rests on: location passes run one after another
// (as a partitioned run would) give the same severities as the events in global order.
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <doctest/doctest.h>

#include "analysis/collective_matcher.h"
#include "analysis/location_pass.h"
#include "analysis/message_matcher.h"
#include "analysis/metric_tree.h"
#include "analysis/rma_matcher.h"
#include "model/definitions.h"

using namespace earl;
using namespace earl::analysis;

namespace {

class Matching : public RecordSink {
 public:
  explicit Matching(const Definitions& defs) : collectives{severities, problems, defs} {}
  Severities severities;
  ProblemCounts problems;
  MessageMatcher messages{severities, problems};
  CollectiveMatcher collectives;
  RmaMatcher rma{severities, problems};
  void on_send(const SendRecord& s) override { messages.send(s); }
  void on_rma_access(RmaAccessEpoch&& e) override { rma.add(std::move(e)); }
  void on_rma_exposure(RmaExposureEpoch&& e) override { rma.add(std::move(e)); }
  void on_rma_lock(const RmaLockEpoch& e) override { rma.add(e); }
  void on_rma_fence_ops(RmaFenceOps&& o) override { collectives.add(std::move(o)); }
  void on_receive_call(ReceiveCall&& c) override { messages.receive_call(std::move(c)); }
  void on_collective(const CollectiveRecord& c) override { collectives.add(c); }
};

struct Trace {
  Definitions defs;
  std::vector<Event> events;  // in global time order
  void enter(Location l, double t, const char* region) { add(l, t, EventKind::Enter, region); }
  void exit(Location l, double t, const char* region) { add(l, t, EventKind::Exit, region); }
  void send(Location l, double t, Location dest, std::int64_t tag) {
    Event e = make(l, t, EventKind::Send);
    e.peer = dest;
    e.tag = tag;
    events.push_back(e);
  }
  void recv(Location l, double t, Location src, std::int64_t tag) {
    Event e = make(l, t, EventKind::Recv);
    e.peer = src;
    e.tag = tag;
    events.push_back(e);
  }
  // OTF2's request-carrying records (data1 = request id), as the importer maps them.
  void isend(Location l, double t, Location dest, std::int64_t tag, std::uint64_t request) {
    send(l, t, dest, tag);
    events.back().data1 = Value::of_uint(request);
  }
  void record(Location l, double t, const char* type, std::uint64_t request) {
    Event e = make(l, t, EventKind::Other);
    e.type = defs.types.intern(type);
    e.data1 = Value::of_uint(request);
    events.push_back(e);
  }
  Event make(Location l, double t, EventKind kind) {
    Event e;
    e.loc = l;
    e.time = t;
    e.kind = kind;
    defs.ensure_location(l);
    return e;
  }
  void add(Location l, double t, EventKind kind, const char* region) {
    Event e = make(l, t, kind);
    e.region = defs.define_region(region, "All");
    events.push_back(e);
  }
};

// (pattern, call path as "main/MPI_Recv", location) -> seconds: call path ids depend on
// the order passes meet them, names do not.
using Cells = std::map<std::tuple<int, std::string, Location>, double>;

std::string path_of(const CallTree& tree, const Definitions& defs, CallPathId id) {
  const auto& node = tree.nodes()[id];
  const std::string name = defs.regions.name(node.region);
  return node.parent == kNoCallPath ? name : path_of(tree, defs, node.parent) + "/" + name;
}

// Runs the passes over `order` (indices into trace.events) and returns every pattern cell.
Cells run(Trace& trace, const std::vector<std::size_t>& order, std::map<int, std::uint64_t>* instances = nullptr) {
  CallTree tree;
  RegionCatalog regions(trace.defs);
  Matching matching(trace.defs);
  std::vector<LocationPass> passes;
  for (Location l = 0; l < trace.defs.location_count; ++l)
    passes.emplace_back(l, tree, regions, matching, matching.problems);
  for (std::size_t i : order) passes[trace.events[i].loc].event(trace.events[i]);
  for (auto& p : passes) p.finish();
  matching.messages.finish();
  matching.collectives.finish();
  matching.rma.finish();
  Cells out;
  for (const MetricInfo& m : metric_table()) {
    if (!m.is_pattern) continue;
    for (const auto& [key, v] : matching.severities.cells(m.metric))
      out[{static_cast<int>(m.metric), path_of(tree, trace.defs, cell_callpath(key)), cell_location(key)}] = v;
    if (instances) (*instances)[static_cast<int>(m.metric)] = matching.severities.instances(m.metric);
  }
  return out;
}

Trace sample() {
  // Loc 0 waits in MPI_Recv [10, 41] for loc 1's MPI_Send entered at 30 (late sender 20);
  // loc 2 receives in MPI_Waitall [100, 160] messages whose sends were entered at 130 and
  // 140: waits 30 and 40, only the largest counts;
  // all meet in a barrier (begins 170, 180, 200; ends 210): waits 30, 20, 0.
  Trace t;
  for (Location l = 0; l < 3; ++l) t.enter(l, 0, "main");
  t.enter(0, 10, "MPI_Recv");
  t.enter(1, 30, "MPI_Send");
  t.send(1, 31, 0, 1);
  t.exit(1, 35, "MPI_Send");
  t.recv(0, 40, 1, 1);
  t.exit(0, 41, "MPI_Recv");
  t.enter(2, 100, "MPI_Waitall");
  t.enter(0, 130, "MPI_Send");
  t.send(0, 131, 2, 7);
  t.exit(0, 132, "MPI_Send");
  t.enter(1, 140, "MPI_Send");
  t.send(1, 141, 2, 7);
  t.exit(1, 142, "MPI_Send");
  t.recv(2, 150, 0, 7);
  t.recv(2, 151, 1, 7);
  t.exit(2, 160, "MPI_Waitall");
  t.enter(0, 170, "MPI_Barrier");
  t.enter(1, 180, "MPI_Barrier");
  t.enter(2, 200, "MPI_Barrier");
  for (Location l = 0; l < 3; ++l) t.exit(l, 210, "MPI_Barrier");
  for (Location l = 0; l < 3; ++l) t.exit(l, 300, "main");
  return t;
}

// Loc 0 sends two messages on one channel with MPI_Isend [10, 12] and [13, 15] and
// completes them in reverse order in MPI_Waitany [20, 30] and MPI_Wait [31, 32]; loc 1
// receives them in MPI_Recv [5, 40] (late sender: min(10, 40) - 5 = 5) and MPI_Recv
// [41, 42]. No late receiver: the first message's receive was posted (5) before its
// MPI_Wait [31, 32] began, the second's (41) after its MPI_Waitany [20, 30] had ended.
// Joined by arrival instead of by number, the first receive would take the send entered
// at 13 and wait 8.
Trace nonblocking() {
  Trace t;
  for (Location l = 0; l < 2; ++l) t.enter(l, 0, "main");
  t.enter(1, 5, "MPI_Recv");
  t.enter(0, 10, "MPI_Isend");
  t.isend(0, 11, 1, 3, 100);
  t.exit(0, 12, "MPI_Isend");
  t.enter(0, 13, "MPI_Isend");
  t.isend(0, 14, 1, 3, 101);
  t.exit(0, 15, "MPI_Isend");
  t.enter(0, 20, "MPI_Waitany");
  t.record(0, 29, "mpi_isend_complete", 101);
  t.exit(0, 30, "MPI_Waitany");
  t.enter(0, 31, "MPI_Wait");
  t.record(0, 31.5, "mpi_isend_complete", 100);
  t.exit(0, 32, "MPI_Wait");
  t.recv(1, 39, 0, 3);
  t.exit(1, 40, "MPI_Recv");
  t.enter(1, 41, "MPI_Recv");
  t.recv(1, 41.5, 0, 3);
  t.exit(1, 42, "MPI_Recv");
  for (Location l = 0; l < 2; ++l) t.exit(l, 100, "main");
  return t;
}

// Loc 0 puts to loc 1 in MPI_Put [10, 30] (transfer completed at 45, inside its fence);
// fences: loc 1 [20, 50], loc 0 [40, 50]: L = 40, loc 1 waits 20 at the fence, 10 of them
// (30 - 20) for the put, which ends when its call leaves.
Trace fenced() {
  Trace t;
  for (Location l = 0; l < 2; ++l) t.enter(l, 0, "main");
  t.enter(0, 10, "MPI_Put");
  Event put = t.make(0, 11, EventKind::RmaTransferStart);
  put.com = 3;  // the window
  put.peer = 1;
  t.events.push_back(put);
  t.enter(1, 20, "MPI_Win_fence");
  t.exit(0, 30, "MPI_Put");
  t.enter(0, 40, "MPI_Win_fence");
  Event done = t.make(0, 45, EventKind::RmaTransferEnd);
  done.com = 3;
  done.peer = 1;
  t.events.push_back(done);
  for (Location l = 0; l < 2; ++l) t.exit(l, 50, "MPI_Win_fence");
  for (Location l = 0; l < 2; ++l) t.exit(l, 100, "main");
  return t;
}

double total(const Cells& cells, Metric m) {
  double sum = 0;
  for (const auto& [key, v] : cells)
    if (std::get<0>(key) == static_cast<int>(m)) sum += v;
  return sum;
}

}  // namespace

TEST_CASE("the metric table lists every metric once, in enum order, parents first") {
  const auto& table = metric_table();
  REQUIRE(table.size() == static_cast<std::size_t>(kMetricCount));
  for (std::size_t i = 0; i < table.size(); ++i) {
    CHECK(static_cast<std::size_t>(table[i].metric) == i);
    if (table[i].parent != Metric::Count) CHECK(static_cast<std::size_t>(table[i].parent) < i);
  }
}

TEST_CASE("regions are classified by MPI function name, whatever the case") {
  CHECK(classify_region("MPI_Recv").role == CallRole::Recv);
  CHECK(classify_region("mpi_waitall").role == CallRole::WaitMany);
  CHECK(classify_region("PMPI_Allreduce").metric == Metric::MpiCollective);
  CHECK(classify_region("MPI_Barrier").metric == Metric::MpiSyncCollective);
  // Scalasca's categories (share/scout.spec)
  CHECK(classify_region("MPI_File_open").metric == Metric::MpiMgmtFile);
  CHECK(classify_region("MPI_File_write_at").metric == Metric::MpiIoIndividual);
  CHECK(classify_region("MPI_File_read_ordered_end").metric == Metric::MpiIoCollective);
  CHECK(classify_region("MPI_Comm_split").metric == Metric::MpiMgmtComm);
  CHECK(classify_region("MPI_Group_incl").metric == Metric::Mpi);
  CHECK(classify_region("MPI_Initialized").metric == Metric::MpiInitExit);
  CHECK(classify_region("MPI_Init").role == CallRole::Init);
  CHECK(classify_region("MPI_Win_fence").metric == Metric::MpiRmaSyncActive);
  CHECK(classify_region("MPI_Win_unlock_all").metric == Metric::MpiRmaSyncPassive);
  CHECK(classify_region("MPI_Win_get_group").metric == Metric::MpiMgmtWin);
  CHECK(classify_region("MPI_Send_init").metric == Metric::MpiPoint2point);
  CHECK(classify_region("MPI_Startall").metric == Metric::Mpi);
  CHECK(classify_region("MPI_Ineighbor_alltoallw").metric == Metric::MpiCollective);
  CHECK(classify_region("MPI_Reduce_local").metric == Metric::Mpi);
  CHECK(classify_region("MPI_Rget_accumulate").metric == Metric::MpiRmaCommunication);
  CHECK(classify_region("MPI_Ibcast").role == CallRole::None);
  CHECK(classify_region("MPI_Issend").role == CallRole::NonBlockingSend);
  CHECK(classify_region("MPI_Ibsend").role == CallRole::None);  // buffered: never waits
  CHECK(!classify_region("main").is_mpi);
  CHECK(classify_region("main").metric == Metric::Comp);
}

TEST_CASE("the hand-worked sample gives the waits worked out in its comment") {
  Trace t = sample();
  std::vector<std::size_t> order(t.events.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::map<int, std::uint64_t> instances;
  const Cells cells = run(t, order, &instances);
  CHECK(total(cells, Metric::MpiLatesender) == doctest::Approx(20 + 40));
  CHECK(instances[static_cast<int>(Metric::MpiLatesender)] == 2);
  CHECK(total(cells, Metric::MpiBarrierWait) == doctest::Approx(30 + 20));
  CHECK(total(cells, Metric::MpiBarrierCompletion) == doctest::Approx(0));
}

TEST_CASE("passes run location after location equal one pass in global order") {
  Trace t = sample();
  std::vector<std::size_t> global(t.events.size()), by_location;
  for (std::size_t i = 0; i < global.size(); ++i) global[i] = i;
  for (Location l = 2; l >= 0; --l)  // the last location first: receives before their sends
    for (std::size_t i = 0; i < t.events.size(); ++i)
      if (t.events[i].loc == l) by_location.push_back(i);
  std::map<int, std::uint64_t> a, b;
  const Cells one = run(t, global, &a), apart = run(t, by_location, &b);
  CHECK(one == apart);
  CHECK(a == b);
  CHECK(!one.empty());
}

TEST_CASE("non-blocking sends completed out of order join their receives by channel number") {
  Trace t = nonblocking();
  std::vector<std::size_t> global(t.events.size()), by_location;
  for (std::size_t i = 0; i < global.size(); ++i) global[i] = i;
  for (Location l = 1; l >= 0; --l)
    for (std::size_t i = 0; i < t.events.size(); ++i)
      if (t.events[i].loc == l) by_location.push_back(i);
  std::map<int, std::uint64_t> a, b;
  const Cells one = run(t, global, &a), apart = run(t, by_location, &b);
  // The first receive's partner is the send from the MPI_Isend entered at 10 (not 13,
  // although that send completed first): 10 - 5 = 5.
  CHECK(total(one, Metric::MpiLatesender) == doctest::Approx(5));
  CHECK(a[static_cast<int>(Metric::MpiLatesender)] == 1);
  CHECK(total(one, Metric::MpiLatereceiver) == doctest::Approx(0));
  CHECK(one == apart);
  CHECK(a == b);
}

TEST_CASE("Early Fence: the last operation to a location ends inside its fence") {
  Trace t = fenced();
  std::vector<std::size_t> global(t.events.size()), by_location;
  for (std::size_t i = 0; i < global.size(); ++i) global[i] = i;
  for (Location l = 1; l >= 0; --l)
    for (std::size_t i = 0; i < t.events.size(); ++i)
      if (t.events[i].loc == l) by_location.push_back(i);
  std::map<int, std::uint64_t> a, b;
  const Cells one = run(t, global, &a), apart = run(t, by_location, &b);
  CHECK(total(one, Metric::MpiRmaWaitAtFence) == doctest::Approx(20));
  CHECK(total(one, Metric::MpiRmaEarlyFence) == doctest::Approx(10));
  CHECK(a[static_cast<int>(Metric::MpiRmaEarlyFence)] == 1);
  CHECK(one == apart);
  CHECK(a == b);
}

TEST_CASE("the number of wait instances kept is an option; those beyond it are counted") {
  auto add = [](Severities& s) {
    const double idles[] = {3, 1, 5, 2, 4};
    for (int i = 0; i < 5; ++i) s.add_instance(Metric::MpiLatesender, 0, i, idles[i], 10.0 * i);
    s.add_instance(Metric::MpiLatesenderWo, 0, 0, 9);  // no begin: never kept, never counted
  };
  Severities defaults;
  add(defaults);
  CHECK(defaults.worst().size() == 5);
  CHECK(defaults.worst_left_out() == 0);

  Severities two;
  two.keep_worst(2);
  add(two);
  const std::vector<WaitInstance> kept = two.worst();
  REQUIRE(kept.size() == 2);
  CHECK(kept[0].idle == 5);
  CHECK(kept[0].loc == 2);
  CHECK(kept[0].begin == 20.0);
  CHECK(kept[1].idle == 4);
  CHECK(two.worst_left_out() == 3);
  CHECK(two.instances(Metric::MpiLatesender) == 5);

  Severities none;
  none.keep_worst(0);
  add(none);
  CHECK(none.worst().empty());
  CHECK(none.worst_left_out() == 5);
}
