#pragma once
// The records of a described trace's file, their fields parsed: the part of the decoder
// that knows the file's layout (text lines or binary records). DescribedDecoder maps them.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "formats/described/description.h"
#include "model/error.h"

namespace earl {

// A record that cannot be read or mapped (cut short, a field that does not parse, a bad
// checksum, no kind matching it, an undefined code): met after the first event record,
// the decoder reads the trace up to it unless strict (DescribedDecoder::damage).
struct BadRecord : EarlError {
  using EarlError::EarlError;
};

struct FieldValue {
  enum class Kind : std::uint8_t { Absent, Int, UInt, Float, Text };
  Kind kind = Kind::Absent;
  std::int64_t i = 0;
  std::uint64_t u = 0;
  double f = 0.0;
  std::string_view s;  // valid until the next record is read
};

struct ParsedRecord {
  int record = -1;                 // index into Description::records; -1: none (skipped)
  std::vector<FieldValue> values;  // the common fields, then the record kind's own
  std::uint64_t offset = 0;        // where it starts in the file
  std::uint64_t number = 0;        // its line (text) or record number (binary), 1-based
};

// Which record kind a key value selects (token dispatch: an array for small integers,
// a hash table for the rest, ranges last).
class KeyDispatch {
 public:
  explicit KeyDispatch(const Description& description);
  int find(const FieldValue& key) const;

 private:
  static constexpr std::int64_t kDenseLow = -1024, kDenseSize = 1 << 16;
  std::vector<int> dense_;
  std::unordered_map<std::int64_t, int> sparse_;
  std::vector<std::pair<std::int64_t, int>> from_;  // match_from, in description order
  std::vector<std::pair<std::string, int>> texts_;
};

class RecordInput {
 public:
  virtual ~RecordInput() = default;
  // Reads the next record; false at the end of the file. Bad records throw BadRecord
  // naming the file and the line or record.
  virtual bool next(ParsedRecord& out) = 0;
  virtual std::uint64_t offset() const = 0;  // where the next record starts
  virtual std::uint64_t number() const = 0;  // the number of the last record read
  virtual void seek(std::uint64_t offset, std::uint64_t number) = 0;
  virtual std::uint64_t size() const = 0;
  // "line 12" or "record 12 (byte 400)", for messages.
  virtual std::string where(const ParsedRecord& record) const = 0;
  // What is not read when reading stops at `record` (damage): "lines 12 to 40 (29 of the
  // file's 40) were not", "bytes 400 to 1023 (624 of the file's 1024) were not". Keeps
  // the reading position.
  virtual std::string unread_from(const ParsedRecord& record) = 0;
};

std::unique_ptr<RecordInput> open_text_records(const std::string& path, const Description& description);
std::unique_ptr<RecordInput> open_binary_records(const std::string& path, const Description& description);

// Whether field `f` is present given the values before it (its `when`).
bool field_present(const FieldSpec& f, const std::vector<FieldValue>& values);

}  // namespace earl
