// P2Statistic in both Tcl dialects: EARL 2.0's `P2Statistic p ?state?` and the 1998
// `earl stat ?obj? ?v1 ... v13?` (whose objects answer addval and print).
#pragma once
#include <tcl.h>

namespace earl::tcl {

void register_p2_statistic(Tcl_Interp* interp);

// `earl stat ?obj? ?v1 ... v13?`; objv[0] is "earl", objv[1] "stat".
int earl_stat(Tcl_Interp* interp, int objc, Tcl_Obj* const objv[]);

}  // namespace earl::tcl
