#pragma once
// What a format's writer takes: a header, then events in output order, batch by batch.
// The program model (gen/generator.h) hands every round to its sinks sorted by (time,
// location, sequence); `earl convert` (convert/) feeds the same writers from an
// EventTrace. Each format folder that can write holds one TraceWriter (formats/alog,
// formats/otf2), made through the format registry; the generator's ground-truth collector
// is a TraceWriter as well.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace earl {

// Fork/Join: the master thread of a process starts and ends a team of threads (OTF2
// ThreadFork/ThreadJoin; ALOG has no such records and writes trace-defined types).
// RmaPut/RmaPutComplete: a one-sided put on the header's window (TraceHeader::rma_window)
// to the target location `peer`, `len` bytes, and its completion at the origin; `tag` is
// the operation's matching id, the same in both (OTF2 RmaPut/RmaOpCompleteBlocking; ALOG
// has no RMA records and writes nothing for them).
// Non-blocking point to point: a Send/Recv with a `request` id >= 0 is an MPI_Isend's send
// or the receive that completes an MPI_Irecv (OTF2 MpiIsend/MpiIrecv); IrecvRequest marks
// the MPI_Irecv that posted request `request`, IsendComplete the completion of an
// MPI_Isend's request (OTF2 MpiIrecvRequest/MpiIsendComplete; ALOG writes nothing for
// them, its sends and receives as always).
// RmaLockRequest/RmaLockAcquire/RmaLockRelease: a passive-target lock of the window at the
// target location `peer`, exclusive when `tag` is 1, shared when 0 (OTF2 RmaRequestLock/
// RmaAcquireLock/RmaReleaseLock; ALOG writes nothing for them).
// ProgramBegin/ProgramEnd: the program (TraceHeader::program_name) starts and ends on the
// location, its first and last event, as Score-P writes them around main (OTF2
// ProgramBegin/ProgramEnd; ALOG has no program records and writes nothing for them).
enum class WriterEventKind : std::uint8_t {
  Enter, Exit, Send, Recv, Fork, Join, RmaPut, RmaPutComplete, IrecvRequest, IsendComplete,
  RmaLockRequest, RmaLockAcquire, RmaLockRelease, ProgramBegin, ProgramEnd
};

// WriterEvent::flags.
// kWriterCollective on an Enter: the region instance is one MPI collective operation (OTF2
// MpiCollectiveBegin follows the Enter); on an Exit: it ends one (OTF2 MpiCollectiveEnd
// precedes the Leave) with len = bytes sent, received = bytes received, peer = the root
// location or -1. Formats without collectives (ALOG) write a plain exit.
constexpr std::uint8_t kWriterCollective = 1;
// kWriterRmaCollective on the Enter/Exit of MPI_Win_create, MPI_Win_fence or MPI_Win_free:
// the call is one collective operation on the header's window (OTF2 RmaCollectiveBegin
// after the Enter, RmaCollectiveEnd before the Leave, with RmaWinCreate/RmaWinDestroy in
// create/free, as Score-P writes them). Formats without RMA records write plain enters/exits.
constexpr std::uint8_t kWriterRmaCollective = 2;

// One event to write. Times are integer microseconds since the start of the run.
struct WriterEvent {
  std::int64_t time = 0;
  std::uint64_t len = 0;    // send/recv: bytes; collective exit: bytes sent
  std::uint64_t received = 0;  // collective exit: bytes received
  std::int32_t loc = 0;
  std::int32_t region = -1;  // enter/exit: index into TraceHeader::regions
  std::int32_t peer = -1;    // send: destination, recv: source (locations); collective exit: root
  std::int64_t tag = 0;      // send/recv; fork/join: team size
  std::int64_t request = -1;  // non-blocking send/recv and their request records; -1: none
  std::uint32_t seq = 0;     // per-location order within a batch (ties of time and location)
  WriterEventKind kind = WriterEventKind::Enter;
  std::uint8_t flags = 0;    // kWriterCollective, kWriterRmaCollective
};

// Sort order of the output: (time, location, sequence).
inline bool writer_event_before(const WriterEvent& a, const WriterEvent& b) {
  if (a.time != b.time) return a.time < b.time;
  if (a.loc != b.loc) return a.loc < b.loc;
  return a.seq < b.seq;
}

