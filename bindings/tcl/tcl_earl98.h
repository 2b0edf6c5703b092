// The 1998 Tcl dialect (thesis chapter 6): the `earl` command (open, stat, help) and the
// trace objects `earl open` makes.
#pragma once
#include <tcl.h>

namespace earl::tcl {

void register_earl98(Tcl_Interp* interp);

}  // namespace earl::tcl
