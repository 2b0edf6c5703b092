#pragma once
#include <tcl.h>

#include <string>

#include "trace/event_trace.h"

namespace earl::tcl {

// `e check ?-rules FILE? ?-max N?` (bindings/tcl/tcl_checker.cpp): the words after the
// method, objv[first..objc-1]; the caller holds the trace's lock.
Tcl_Obj* check_trace(Tcl_Interp* interp, EventTrace& trace, const std::string& where, int objc, Tcl_Obj* const objv[], int first);

}  // namespace earl::tcl
