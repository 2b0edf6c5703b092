#pragma once
// `earl merge OUT IN...` (SIMPLE's MERGE): local traces of separate processes (one ALOG
// file per process, OTF2 archives of separate runs of a client and a server) joined into
// one global, time-sorted trace written by the registry's writers.
//
// Locations. Two modes:
//   Keep      an input's locations keep their numbers: the inputs are per-rank pieces of
//             one run (MPE writes one ALOG file per process, each naming its own rank, and
//             a send names its destination's global rank). A location with events in two
//             inputs is an error in this mode.
//   Renumber  every input's locations become locations of their own, numbered in input
//             order (input 0's first); a message's peer is renumbered with its input. The
//             inputs are separate runs: a location is named "FILE: NAME" (FILE the input's
//             file name), and collective exits are written as plain exits (the runs share
//             no communicator, and the writers know only MPI_COMM_WORLD).
//   Auto      Keep when no location has events in two inputs, else Renumber.
// Definitions are unified by name: a region of the same name in two inputs is one region.
//
// Clocks. Each input's times are shifted by its offset (global = local + offset). An offset
// is given, or estimated (`estimate`) from the messages between inputs (Keep mode: a send
// in one input whose destination is a location of another, and its receive there, matched
// first-in first-out per sender, receiver and tag): a message from input a to input b
// says offset_b - offset_a >= send - recv, one from b to a says offset_b - offset_a <=
// recv - send; the offset interval is the intersection of these bounds and the estimate its
// midpoint (Cristian, Duda), or the one bound when messages go one way only. Bounds combine
// along chains of inputs (a -> b -> c -> a bounds each both ways) and with the given
// offsets (convert/merge_offsets.h). The reference input (the first with a given offset,
// else the first) keeps its offset; an input no chain of messages links to it keeps the
// reference's offset and is reported so.
//
// Kept: enter, exit, collective exits (plain exits where the output has no collectives or
// the inputs are separate runs),
// send, recv. Other event types are dropped and counted by type; a message whose peer is no
// location of its input (Renumber) is left out and counted. Times are written in integer
// microseconds (offsets rounded to a microsecond); events of equal time are written by
// location.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace earl::convert {

enum class LocationMode { Auto, Keep, Renumber };
// "auto", "keep", "renumber" (the names every language uses); EarlError for another.
LocationMode location_mode(const std::string& name);

struct MergeInput {
  std::string path;
  std::optional<double> offset;  // seconds; given by the caller
  // The input's format (a registry name, described:DESC); "" = detected from its content.
  // Described formats cannot be detected, so their inputs name it.
  std::string format;
};

struct MergeOptions {
  std::string format;  // output format; "" = from OUT's suffix, else the first input's
  LocationMode mode = LocationMode::Auto;
  bool estimate = false;        // estimate the offsets not given
  std::function<void()> poll;   // called every few thousand events; may throw to stop
};

// How an input's offset came about.
struct InputOffset {
  std::string path, format;
  std::uint64_t events = 0;
  std::int64_t first_location = 0;  // its first location in the output
  std::int64_t locations = 0;       // its locations (Keep: the output's numbers are its own)
  std::vector<std::int64_t> event_locations;  // its locations with events (its own numbers)
  double offset = 0;                // seconds, as applied
  // "given", "reference", "estimated", "bound" (messages one way only), "unlinked" (no
  // message links it: offset 0), "none" (no estimate asked)
  std::string how = "none";
  std::optional<double> low, high;  // estimated: the interval (seconds, absolute)
  std::uint64_t messages = 0;       // messages the estimate used
  std::int64_t linked_to = -1;      // estimated relative to this input (the reference)
};

struct MergeSummary {
  std::string output_format;
  bool kept_locations = false;  // Keep mode (else Renumber)
  std::int64_t locations = 0;
  std::vector<InputOffset> inputs;
  std::uint64_t events_written = 0;
  std::vector<std::pair<std::string, std::uint64_t>> dropped;  // type -> count
  std::vector<std::pair<std::string, std::uint64_t>> refused;  // reason -> count
};

// Merges; EarlError names the input or option at fault (a partial OUT is removed).
MergeSummary merge(const std::string& output, const std::vector<MergeInput>& inputs,
                   const MergeOptions& options);

}  // namespace earl::convert
