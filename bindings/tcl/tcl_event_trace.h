// The EARL 2.0 Tcl mapping of EventTrace: `EventTrace e -file f ?-format F? ?-bdist N?
// ?-hsize N?` makes the command e; `rename e {}` frees it.
#pragma once
#include <tcl.h>

namespace earl::tcl {

void register_event_trace(Tcl_Interp* interp);

}  // namespace earl::tcl
