// Ctrl-C for Tcl run inside another program (Python through tkinter). Tcl holds the thread
// while a script runs, so the host's SIGINT handler cannot act until the script ends: a
// SIGINT handler placed in front of the host's marks a Tcl async handler, which cancels the
// interpreter's evaluation (TCL_CANCEL_UNWIND: `catch` cannot hold it), and then calls the
// host's handler (Python notes KeyboardInterrupt). tclsh needs none of this: SIGINT ends it.
#pragma once
#include <tcl.h>

namespace earl::tcl {

// The message and errorCode of an evaluation that Ctrl-C cancelled.
inline constexpr const char* kInterruptedMessage = "interrupted";

// Defines `earl::_interruptible arm|disarm`: while armed, SIGINT cancels the evaluation
// running in this thread's interpreters; each call places the handler in front once more
// (the host may have replaced it).
void register_interrupt(Tcl_Interp* interp);

// For a pass that runs no Tcl (so reaches no safe point of Tcl's own): runs the handler
// that Ctrl-C marked, as Tcl would between commands; false once the evaluation in interp
// is cancelled, and the pass should stop.
bool still_running(Tcl_Interp* interp);

}  // namespace earl::tcl
