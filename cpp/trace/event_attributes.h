#pragma once
#include <cstdint>
#include <vector>

#include "model/event.h"

namespace earl {

// Every attribute name of the model, so that language mappings can make each key once.
enum class Attribute : std::uint8_t {
  Pos, Loc, Time, Type, Enterptr, Region, Dest, Src, Tag, Com, Len, Sendptr, Data1, Data2,
  Root, Sent, Recvd, Collbegin, Collend, Win, Rmaid, Peer, Startptr, Originptr, Forkptr,
  Lockid, Lockptr, Exclusive, Request, Group, Metric, Value, Count_
};

// Where an attribute's value lives in an Event record.
enum class Slot : std::uint8_t { Pos, Loc, Time, Type, Enterptr, Region, Peer, Tag, Com, Len,
                                 Pointer, Data1, Data2 };

struct AttributeSpec {
  Attribute name;
  Slot slot;
};

const char* attribute_name(Attribute attribute);

// The attributes of an event of this kind, in model order (DESIGN.md section 1).
const std::vector<AttributeSpec>& attribute_specs(EventKind kind);

// Ids of names in the trace's symbol tables, typed by table, so that a visitor can tell
// an event's type name from its region name and from a string value.
struct TypeName { SymbolId id; };
struct RegionName { SymbolId id; };
struct StringName { SymbolId id; };
// An absent data value (None in Python, nil in Lua, "" in Tcl).
struct NoValue {};

// Calls visit with the value `v` holds: std::int64_t, std::uint64_t, double, StringName or
// NoValue. Returns what visit returns (the same type for every overload).
template <class Visitor>
decltype(auto) visit_value(const Value& v, Visitor&& visit) {
  switch (v.kind) {
    case Value::Kind::Int: return visit(v.integer);
    case Value::Kind::UInt: return visit(v.unsigned_integer);
    case Value::Kind::Float: return visit(v.real);
    case Value::Kind::String: return visit(StringName{v.string});
    case Value::Kind::None: break;
  }
  return visit(NoValue{});
}

// Calls visit with the typed value of the event's attribute in `slot`: std::uint64_t
// (positions, pointers, byte counts), std::int64_t (locations, tags, communicators),
// double (time), TypeName, RegionName, and for data1/data2 what visit_value gives. The one
// place that knows where each slot's value lives; a language mapping only converts.
template <class Visitor>
decltype(auto) visit_slot(const Event& e, Slot slot, Visitor&& visit) {
  switch (slot) {
    case Slot::Pos: return visit(std::uint64_t{e.pos});
    case Slot::Loc: return visit(std::int64_t{e.loc});
    case Slot::Time: return visit(e.time);
    case Slot::Type: return visit(TypeName{e.type});
    case Slot::Enterptr: return visit(std::uint64_t{e.enterptr});
    case Slot::Region: return visit(RegionName{e.region});
    case Slot::Peer: return visit(std::int64_t{e.peer});
    case Slot::Tag: return visit(std::int64_t{e.tag});
    case Slot::Com: return visit(std::int64_t{e.com});
    case Slot::Len: return visit(std::uint64_t{e.len});
    case Slot::Pointer: return visit(std::uint64_t{e.sendptr});
    case Slot::Data1: return visit_value(e.data1, visit);
    case Slot::Data2: return visit_value(e.data2, visit);
  }
  return visit(NoValue{});
}

}  // namespace earl
