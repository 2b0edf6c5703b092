// The profile in Tcl (bindings/tcl/tcl_profile.cpp): the rows of profile/profile_rows.h
// as Tcl values. Tcl has no null: a value the columns hold as NaN is the empty string.
#pragma once
#include <tcl.h>

#include "trace/shared_trace.h"

namespace earl::tcl {

// `e profile ?bins?`: a dict of begin, end and the tables types, flat_profile, messages and
// traffic, each a list of dicts keyed by column name. Takes the trace's lock itself; Ctrl-C
// (earl.tcl.interruptible) stops it, as it does a script.
Tcl_Obj* profile_dict(Tcl_Interp* interp, SharedTrace& shared, Tcl_WideInt bins);

// `e region_instances arr body`: body runs with arr set to each region instance's columns,
// in the order they were entered (break and continue as in foreach). Locks only while it
// reads the trace.
int each_instance(Tcl_Interp* interp, SharedTrace& shared, Tcl_Obj* array, Tcl_Obj* body);

}  // namespace earl::tcl