struct RegionDef {
  std::string name;
  std::string style;  // display hint, e.g. "green:boxes" (ALOG writes it before the name)
  // The region's group as EARL names it ("MPI", "USER", "OPENMP", ...; OTF2 paradigms in
  // upper case). Empty or unknown to a format: the format derives it from the name
  // (OTF2: MPI_* is paradigm MPI, anything else USER).
  std::string group;
};

// Locations are numbered 0..locations-1. They are grouped into processes of `threads`
// locations each: location l is thread l % threads of process l / threads (thread 0 is the
// master thread, the one that takes part in MPI). MPI_COMM_WORLD's rank r is process
// rank_process[r] (empty: rank r is process r). Formats without processes or ranks (ALOG)
// ignore all of this but `locations`.
struct TraceHeader {
  int locations = 0;
  std::vector<std::string> location_names;  // ALOG -15 names; "" = none
  // Names may hold any bytes: each writer writes what its format cannot hold escaped and
  // counts it (format_interface/written_names.h, TraceWriter::renamed).
  std::vector<RegionDef> regions;
  int threads = 1;
  std::vector<int> rank_process;
  // OTF2 names: location group (process) and location (thread), by process and by
  // location. Missing (no entry, or nullopt) = the Score-P names "MPI Rank <rank>", "Master
  // thread", "OpenMP thread <k>"; "" is an empty name.
  std::vector<std::optional<std::string>> process_names;
  std::vector<std::optional<std::string>> thread_names;
  // One RMA window over MPI_COMM_WORLD (OTF2 RmaWin 0), the window of the RMA events.
  bool rma_window = false;
  // The program of the ProgramBegin events ("" when there are none).
  std::string program_name;

  int processes() const { return threads > 0 ? locations / threads : locations; }
};

// An interval to show beside the events, on its location: what an analysis found there
// (earl convert --wait-states: one wait state, `name` its pattern "Late Sender", `metric`
// its id "mpi_latesender", `callpath` the calls it waited in, "main/MPI_Recv"). Times in
// microseconds on WriterEvent::time's scale, not rounded.
struct WriterAnnotation {
  std::int32_t loc = 0;
  double begin = 0, duration = 0;
  std::string name, metric, callpath;
};

class TraceWriter {
 public:
  virtual ~TraceWriter() = default;
  // Called once before any event.
  virtual void begin(const TraceHeader& header) = 0;
  // A batch of events in output order; batches never overlap in time.
  virtual void write(const WriterEvent* events, std::size_t count) = 0;
  // Called once after the last event; flushes and closes. Errors throw EarlError.
  // A file writer writes under a staging name beside its path (output/staged_output.h).
  virtual void finish() = 0;
  // After finish(): puts the output under its path (flushed to disk, renamed into place;
  // the part OTF2 readers open last). A writer destroyed without it leaves no output and
  // any old file at its path untouched.
  virtual void commit() {}
  // Removes whatever the writer wrote (after a failure; the writer is unusable afterwards).
  virtual void discard() {}
  // Why the format cannot hold `e` as it is ("recv from an unknown source", ...), "" when it
  // can: a caller that must not fail (earl convert) leaves such events out and counts them
  // by this reason; write() refuses them with an error.
  virtual std::string refusal(const WriterEvent& e) const { return ""; }
  // Whether the format keeps a collective exit's root and bytes (kWriterCollective on an
  // Exit); where not, `earl convert` writes it as a plain exit and counts it.
  virtual bool holds_collectives() const { return false; }
  // True when the format can show annotations (annotate() writes them); the others ignore
  // them, and a caller that asks for them for such a format says it cannot.
  virtual bool shows_annotations() const { return false; }
  // Annotations to show, any number of calls between begin() and finish(), any order.
  virtual void annotate(const std::vector<WriterAnnotation>& annotations) {}
  // The names begin() had to write changed, per kind (written_names.h).
  virtual std::vector<std::pair<std::string, std::uint64_t>> renamed() const { return {}; }
};

// Writer options every format may use.
struct WriterOptions {
  std::int64_t rollover = 0;  // clock roll-over point in microseconds; 0 = none
  bool big_endian = false;    // EPILOG: numbers in big-endian byte order
};

}  // namespace earl
