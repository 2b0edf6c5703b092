#pragma once
#include <cstdint>

#include "model/symbol_table.h"

namespace earl {

using Position = std::uint64_t;  // 1..m in global time order; 0 = no event
using Location = std::int32_t;   // 0..n-1

// How the state treats an event and which attributes it has (the type name is separate:
// put_1ts and get_1to share RmaTransferStart). See EventTrace::attribute_names.
enum class EventKind : std::uint8_t {
  Enter,
  Exit,
  Send,
  Recv,
  Other,             // format-defined types: data1, data2
  CollectiveExit,    // the exit of an MPI collective: region, com, root, sent, recvd
  RmaTransferStart,  // put_1ts, get_1to: win, rmaid, peer, len
  RmaTransferEnd,    // put_1te, get_1te: win, rmaid, peer, len, startptr
  RmaTargetStart,    // get_1ts: win, rmaid, peer, len, originptr
  WindowLock,        // wlock, wunlock: win, peer, exclusive, request
  Fork,              // fork
  Join,              // join: forkptr
  ThreadLock,        // alock, rlock: lockid, lockptr
  RmaGroupSync,      // rma_group_sync: data1, data2, group
  Metric,            // one member of a metric record (a counter sample): metric, value
};
// The last kind: the cache and the index reject kind bytes beyond it.
constexpr EventKind kLastEventKind = EventKind::Metric;

// A decoder marks an event whose record refers to something the trace does not define
// (a rank outside its communicator, an undefined communicator or region); the state
// counts it as a problem.
// kRegionFromStack: the exit record names no region (EPILOG): the state gives the exit the
// region of the instance it closes. kStartOnPeer: an RMA transfer end recorded where the
// data arrived (EPILOG's put_1te on the target): its start is on the peer, not on loc.
// kLengthFromSend: a receive whose record holds no length (EPILOG's); the state gives it
// the length of the send it matches, as KOJAK's tools took a message's size from its send.
enum EventFlag : std::uint8_t {
  kUnresolvedReference = 1, kRegionFromStack = 2, kStartOnPeer = 4, kLengthFromSend = 8
};

inline bool is_exit(EventKind kind) {
  return kind == EventKind::Exit || kind == EventKind::CollectiveExit;
}

// Type ids 0..3 are the same in every trace; format-defined types follow.
enum BuiltinType : SymbolId { kEnterType = 0, kExitType = 1, kSendType = 2, kRecvType = 3 };

// data1/data2 of format-defined event types: none, integer, float or an interned string.
struct Value {
  enum class Kind : std::uint8_t { None, Int, UInt, Float, String };
  Kind kind = Kind::None;
  union {
    std::int64_t integer;
    std::uint64_t unsigned_integer;  // values of unsigned 64-bit fields, kept exact
    double real;
    SymbolId string;
  };
  Value() : integer(0) {}
  static Value of_int(std::int64_t v) { Value x; x.kind = Kind::Int; x.integer = v; return x; }
  static Value of_uint(std::uint64_t v) {
    Value x;
    x.kind = Kind::UInt;
    x.unsigned_integer = v;
    return x;
  }
  static Value of_float(double v) { Value x; x.kind = Kind::Float; x.real = v; return x; }
  static Value of_string(SymbolId v) { Value x; x.kind = Kind::String; x.string = v; return x; }
};

// One event of the EARL model, a fixed-size record. Decoders fill everything but pos,
// enterptr and the pointer slot (sendptr and its kin), which the trace state derives.
// Kinds share slots (see EventKind): the slot names below are those of send/recv.
struct Event {
  Position pos = 0;
  double time = 0.0;
  Position enterptr = 0;
  Position sendptr = 0;      // recv: sendptr; startptr, originptr, forkptr, lockptr
  std::int64_t tag = 0;      // send/recv: tag; collective exit: recvd; rma: rmaid; lock: lockid;
                             // rma_group_sync: group; metric: index in Definitions::metrics
                             // (-1: a member the trace does not define)
  std::int64_t com = -1;     // send/recv/collective exit: com (-1: none); rma, rma_group_sync: win
  std::uint64_t len = 0;     // send/recv/rma: bytes; collective exit: sent
  Location loc = 0;
  Location peer = -1;        // send: dest, recv: src, rma: peer, collective exit: root
                             // (global locations; -1: none)
  SymbolId type = kEnterType;
  SymbolId region = 0;       // enter/exit
  EventKind kind = EventKind::Other;
  std::uint8_t flags = 0;    // EventFlag bits
  Value data1, data2;        // other types
};

}  // namespace earl
