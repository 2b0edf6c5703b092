#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "format_interface/line_reader.h"
#include "format_interface/time_sorted_index.h"
#include "format_interface/trace_decoder.h"
#include "model/error.h"

namespace earl {

// ALOG text traces (MPE/Nupshot), mapped as in the thesis' appendix A and
// docs/api-contract.md. Files whose times never decrease are read in file order;
// otherwise the decoder builds a time-sorted index of event lines (24 bytes per event)
// and reads through it.
//
// Damage (docs/formats.md#damaged-alog-files): a line after the first event record that
// cannot be read (cut short, not six integers, bytes that are not text, a record its
// header cannot explain) ends the file there unless `options.strict`: the events before
// it are read, damage() names it. A bad header or first event record is always an error:
// they are what shows that a file is ALOG.
class AlogDecoder : public TraceDecoder {
 public:
  explicit AlogDecoder(const std::string& path, const ReadOptions& options = {});

  std::string format() const override { return "alog"; }
  std::string file() const override { return path_; }
  bool read(Event& event) override;
  DecoderPosition position() const override;
  void seek(const DecoderPosition& position) override;
  DecoderPosition start_position() const override;
  double progress() const override;
  const Definitions& definitions() const override { return definitions_; }
  // One entry for the whole file (loc -1: every location loses what follows the damage).
  std::vector<StreamDamage> damage() const override;
  // The final definitions and, for an unsorted file, the time-sorted index.
  bool save_state(DecoderState& state) const override;
  void restore_state(DecoderState& state) override;

  // True when `text` looks like the start of an ALOG file.
  static bool looks_like(std::string_view text);

 private:
  struct Record {  // the six numeric fields and the comment of one line
    std::int64_t type, process, task, data, cycle, timestamp;
    std::string_view comment;
  };
  struct TypeEntry {  // what an event record type number means
    EventKind kind = EventKind::Other;
    SymbolId type = 0;
    SymbolId region = 0;
  };
  // A line that cannot be read (fail_at); reading after the header catches it as damage.
  struct BadLine : EarlError {
    using EarlError::EarlError;
  };
  // The first line after the first event record that cannot be read: nothing from it on is.
  struct Damage {
    std::uint64_t offset = 0;         // where the line starts
    std::uint64_t line = 0;
    std::uint64_t lines_left = 0;     // lines from it to the end of the file, it included
    std::uint64_t events_before = 0;  // event records read before it
    std::string error;                // what strict reading throws
  };

  void read_header();
  void define(const Record& record);
  void finish_definitions();
  // Reads the next event line (skipping others) in file order; false at the end or at the
  // damage. `offset` is where the returned line starts.
  bool read_file_order(Record& record, std::uint64_t& offset);
  // The next event in file order, decoded, its line starting at `offset`; false at the end
  // or at the damage (found now: noted, or thrown when strict or at the first event record).
  bool read_event(Event& event, std::uint64_t& offset);
  void stop_at_damage(std::uint64_t offset, const BadLine& error);
  // Fills every attribute of `event` from `record`, or throws BadLine leaving the
  // definitions as they were.
  void decode(const Record& record, Event& event);
  void build_sorted_index();
  Record parse(std::string_view text) const;
  // Fails naming the first control byte (other than the blanks) of `part`, which starts at
  // `column` (0-based) of the line: an event line must be text.
  void reject_non_text(std::string_view part, std::size_t column) const;
  [[noreturn]] void fail(const std::string& problem) const;
  [[noreturn]] void fail_at(std::uint64_t line, const std::string& problem) const;
  const TypeEntry* lookup(std::int64_t number) const;
  // `value` as a location, checked against -3 and kMaxLocations (not yet ensured).
  Location location(std::int64_t value, const char* field) const;
  double time_of(const Record& record) const;

  std::string path_;
  bool strict_;
  LineReader reader_;
  Definitions definitions_;

  std::int64_t declared_locations_ = -1;  // -3 record, when present
  std::int64_t rollover_ = -1;            // -11 record, when present
  std::unordered_map<std::int64_t, std::pair<SymbolId, bool>> region_numbers_;  // -13
  std::unordered_map<std::int64_t, std::string> type_numbers_;                 // -9
  std::vector<std::int64_t> type_order_;  // -9 numbers in order of definition
  std::vector<TypeEntry> small_types_;  // type numbers below kSmallTypes
  std::vector<bool> small_defined_;
  std::unordered_map<std::int64_t, TypeEntry> other_types_;

  std::uint64_t first_event_offset_ = 0;
  std::uint64_t first_event_line_ = 1;
  std::uint64_t line_ = 0;  // number of the line last read

  std::optional<Damage> damage_;
  // Event records before counted_until_ (a file offset) have been counted, whatever the
  // seeks between the passes: the count of those before the damage.
  std::uint64_t counted_until_ = 0;
  std::uint64_t events_counted_ = 0;

  TimeSortedIndex sorted_;
};

}  // namespace earl
