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

}  // namespace earl
