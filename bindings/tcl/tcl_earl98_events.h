// The 1998 view of an event (thesis Tab. 4.1), shared by get/set and their next/prev
// forms and by `info attributes`.
#pragma once
#include <tcl.h>

#include <utility>
#include <vector>

#include "bindings/tcl/tcl_trace_common.h"

namespace earl::tcl {

// An event's 1998 attributes in Tab. 4.1 order: (name, value) pairs.
using Cells98 = std::vector<std::pair<const char*, Tcl_Obj*>>;

// num node time type enterptr, then region group / dest tag com len / src tag com len
// sendptr / data; times with `places` decimals.
Cells98 attributes98(TraceNames& names, EventTrace& trace, const Event& e, int places);

// Assigns all 14 elements of the 1998 model to the array, "" where they do not apply.
int set_array98(Tcl_Interp* interp, Tcl_Obj* array, const Cells98& cells);

// The flat list "name value ..." of `$t get`.
Tcl_Obj* flat_list98(const Cells98& cells);

// `info attributes ?type?`: all 14 names, or a type's without num; EarlError for an
// unknown type.
Tcl_Obj* attribute_names98(EventTrace& trace, const char* type);

}  // namespace earl::tcl
