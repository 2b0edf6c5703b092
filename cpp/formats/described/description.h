#pragma once
// A described format (docs/formats.md#described-formats): what a TOML description says,
// checked and resolved to indices by description_loader, so that the decoders read
// records through plain tables (no names, no Python, no TOML per record).
#include <cstdint>
#include <string>
#include <vector>

#include "model/event.h"

namespace earl {

enum class FieldType : std::uint8_t { Int, UInt, Float, String, Time, Flags, Length, Checksum, Filler };

// A key value of a record or a `when` condition: an integer or a text token.
struct KeyValue {
  bool is_text = false;
  std::int64_t number = 0;
  std::string text;
};

struct FieldSpec {
  std::string name;
  FieldType type = FieldType::Int;
  // Text: the header column that holds it (CSV with a header line; "" = by order), or the
  // regular expression's capture group (0 = none); `rest`: the rest of the line.
  std::string column;
  int group = 0;
  bool rest = false;
  bool optional = false;  // a missing column or token leaves it absent instead of failing
  // String: the first word is dropped when it holds one of these characters and more
  // words follow (ALOG's "colour:pattern Name").
  std::string drop_word_with;
  // Binary: bytes it takes (integers 1, 2, 4, 8; floats 4, 8; strings and filler any).
  int size = 0;
  // Time: ticks per second (s 1, ms 1e3, us 1e6, ns 1e9, ticks: the given rate).
  double ticks_per_second = 1.0;
  // Flags: the names of bits 0, 1, ... ("" for an unnamed bit).
  std::vector<std::string> bits;
  // Present only when field `when_field` (an earlier one) has one of `when_values`, or
  // (flags) has bit `when_bit` set. -1: always present.
  int when_field = -1;
  std::vector<KeyValue> when_values;
  int when_bit = -1;
  bool verify = false;  // checksum: the byte sum of the record's other bytes must equal it
  int line = 0;         // where the description defines it
};

// Where a mapped attribute's value comes from: the first present of `fields`, or a
// constant (`fields` empty).
struct Source {
  std::vector<int> fields;
  bool constant = false;
  std::int64_t number = 0;
  std::string text;  // a text constant (type names)
  bool is_text = false;
  bool given() const { return constant || !fields.empty(); }
};

// What a record kind means: an EARL event, a definition, or nothing.
enum class RecordRole : std::uint8_t {
  Event,           // `event` gives the kind
  ByCode,          // the kind, region or type come from a code table (define_code)
  DefineRegion,    // id -> region name
  DefineLocation,  // location -> name
  DefineCode,      // code -> enter/exit of a region, or an `other` type
  LocationCount,   // the trace's number of locations: locations beyond it are errors
  TimeWrap,        // the period of the time's cycle counter (ALOG's roll-over)
  Skip,
};

// One definition a DefineCode record makes (ALOG's -13 defines two: enter and exit).
struct CodeDefinition {
  int code_field = -1;
  EventKind kind = EventKind::Other;  // Enter, Exit or Other
};

// Attributes a record kind maps (Source per attribute), in EARL's names.
enum MappedSlot : int {
  kSlotLocation, kSlotTime, kSlotCycle, kSlotRegion, kSlotRegionId, kSlotType, kSlotPeer, kSlotTag,
  kSlotCom, kSlotLen, kSlotData1, kSlotData2, kSlotCode, kSlotId, kSlotLabel, kSlotCount, kSlotValue,
  kSlotThread, kSlotCount_
};

struct RecordSpec {
  std::string name;
  RecordRole role = RecordRole::Event;
  EventKind kind = EventKind::Other;
  std::vector<KeyValue> match;      // values of the key field that select it
  bool match_from = false;          // or: integer keys >= match_from_value
  std::int64_t match_from_value = 0;
  std::string regex;                // text: a regular expression instead of a key
  std::vector<FieldSpec> fields;    // its own fields, after the common ones
  std::vector<CodeDefinition> codes;
  Source slots[kSlotCount_];
  int line = 0;
};

struct Description {
  std::string path;  // the description's file
  std::string name;  // [format] name
  std::string summary;
  bool binary = false;
  // Text
  std::string separator = " ";  // " ": runs of blanks; else one character
  char quote = 0;               // a field starting with it runs to the next lone one (RFC 4180); 0: none
  std::string comment;          // lines starting with it are skipped
  std::uint64_t skip_lines = 0; // lines skipped at the start
  bool header = false;          // the first (non-skipped) line names the columns
  // Binary
  bool big_endian = false;
  std::uint64_t header_bytes = 0;
  std::string magic;            // the file's first bytes
  std::uint64_t record_bytes = 0;  // fixed-size records (0: the length field says)
  int length_field = -1;        // a common field: the record's size in bytes
  // Both
  std::vector<FieldSpec> fields;  // common to every record, first
  int key_field = -1;             // common field selecting the record kind (-1: regex only)
  bool skip_unmatched = false;    // records no kind matches are skipped (else an error)
  bool definitions_anywhere = false;  // definition records may follow event ones (a scan at open)
  std::vector<RecordSpec> records;
};

}  // namespace earl
