#pragma once
#include <cstdint>

#include "model/symbol_table.h"

namespace earl {

using Position = std::uint64_t;  // 1..m in global time order; 0 = no event
using Location = std::int32_t;   // 0..n-1

enum class EventKind : std::uint8_t { Enter, Exit, Send, Recv, Other };

// Type ids 0..3 are the same in every trace; format-defined types follow.
enum BuiltinType : SymbolId { kEnterType = 0, kExitType = 1, kSendType = 2, kRecvType = 3 };

// data1/data2 of format-defined event types: none, integer, float or an interned string.
struct Value {
  enum class Kind : std::uint8_t { None, Int, Float, String };
  Kind kind = Kind::None;
  union {
    std::int64_t integer;
    double real;
    SymbolId string;
  };
  Value() : integer(0) {}
  static Value of_int(std::int64_t v) { Value x; x.kind = Kind::Int; x.integer = v; return x; }
  static Value of_float(double v) { Value x; x.kind = Kind::Float; x.real = v; return x; }
  static Value of_string(SymbolId v) { Value x; x.kind = Kind::String; x.string = v; return x; }
};

// One event of the EARL model, a fixed-size record. Decoders fill everything but pos,
// enterptr and sendptr, which the trace state derives.
struct Event {
  Position pos = 0;
  double time = 0.0;
  Position enterptr = 0;
  Position sendptr = 0;      // recv: the matching send
  std::int64_t tag = 0;      // send/recv
  std::int64_t com = -1;     // send/recv; -1 where the format has no communicators
  std::int64_t len = 0;      // send/recv: bytes
  Location loc = 0;
  Location peer = -1;        // send: dest, recv: src (global locations)
  SymbolId type = kEnterType;
  SymbolId region = 0;       // enter/exit
  EventKind kind = EventKind::Other;
  Value data1, data2;        // other types
};

}  // namespace earl
