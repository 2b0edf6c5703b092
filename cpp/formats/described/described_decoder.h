#pragma once
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "format_interface/time_sorted_index.h"
#include "format_interface/trace_decoder.h"
#include "formats/described/description.h"
#include "formats/described/record_input.h"

namespace earl {

// A trace read through a description (docs/formats.md#described-formats): the record
// input parses each record's fields, this class maps them onto EARL's events and
// definitions. Definition records come before the first event record (they are read at
// open), or with definitions = "anywhere" anywhere (a scan of the whole file at open). Files whose times never decrease are read in file order; otherwise, as for ALOG,
// a stable time-sorted index of the event records' offsets (24 bytes per event) is built
// and the pass restarts (DecoderRestart). Positions are byte offsets, or indices into the
// sorted index, so random access and the persisted index work.
//
// Damage, as for ALOG (docs/formats.md#damaged-described-traces): a record after the first
// event record that cannot be read or mapped (BadRecord) ends the trace there unless
// `options.strict`: the events before it are read, damage() names it. A bad definition
// or first event record is always an error: they show that the file has this format.
class DescribedDecoder : public TraceDecoder {
 public:
  // `name` is what the format is called in format(): "described:alog".
  DescribedDecoder(const std::string& path, Description description, const std::string& name,
                   const ReadOptions& options = {});

  std::string format() const override { return name_; }
  std::string file() const override { return path_; }
  bool read(Event& event) override;
  DecoderPosition position() const override;
  void seek(const DecoderPosition& position) override;
  DecoderPosition start_position() const override;
  double progress() const override;
  const Definitions& definitions() const override { return definitions_; }
  bool save_state(DecoderState& state) const override;
  void restore_state(DecoderState& state) override;
  // One entry for the whole file (loc -1: every location loses what follows the damage).
  std::vector<StreamDamage> damage() const override;

 private:
  struct Code {  // what a code (define = "code") means
    EventKind kind = EventKind::Other;
    SymbolId type = 0;
    SymbolId region = 0;
    bool defined = false;
  };

  void read_definitions();
  void define(const RecordSpec& spec, const ParsedRecord& record);
  void finish_codes();
  // The next event record in file order; false at the end or at the damage.
  bool next_event(ParsedRecord& record);
  // The next event in file order, decoded; false at the end or at the damage (found now:
  // noted, or thrown when strict or before any event was read).
  bool read_event(Event& event);
  // Fills every attribute of `event` from `record`, or throws BadRecord leaving the
  // definitions as they were.
  void decode(const ParsedRecord& record, Event& event);
  void build_sorted_index();
  [[noreturn]] void fail(const ParsedRecord& record, const std::string& problem) const;

  // Typed reads of an attribute's source (Source): the first present field, or the constant.
  const FieldValue* field_of(const Source& source, const ParsedRecord& record) const;
  // False when the source is not given, or (not `required`) its fields are absent.
  bool integer(const Source& source, const ParsedRecord& record, std::int64_t& out, const char* what,
               bool required = true) const;
  std::string_view text(const Source& source, const ParsedRecord& record, const char* what) const;
  Value value(const Source& source, const ParsedRecord& record);
  Location location(const Source& source, const ParsedRecord& record, const char* what) const;
  // An event's location: its `location`, or with `thread` one location per pair of the
  // two, numbered in order of first appearance in the file.
  // A new pair is noted in pending_pair_, kept by decode() once the record is read whole.
  Location event_location(const RecordSpec& spec, const ParsedRecord& record);
  Location event_location_of(Location loc, std::uint32_t thread, const ParsedRecord& record);
  void keep_location();
  double time(const RecordSpec& spec, const ParsedRecord& record) const;
  SymbolId region(const RecordSpec& spec, const ParsedRecord& record);
  const Code* code(std::int64_t number) const;

  std::string path_;
  bool strict_;
  Description d_;
  std::string name_;
  std::unique_ptr<RecordInput> input_;
  Definitions definitions_;
  std::vector<FieldSpec> all_fields_;  // per record kind: the common fields, then its own
  std::vector<std::vector<FieldSpec>> fields_of_;
  std::vector<SymbolId> record_types_;  // per record kind: its `other` type

  std::int64_t declared_locations_ = -1;
  std::int64_t wrap_period_ = -1;
  std::unordered_map<std::int64_t, SymbolId> region_ids_;
  // Codes: enter/exit definitions win over other ones; other ones in order of definition.
  std::unordered_map<std::int64_t, std::pair<SymbolId, bool>> region_codes_;
  std::unordered_map<std::int64_t, std::string> other_codes_;
  std::vector<std::int64_t> other_order_;
  std::vector<Code> small_codes_;
  std::unordered_map<std::int64_t, Code> other_code_table_;

  std::uint64_t first_event_offset_ = 0;
  std::uint64_t first_event_number_ = 0;
  // definitions = "anywhere": the definition record after the first event record whose
  // define() failed at open (damage, met again when reading events there).
  std::uint64_t failed_definition_ = UINT64_MAX;
  ParsedRecord record_;

  TimeSortedIndex sorted_;
  std::unordered_map<std::uint64_t, Location> thread_locations_;  // (location << 32 | thread)
  bool unpaired_seen_ = false;  // an event without a thread was read
  enum class Pairing : std::uint8_t { None, Unpaired, NewPair } pending_ = Pairing::None;
  std::uint64_t pending_pair_ = 0;

  // The first record after the first event record that cannot be read: nothing from it on is.
  struct Damage {
    std::uint64_t offset = 0;         // where the record starts
    std::uint64_t events_before = 0;  // event records read before it
    std::string message;              // StreamDamage::message
  };
  std::optional<Damage> damage_;
  // Event records before counted_until_ (a file offset) have been counted, whatever the
  // seeks between the passes: the count of those before the damage.
  std::uint64_t counted_until_ = 0;
  std::uint64_t events_counted_ = 0;
};

}  // namespace earl
