#include "convert/record_events.h"

#include <algorithm>

#include "trace/event_trace.h"

namespace earl::convert {

namespace {

bool defines_any(const SymbolTable& table, std::initializer_list<const char*> names) {
  SymbolId id;
  for (const char* name : names)
    if (table.find(name, id)) return true;
  return false;
}

std::uint64_t request_of(const Event& e) {
  return e.data1.kind == Value::Kind::UInt ? e.data1.unsigned_integer
                                           : static_cast<std::uint64_t>(e.data1.integer);
}

}  // namespace

bool RecordPlan::window_call(Position pos) const {
  return std::binary_search(window_calls.begin(), window_calls.end(), pos);
}

bool RecordPlan::collective_enter(Position pos) const {
  return std::binary_search(collective_enters.begin(), collective_enters.end(), pos);
}

RecordPlan plan_records(EventTrace& trace, bool collectives) {
  const Definitions& defs = trace.definitions();
  RecordPlan plan;
  // Decoders intern a record's type when they meet it (the scan on opening meets all).
  plan.rma = defines_any(defs.types, {"put_1ts", "put_1te", "get_1to", "get_1ts", "get_1te", "wlock",
                                      "wunlock", "rma_collective_begin", "rma_win_create"});
  const bool window_regions = defines_any(defs.regions, {"MPI_Win_create", "MPI_Win_fence", "MPI_Win_free"});
  plan.rma = plan.rma || window_regions;
  SymbolId collective_end;
  const bool otf2_ends = defs.types.find("rma_collective_end", collective_end);
  if (!otf2_ends && !window_regions && !collectives) return plan;
  // OTF2: RmaCollectiveEnd comes just before the Leave of its call; EPILOG: the call's
  // exit record is MPI_WINCOLLEXIT (a plain exit with the window in com).
  std::vector<char> ending(static_cast<std::size_t>(trace.nrlocs()), 0);
  for (Position pos = 1; pos <= trace.size(); ++pos) {
    const Event& e = trace.event(static_cast<std::int64_t>(pos));
    if (otf2_ends && e.type == collective_end) {
      ending[e.loc] = 1;
    } else if (is_exit(e.kind)) {
      if (collectives && e.kind == EventKind::CollectiveExit && e.enterptr)
        plan.collective_enters.push_back(e.enterptr);
      if (ending[e.loc] || (e.kind == EventKind::Exit && e.com >= 0)) {
        if (e.enterptr) plan.window_calls.push_back(e.enterptr);
        plan.window_calls.push_back(pos);
      }
      ending[e.loc] = 0;
    }
  }
  std::sort(plan.window_calls.begin(), plan.window_calls.end());
  std::sort(plan.collective_enters.begin(), plan.collective_enters.end());
  return plan;
}

Mapped map_record(const Event& e, const std::string& type, int team, bool rma_collectives_held,
                  WriterEvent& g) {
  switch (e.kind) {
    case EventKind::Fork:
    case EventKind::Join:
      g.kind = e.kind == EventKind::Fork ? WriterEventKind::Fork : WriterEventKind::Join;
      g.tag = team;
      return Mapped::Written;
    case EventKind::RmaTransferStart:
      if (type != "put_1ts") return Mapped::Dropped;  // get_1to: no WriterEvent
      g.kind = WriterEventKind::RmaPut;
      g.peer = e.peer;
      g.tag = e.tag;
      g.len = e.len;
      return Mapped::Written;
    case EventKind::RmaTransferEnd:
      if (type != "put_1te") return Mapped::Dropped;
      g.kind = WriterEventKind::RmaPutComplete;
      g.loc = (e.flags & kStartOnPeer) ? e.peer : e.loc;
      g.tag = e.tag;
      return Mapped::Written;
    case EventKind::WindowLock:
      g.peer = e.peer;
      if (type == "wunlock") {
        g.kind = WriterEventKind::RmaLockRelease;
        return Mapped::Written;
      }
      g.kind = e.data2.kind != Value::Kind::None && e.data2.unsigned_integer == 1
                   ? WriterEventKind::RmaLockRequest
                   : WriterEventKind::RmaLockAcquire;
      g.tag = e.data1.kind != Value::Kind::None && e.data1.unsigned_integer == 1 ? 1 : 0;
      return Mapped::Written;
    case EventKind::Other:
      if (type == "mpi_irecv_request" || type == "mpi_recv_request" ||
          type == "mpi_isend_complete" || type == "mpi_send_complete") {
        if (e.data1.kind != Value::Kind::UInt && e.data1.kind != Value::Kind::Int) return Mapped::Dropped;
        const bool posted = type == "mpi_irecv_request" || type == "mpi_recv_request";
        g.kind = posted ? WriterEventKind::IrecvRequest : WriterEventKind::IsendComplete;
        g.request = static_cast<std::int64_t>(request_of(e));
        return g.request >= 0 ? Mapped::Written : Mapped::Dropped;
      }
      if (rma_collectives_held && (type == "rma_collective_begin" || type == "rma_collective_end" ||
                                   type == "rma_win_create" || type == "rma_win_destroy"))
        return Mapped::Carried;
      return Mapped::Dropped;
    default:
      return Mapped::Dropped;
  }
}

}  // namespace earl::convert
