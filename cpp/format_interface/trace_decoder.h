#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "model/definitions.h"
#include "model/event.h"

namespace earl {

// Where a decoder stands in its input; opaque to everyone but the decoder that made it
// (ALOG: one byte offset or sorted index; OTF2: one reader position per location).
struct DecoderPosition {
  std::vector<std::uint64_t> words;
};

// What a decoder knows after one full pass that a later open of the same, unchanged
// trace can reuse instead of passing again (the persisted index, cpp/index/): the final
// definitions, tables of its own, and optionally a file of its own whose bytes are kept
// with the index (the event cache). Opaque to everyone but the decoder that made it.
struct DecoderState {
  Definitions definitions;
  std::vector<std::vector<std::uint64_t>> tables;
  // The file's bytes are `data_bytes` long from `data_offset` on. Saving: data_fd is the
  // file to copy (not owned). Restoring: restored_fd is the copy, which the decoder then
  // owns (-1: none).
  int data_fd = -1;
  std::uint64_t data_bytes = 0;
  std::uint64_t data_offset = 0;
  int restored_fd = -1;
};

// Thrown by read() when the decoder found it has to reorganise its input (an unsorted
// ALOG file): the caller restarts its pass from start_position() (read_from_start).
struct DecoderRestart {};

// How a format's reader treats its input (TraceFormat::open_reader, open_import).
struct ReadOptions {
  // A damaged part of the input (an event file cut short or corrupted, an ALOG line that
  // cannot be read) is an error. Without it, a reader that can tell which location's
  // stream is damaged reads that stream up to the damage, reports it in damage() and goes
  // on with the others (ALOG: the file up to the damaged line).
  bool strict = false;
};

// A location's stream that ends early because its input is damaged: the events before
// `record` were read, nothing from it on. A format whose locations share one stream (ALOG:
// one file in time order) gives one entry for all of them, loc -1.
struct StreamDamage {
  Location loc = 0;            // -1: every location
  std::uint64_t record = 0;    // the first record not read (1-based)
  std::uint64_t announced = 0; // records the trace announces for the location (0: unknown)
  std::string message;         // one line: file, location (ALOG: line), record and reason
};

// The sequential trace of the thesis: read the next record in global time order, save and
// restore the read position, and the header information. A format is one such class.
class TraceDecoder {
 public:
  virtual ~TraceDecoder() = default;

  virtual std::string format() const = 0;
  virtual std::string file() const = 0;

  // Decodes the next event in global order into `event`, overwriting every attribute but
  // pos and enterptr (the pointer slot is 0 unless the format supplies it).
  // Returns false at the end. Bad records throw EarlError naming file, record and problem.
  virtual bool read(Event& event) = 0;

  virtual DecoderPosition position() const = 0;
  virtual void seek(const DecoderPosition& position) = 0;
  virtual DecoderPosition start_position() const = 0;

  // Fraction of the input consumed so far, 0..1, for progress displays.
  virtual double progress() const = 0;

  // Whether reading again after the first full pass reads the trace's own files (false:
  // a copy of their events, the event cache), so that a change of the trace after opening
  // matters to it (RandomAccessTrace::set_input_check).
  virtual bool rereads_input() const { return true; }

  // What a seek() costs, in events one could decode instead: forward jumps shorter than
  // this decode on rather than restore a bookmark.
  virtual std::uint64_t seek_cost_in_events() const { return 0; }

  // After a full pass (read() returned false): fills `state` and returns true where the
  // decoder can be restored from it (registry/format_registry.h, open_decoder).
  virtual bool save_state(DecoderState& state) const { return false; }
  // Takes a state save_state gave for this trace, instead of a full pass. Decoders that
  // keep their state at construction (the event cache) are restored by the registry.
  virtual void restore_state(DecoderState& state);

  // The streams found damaged so far, at most one entry per location, in the order found
  // (complete after a full pass).
  virtual std::vector<StreamDamage> damage() const { return {}; }

  // Definitions may grow while reading (locations seen first in events); they are final
  // after one full pass.
  virtual const Definitions& definitions() const = 0;
};

// Runs `pass` (reading `decoder` from its start) until it completes without the decoder
// reorganising its input (DecoderRestart): each try seeks to the start first, so `pass`
// begins with fresh state of its own. Returns what `pass` returns.
template <typename Pass>
decltype(auto) read_from_start(TraceDecoder& decoder, Pass&& pass) {
  for (;;) {
    try {
      decoder.seek(decoder.start_position());
      return pass();
    } catch (const DecoderRestart&) {
      // The decoder reordered an unsorted input: start again in its new order.
    }
  }
}

}  // namespace earl
