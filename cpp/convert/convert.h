#pragma once
// `earl convert IN OUT`: a trace of one format rewritten in another, where the EARL model
// allows it. IN is read through EventTrace (any format EARL reads, detected from its
// content) and streamed event by event (memory stays bounded as for any EventTrace); OUT
// is written by the format's writer from the format registry (registry/format_registry.h).
//
// Kept: enter, exit, send, recv with their attributes; location names; regions (and their
// groups where the output has them). Collective exits become plain exits in ALOG; in OTF2
// and EPILOG they keep com (as MPI_COMM_WORLD), root, sent and recvd (OTF2 begins the
// operation at the call's enter), in Chrome JSON root, sent and recvd. Where the output holds them (OTF2, EPILOG): fork/join,
// puts with their completions, window locks (and lock requests), window-collective calls
// and non-blocking requests, mapped back as convert/record_events.h says; the output's
// threads per process and its window come from the input. Every other event type (gets,
// thread locks, metrics, OTF2's other records) and every event of a kind the output has
// no record of (TraceWriter::refusal of a plain one: ALOG's puts and locks, EPILOG's
// request records) is dropped and counted per type in the summary, never silently. Times are written in integer microseconds: ALOG -> OTF2 exactly (timer
// resolution 1e6); OTF2 -> ALOG rounded to the nearest microsecond (counted when that
// loses anything).
//
// Location names: ALOG output gets EARL's location names (locsym), "A / Master thread"
// shortened to "A" (an ALOG location is a process). OTF2 output: OTF2 input's process and
// thread names exactly (from its system tree; empty names stay empty); otherwise a location
// name "A / B" names the process A and the thread B (at its last " / "), any other name
// names the process (thread "Master thread"), so names survive round trips both ways. Where every process has the same
// number of threads, its master first and process-major (as Score-P writes them), they stay
// threads of their process and MPI_COMM_WORLD's rank r is process r; otherwise every
// location becomes its own MPI process, MPI_COMM_WORLD rank = location. OTF2 output is shaped for Scalasca as Score-P's:
// OTF2 input's ProgramBegin/ProgramEnd records are kept; input without MPI_Init gets a
// zero-length MPI_Init at each location's first event and a zero-length MPI_Finalize at
// its last (counted in the summary), the synchronisation point Scalasca's analysis needs. Communicators other than MPI_COMM_WORLD are not kept (src/dest are global
// locations anyway). Equal times on different locations are ordered by location in OTF2,
// so ALOG files that order them differently come back reordered (counted).
//
// Nothing the output cannot hold is written wrong: an event the writer refuses
// (TraceWriter::refusal: a receive from an unknown source, a tag or length beyond the
// format's fields) is left out and counted by reason in `refused`; a name holding bytes the
// format cannot carry is written escaped (format_interface/written_names.h) and counted
// by kind in `renamed`. So the output reads back to the events written, and the summary
// says what differs.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace earl::convert {

struct ConvertOptions {
  std::string format;           // output format; "" = from OUT's suffix, else IN's format
  std::function<void()> poll;   // called every few thousand events; may throw to stop
  std::function<bool(double)> progress;  // while IN is opened (scanned); false stops
  bool strict = false;          // a damaged IN is an error (else: converted up to the damage)
  // --wait-states: EARL's analysis of IN runs first and its wait states, the longest
  // `wait_states_limit` of them, go to the writer as annotations (convert/wait_annotations.h);
  // an output format that cannot show them (TraceWriter::shows_annotations) is an error.
  bool wait_states = false;
  std::size_t wait_states_limit = 1000000;
};

struct ConvertSummary {
  std::string input_format, output_format;
  std::uint64_t events_read = 0, events_written = 0;
  std::vector<std::pair<std::string, std::uint64_t>> dropped;  // type -> count, by first drop
  // Events of a kept type the output cannot hold as they are (a message without a known
  // peer, a tag or length beyond the format's fields): reason (TraceWriter::refusal) -> count.
  std::vector<std::pair<std::string, std::uint64_t>> refused;
  // Names written changed (bytes the output cannot hold, escaped as \xNN): kind -> count.
  std::vector<std::pair<std::string, std::uint64_t>> renamed;
  std::uint64_t collective_exits_plain = 0;  // collective exits written without com/root/sizes
  std::uint64_t times_rounded = 0;           // events whose time was no whole microsecond
  std::uint64_t ties_reordered = 0;          // equal times that OTF2 orders by location
  std::uint64_t frame_events_added = 0;      // OTF2: zero-length MPI_Init/MPI_Finalize enters and exits
  std::vector<std::string> damaged;          // what IN's damage left out (one line each)
  std::uint64_t wait_states_written = 0;     // --wait-states: annotations written
  std::uint64_t wait_states_left_out = 0;    // --wait-states: the shortest, beyond the limit
};

// Converts; EarlError names the file and what failed (a partial OUT is removed).
ConvertSummary convert(const std::string& input, const std::string& output,
                       const ConvertOptions& options);

}  // namespace earl::convert
