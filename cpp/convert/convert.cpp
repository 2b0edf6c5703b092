#include "convert/convert.h"
#include "convert/record_events.h"
#include "convert/counts.h"
#include "convert/trace_files.h"
#include "convert/wait_annotations.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <set>

#include "format_interface/trace_writer.h"
#include "model/clock.h"
#include "model/error.h"
#include "registry/format_registry.h"
#include "trace/event_trace.h"


namespace earl::convert {

namespace {

constexpr std::size_t kBatch = 4096;
constexpr Position kPollEvery = 1 << 16;

[[noreturn]] void bad(const std::string& what) { throw EarlError("earl convert: " + what); }

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// OTF2 output's names of location `l`: its process (location group) and thread, exactly
// as OTF2 input names them (its system tree says which process; the location name is
// "process / thread"), else from "A / B" -> {"A", "B"}, any other name -> {name, none}; an
// unnamed location -> {none, none} (the writer's Score-P names).
using Name = std::optional<std::string>;
std::pair<Name, Name> process_and_thread(const Definitions& defs, Location l, const std::string& name) {
  const SystemTree& tree = defs.system_tree;
  const std::string separator = " / ";
  if (static_cast<std::size_t>(l) < tree.location_process.size()) {
    const std::string& process = tree.processes[static_cast<std::size_t>(tree.location_process[l])].name;
    if (name.compare(0, process.size() + separator.size(), process + separator) == 0)
      return {process, name.substr(process.size() + separator.size())};
  }
  if (name.empty()) return {std::nullopt, std::nullopt};
  const std::size_t at = name.rfind(separator);
  if (at == std::string::npos) return {name, std::nullopt};
  return {name.substr(0, at), name.substr(at + separator.size())};
}

// OTF2 output: the threads of one process stay its threads (as Score-P names and orders
// them: "P / Master thread" first, then "P / <thread>", process-major) when every process
// has the same number of them; otherwise every location is a process of its own.
void group_threads(TraceHeader& h) {
  const int n = h.locations;
  int t = 0;
  while (t < n && h.process_names[t] == h.process_names[0]) ++t;
  if (t <= 1 || n % t != 0 || !h.process_names[0]) return;
  for (int l = 0; l < n; ++l) {
    const int first = l - l % t;
    if (h.process_names[l] != h.process_names[first]) return;
    if ((l == first) != (h.thread_names[l] == Name("Master thread"))) return;
    if (l == first && l > 0 && h.process_names[l] == h.process_names[l - t]) return;
  }
  std::vector<Name> processes;
  for (int p = 0; p < n / t; ++p) processes.push_back(h.process_names[static_cast<std::size_t>(p) * t]);
  h.process_names = std::move(processes);
  h.threads = t;
}

// Threads per process where the input's system tree places its locations in processes of
// equally many, each process's consecutive (as OTF2's and the writers' numbering has
// them); else 1 (every location a process of its own).
int threads_per_process(const Definitions& defs, Location n) {
  const std::vector<std::int64_t>& process = defs.system_tree.location_process;
  if (n <= 0 || process.size() != static_cast<std::size_t>(n)) return 1;
  int t = 0;
  while (t < n && process[t] == process[0]) ++t;
  if (n % t != 0) return 1;
  for (Location l = 0; l < n; ++l) {
    const Location first = l - l % t;
    if (process[l] != process[first]) return 1;
    if (l == first && l > 0 && process[l] == process[l - t]) return 1;
  }
  return t;
}

TraceHeader header_of(const EventTrace& trace, bool otf2_output, bool mpi_output) {
  const Definitions& defs = trace.definitions();
  TraceHeader h;
  h.locations = trace.nrlocs();
  h.threads = 1;
  for (Location l = 0; l < h.locations; ++l) {
    const std::optional<std::string> name = trace.locsym(l);
    // ALOG locations are processes: "MPI Rank 3 / Master thread" is "MPI Rank 3" there (and
    // " / Master thread", of a process named "", unnamed).
    std::string flat = name ? *name : std::string();
    const std::string master = " / Master thread";
    if (!otf2_output && ends_with(flat, master))
      flat.resize(flat.size() - master.size());
    h.location_names.push_back(flat);
    if (otf2_output) {
      auto [process, thread] = process_and_thread(defs, l, name ? *name : std::string());
      h.process_names.push_back(std::move(process));
      h.thread_names.push_back(std::move(thread));
    }
  }
  const int threads = threads_per_process(defs, h.locations);
  if (otf2_output) {
    group_threads(h);
    // Threads named otherwise than Score-P's (EPILOG's): the input's processes say.
    if (h.threads == 1 && threads > 1) {
      std::vector<Name> processes;
      for (Location l = 0; l < h.locations; l += threads) {
        const std::string& process = defs.system_tree.processes[static_cast<std::size_t>(defs.system_tree.location_process[l])].name;
        processes.push_back(process.empty() ? Name() : Name(process));
      }
      h.process_names = std::move(processes);
      h.threads = threads;
      // A name without " / " is its thread's, but the process's own (its master's): Score-P's.
      for (Location l = 0; l < h.locations; ++l)
        if (!h.thread_names[l] && !h.location_names[l].empty() && Name(h.location_names[l]) != h.process_names[l / threads])
          h.thread_names[l] = h.location_names[l];
    }
  } else if (mpi_output) {
    h.threads = threads;
  }
  for (SymbolId r = 0; r < defs.regions.size(); ++r) {
    RegionDef region;
    region.name = defs.regions.name(r);
    if (r < defs.region_group.size() && defs.region_group[r] < defs.groups.size())
      region.group = defs.groups.name(defs.region_group[r]);
    h.regions.push_back(std::move(region));
  }
  return h;
}

// The program of OTF2 input's ProgramBegin records (Score-P writes one as the first event
// of every location, all of the same program): looked for until every location has begun.
std::string program_name_of(EventTrace& trace) {
  const Definitions& defs = trace.definitions();
  std::vector<char> begun(static_cast<std::size_t>(trace.nrlocs()), 0);
  Location waiting = trace.nrlocs();
  for (Position pos = 1; pos <= trace.size() && waiting > 0; ++pos) {
    const Event& e = trace.event(static_cast<std::int64_t>(pos));
    if (e.kind == EventKind::Other && defs.types.name(e.type) == "program_begin" &&
        e.data1.kind == Value::Kind::String)
      return defs.strings.name(e.data1.string);
    if (!begun[e.loc]) {
      begun[e.loc] = 1;
      --waiting;
    }
  }
  return "";
}

// Scalasca's analysis needs the end of MPI_Init on every MPI process as the first point
// all ranks share (its synchronisation-point search aborts without one, and ranks without
// it leave the others waiting); Score-P always records it. In OTF2 output every location is
// an MPI process, so each location that does not call MPI_Init itself (all of ALOG input's,
// whose MPI programs do not record it; the worker threads of OTF2 input) gets a zero-length
// MPI_Init at its first event and a zero-length MPI_Finalize at its last: they hold no
// time, so every time and wait state stays what it was.
struct AddedFrame {
  std::vector<char> needed;                // per location: it gets the calls
  bool any = false;
  std::int32_t init = -1, finalize = -1;   // region ids
  std::vector<char> started;               // per location
  std::vector<std::int64_t> last_time;     // per location (microseconds)
};

// The locations that enter region `init` themselves (a pass over the input).
std::vector<char> locations_entering(EventTrace& trace, std::int32_t init) {
  std::vector<char> enters(static_cast<std::size_t>(trace.nrlocs()), 0);
  for (Position pos = 1; pos <= trace.size(); ++pos) {
    const Event& e = trace.event(static_cast<std::int64_t>(pos));
    if (e.kind == EventKind::Enter && static_cast<std::int32_t>(e.region) == init) enters[e.loc] = 1;
  }
  return enters;
}

AddedFrame plan_added_frame(TraceHeader& header, EventTrace& trace) {
  AddedFrame frame;
  auto region = [&](const char* name) {
    for (std::size_t r = 0; r < header.regions.size(); ++r)
      if (header.regions[r].name == name) return static_cast<std::int32_t>(r);
    return std::int32_t{-1};
  };
  const auto n = static_cast<std::size_t>(header.locations);
  frame.init = region("MPI_Init");
  const std::int32_t init_thread = region("MPI_Init_thread");
  if (frame.init < 0 && init_thread < 0) {
    frame.needed.assign(n, 1);
  } else {
    frame.needed.assign(n, 1);
    for (std::int32_t r : {frame.init, init_thread}) {
      if (r < 0) continue;
      const std::vector<char> enters = locations_entering(trace, r);
      for (std::size_t l = 0; l < n; ++l)
        if (enters[l]) frame.needed[l] = 0;
    }
  }
  for (std::size_t l = 0; l < n; ++l)
    if (l % static_cast<std::size_t>(header.threads) != 0) frame.needed[l] = 0;  // threads are no processes
  frame.any = std::find(frame.needed.begin(), frame.needed.end(), 1) != frame.needed.end();
  if (!frame.any) return frame;
  if (frame.init < 0) {
    frame.init = static_cast<std::int32_t>(header.regions.size());
    header.regions.push_back({"MPI_Init", "", "MPI"});
  }
  frame.finalize = region("MPI_Finalize");
  if (frame.finalize < 0) {
    frame.finalize = static_cast<std::int32_t>(header.regions.size());
    header.regions.push_back({"MPI_Finalize", "", "MPI"});
  }
  frame.started.assign(n, 0);
  frame.last_time.assign(n, INT64_MIN);
  return frame;
}

void add_call(std::vector<WriterEvent>& batch, Location loc, std::int32_t region, std::int64_t time) {
  WriterEvent e;
  e.loc = loc;
  e.time = time;
  e.region = region;
  e.kind = WriterEventKind::Enter;
  batch.push_back(e);
  e.kind = WriterEventKind::Exit;
  batch.push_back(e);
}

// Whether the writer has records for events of `kind` at all (ALOG has no one-sided
// ones): it takes a plain one, on location 0 with peer 0 (a put's completion: the put).
bool writer_holds(const TraceWriter& writer, WriterEventKind kind) {
  WriterEvent probe;
  probe.kind = kind == WriterEventKind::RmaPutComplete ? WriterEventKind::RmaPut : kind;
  probe.peer = 0;
  probe.request = 0;
  return writer.refusal(probe).empty();
}

}  // namespace

ConvertSummary convert(const std::string& input, const std::string& output,
                       const ConvertOptions& options) {
  if (input.empty()) bad("no input trace");
  if (output.empty()) bad("no output path");
  std::string format = options.format;
  if (!format.empty()) {
    const std::string why = why_not_writable(format);
    if (!why.empty()) bad(why);
  }
  if (overwrites_trace(input, output))
    bad("'" + output + "' is the input trace '" + input + "' itself; choose another output path");

  EventTrace::Options trace_options;  // detect IN's format from its content
  trace_options.strict = options.strict;
  EventTrace trace(input, trace_options, options.progress);

  ConvertSummary summary;
  summary.input_format = trace.format();
  for (const StreamDamage& damage : trace.problems().damaged) summary.damaged.push_back(damage.message);
  if (format.empty()) format = format_for_path(output);
  if (format.empty()) format = summary.input_format;
  const std::string why = why_not_writable(format);
  if (!why.empty())
    bad(why + ", the input's format; give --format or an output path ending in .alog or .otf2");
  summary.output_format = format;
  const bool otf2 = format == "otf2";

  const Definitions& defs = trace.definitions();
  // Outputs with MPI's model (processes of threads, collectives); ALOG's locations are
  // processes without collectives.
  const bool mpi_output = otf2 || format == "epilog";
  TraceHeader header = header_of(trace, otf2, mpi_output);
  const RecordPlan records = plan_records(trace, otf2);
  header.rma_window = records.rma;
  AddedFrame frame;
  if (otf2) {
    header.program_name = program_name_of(trace);
    frame = plan_added_frame(header, trace);
  }
  std::unique_ptr<TraceWriter> writer = open_writer(format, output, WriterOptions{});
  if (options.wait_states && !writer->shows_annotations()) {
    writer->discard();
    bad("--wait-states (wait_states): " + format + " output cannot show wait states; write Chrome JSON (OUT.json)");
  }
  try {
    writer->begin(header);
    if (options.wait_states) {
      const WaitAnnotations waits =
          wait_annotations(input, summary.input_format, options.strict, options.wait_states_limit, options.progress);
      writer->annotate(waits.annotations);
      summary.wait_states_written = waits.annotations.size();
      summary.wait_states_left_out = waits.left_out;
    }
    // Whether the output has one-sided records at all (ALOG has none): then the window
    // calls' own OTF2 records are written again from their flags.
    const bool rma_held = header.rma_window && header.locations > 0 && writer_holds(*writer, WriterEventKind::RmaPut);
    std::vector<WriterEvent> batch;
    batch.reserve(kBatch);
    std::uint64_t carried = 0;  // written again from their call's flag
    std::set<std::pair<Location, std::int64_t>> open_puts;  // (origin, put id) written, not completed
    std::int64_t prev_time = INT64_MIN;
    Location prev_loc = -1;
    const Position m = trace.size();
    for (Position pos = 1; pos <= m; ++pos) {
      if (options.poll && pos % kPollEvery == 0) options.poll();
      const Event& e = trace.event(static_cast<std::int64_t>(pos));
      ++summary.events_read;
      WriterEvent g;
      g.loc = e.loc;
      switch (e.kind) {
        case EventKind::Enter:
          g.kind = WriterEventKind::Enter;
          g.region = static_cast<std::int32_t>(e.region);
          if (rma_held && records.window_call(pos)) g.flags = kWriterRmaCollective;
          if (otf2 && records.collective_enter(pos)) g.flags |= kWriterCollective;
          break;
        case EventKind::Exit:
          g.kind = WriterEventKind::Exit;
          g.region = static_cast<std::int32_t>(e.region);
          if (rma_held && records.window_call(pos)) g.flags = kWriterRmaCollective;
          break;
        case EventKind::CollectiveExit:
          g.kind = WriterEventKind::Exit;
          g.region = static_cast<std::int32_t>(e.region);
          if (writer->holds_collectives()) {
            g.flags = kWriterCollective;
            g.len = e.len;         // sent
            g.received = static_cast<std::uint64_t>(e.tag);    // recvd (uint64 in OTF2)
            g.peer = e.peer;       // root
          } else {
            ++summary.collective_exits_plain;
          }
          break;
        case EventKind::Send:
        case EventKind::Recv:
          g.kind = e.kind == EventKind::Send ? WriterEventKind::Send : WriterEventKind::Recv;
          g.peer = e.peer;
          g.tag = e.tag;
          g.len = e.len;
          // OTF2's MpiIsend/MpiIrecv keep their request id in data1.
          if (e.data1.kind == Value::Kind::UInt && e.data1.unsigned_integer <= INT64_MAX)
            g.request = static_cast<std::int64_t>(e.data1.unsigned_integer);
          break;
        case EventKind::Other:
          if (otf2 && !header.program_name.empty()) {
            const std::string& type = defs.types.name(e.type);
            if (type == "program_begin" || type == "program_end") {
              g.kind = type == "program_begin" ? WriterEventKind::ProgramBegin : WriterEventKind::ProgramEnd;
              break;
            }
          }
          [[fallthrough]];
        default:
          switch (map_record(e, defs.types.name(e.type), header.threads, rma_held, g)) {
            case Mapped::Written: break;
            case Mapped::Carried: ++carried; continue;
            case Mapped::Dropped: add_count(summary.dropped, defs.types.name(e.type)); continue;
          }
          break;
      }
      const double us = e.time * kMicrosecondsPerSecond;
      const double rounded = std::nearbyint(us);
      if (!std::isfinite(rounded) || std::fabs(rounded) > 9.0e18)
        bad("event " + std::to_string(pos) + " of '" + input + "': time out of range");
      if (std::fabs(us - rounded) > 1e-3) ++summary.times_rounded;
      g.time = static_cast<std::int64_t>(rounded);
      if (const std::string why = writer->refusal(g); !why.empty()) {
        // A kind the output has no record of is a dropped type; a message or put that
        // does not fit is one refused event.
        const bool record_kind = g.kind != WriterEventKind::Enter && g.kind != WriterEventKind::Exit &&
                                 g.kind != WriterEventKind::Send && g.kind != WriterEventKind::Recv;
        if (record_kind && !writer_holds(*writer, g.kind))
          add_count(summary.dropped, defs.types.name(e.type));
        else
          add_count(summary.refused, why);
        continue;
      }
      if (g.kind == WriterEventKind::RmaPut) {
        open_puts.insert({g.loc, g.tag});
      } else if (g.kind == WriterEventKind::RmaPutComplete && open_puts.erase({g.loc, g.tag}) == 0) {
        add_count(summary.refused, "put completion without its put");  // e.g. its put refused
        continue;
      }
      if (otf2 && g.time == prev_time && g.loc < prev_loc) ++summary.ties_reordered;
      prev_time = g.time;
      prev_loc = g.loc;
      if (frame.any && frame.needed[g.loc]) {
        if (!frame.started[g.loc]) {
          frame.started[g.loc] = 1;
          add_call(batch, g.loc, frame.init, g.time);
          summary.frame_events_added += 2;
        }
        frame.last_time[g.loc] = g.time;
      }
      batch.push_back(g);
      if (batch.size() == kBatch) {
        writer->write(batch.data(), batch.size());
        summary.events_written += batch.size();
        batch.clear();
      }
    }
    for (Location l = 0; frame.any && l < header.locations; ++l)
      if (frame.started[l]) {
        add_call(batch, l, frame.finalize, frame.last_time[l]);
        summary.frame_events_added += 2;
      }
    writer->write(batch.data(), batch.size());
    summary.events_written += batch.size();
    summary.events_written -= summary.frame_events_added;  // the input's events only
    summary.events_written += carried;
    writer->finish();
    summary.renamed = writer->renamed();  // OTF2 writes its names at the end
    writer->commit();
  } catch (...) {
    writer->discard();
    throw;
  }
  return summary;
}

}  // namespace earl::convert
