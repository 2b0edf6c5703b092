// Earl_Init: what `package require earl` (through pkgIndex.tcl) and `load libearltcl.so
// Earl` run. It defines both dialects' commands: EventTrace and P2Statistic (EARL 2.0)
// and earl (1998), plus earl::_adopt for earl.tcl.share().
#include <tcl.h>

#include "bindings/tcl/tcl_array.h"
#include "bindings/tcl/tcl_earl98.h"
#include "bindings/tcl/tcl_event_trace.h"
#include "bindings/tcl/tcl_interrupt.h"
#include "bindings/tcl/tcl_p2_statistic.h"

#ifndef EARL_VERSION
#define EARL_VERSION "unknown"
#endif

extern "C" __attribute__((visibility("default"))) int Earl_Init(Tcl_Interp* interp) {
  // Through the stubs table from here on: the library calls the loading interpreter's
  // Tcl, whichever libtcl8.6 that is (tclsh's, wish's, Python's _tkinter's).
  if (!Tcl_InitStubs(interp, "8.6", 0)) return TCL_ERROR;
  if (!Tcl_FindNamespace(interp, "::earl", nullptr, 0) && !Tcl_CreateNamespace(interp, "::earl", nullptr, nullptr))
    return TCL_ERROR;
  earl::tcl::check_array_fast_path(interp);
  earl::tcl::register_event_trace(interp);
  earl::tcl::register_p2_statistic(interp);
  earl::tcl::register_earl98(interp);
  earl::tcl::register_interrupt(interp);
  return Tcl_PkgProvide(interp, "earl", EARL_VERSION);
}

// A safe interpreter gets nothing: the extension opens files.
extern "C" __attribute__((visibility("default"))) int Earl_SafeInit(Tcl_Interp*) { return TCL_ERROR; }
