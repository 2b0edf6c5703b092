#pragma once
// One element of a Chrome trace's event array as the streaming parser collects it: the
// scalar fields EARL reads, the scalar members of `args`, and where it began.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace earl {

// A JSON scalar, as far as the reader needs one.
struct ChromeScalar {
  enum class Kind : std::uint8_t { Absent, Null, Bool, Int, UInt, Double, String };
  Kind kind = Kind::Absent;
  bool flag = false;
  std::int64_t integer = 0;
  std::uint64_t unsigned_integer = 0;
  double real = 0.0;
  std::string text;  // a string's value; a number's text as the file has it

  bool present() const { return kind != Kind::Absent; }
  bool number() const { return kind == Kind::Int || kind == Kind::UInt || kind == Kind::Double; }
  // A value that names something (pid, tid, id): its canonical text, "n<decimal>" for an
  // integer, "s<text>" for a string; "" when it is neither.
  std::string key() const;
};

struct ChromeFields {
  ChromeScalar ph, name, cat, pid, tid, ts, dur, id, id2, bind_id, flow_in, flow_out, scope;
  std::vector<std::pair<std::string, ChromeScalar>> args;  // scalar members, in file order
  std::uint64_t index = 0;   // in the event array, from 0
  std::uint64_t offset = 0;  // byte of its `{` in the (uncompressed) text

  void clear();
  const ChromeScalar* arg(const char* key) const;
};

}  // namespace earl
