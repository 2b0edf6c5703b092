#include "bindings/tcl/tcl_interrupt.h"

#include <signal.h>

#include <atomic>
#include <cstddef>

#include "bindings/tcl/tcl_support.h"

namespace earl::tcl {

namespace {

// One async handler per thread that asked (Tcl_AsyncMark wakes the thread that made the
// handler; tkinter's interpreters live in one thread). The signal handler reads the slots:
// plain atomics, no locks, no allocation.
constexpr std::size_t kSlots = 64;
std::atomic<Tcl_AsyncHandler> slots[kSlots];
// Whether the slot's thread is evaluating for a caller that wants Ctrl-C to stop it: a
// SIGINT while Python runs must not cancel whatever Tcl evaluates next (a new
// interpreter's initialisation, say).
std::atomic<bool> armed[kSlots];

struct sigaction host_action;  // the handler ours replaced, called after ours

void on_sigint(int signal, siginfo_t* info, void* context) {
  for (std::size_t i = 0; i < kSlots; ++i)
    if (Tcl_AsyncHandler handler = slots[i].load(std::memory_order_acquire))
      if (armed[i].load(std::memory_order_acquire)) Tcl_AsyncMark(handler);
  if (host_action.sa_flags & SA_SIGINFO) {
    if (host_action.sa_sigaction) host_action.sa_sigaction(signal, info, context);
  } else if (host_action.sa_handler == SIG_DFL) {
    // What SIGINT would have done: end the process.
    ::signal(SIGINT, SIG_DFL);
    ::raise(SIGINT);
  } else if (host_action.sa_handler != SIG_IGN) {
    host_action.sa_handler(signal);
  }
}

// In front of whatever handles SIGINT now, unless that is already ours. A host that
// ignores SIGINT keeps ignoring it.
void install() {
  struct sigaction current;
  if (sigaction(SIGINT, nullptr, &current) != 0) return;
  if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_sigint) return;
  if (!(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_IGN) return;
  host_action = current;
  struct sigaction ours {};
  ours.sa_sigaction = on_sigint;
  ours.sa_flags = SA_SIGINFO | SA_RESTART | (current.sa_flags & SA_ONSTACK);
  sigemptyset(&ours.sa_mask);
  sigaction(SIGINT, &ours, nullptr);
}

// Runs at the next safe point after the signal (between commands, or every few bytecodes
// of a loop) in the thread of the interpreter running then, which it cancels.
int on_async(ClientData, Tcl_Interp* interp, int code) {
  if (interp) Tcl_CancelEval(interp, Tcl_NewStringObj(kInterruptedMessage, -1), nullptr, TCL_CANCEL_UNWIND);
  return code;
}

// This thread's slot, with its handler made at the first call; kSlots when all are taken.
std::size_t own_slot() {
  thread_local std::size_t mine = kSlots;
  if (mine < kSlots) return mine;
  Tcl_AsyncHandler made = Tcl_AsyncCreate(on_async, nullptr);
  for (std::size_t i = 0; i < kSlots; ++i) {
    Tcl_AsyncHandler empty = nullptr;
    if (slots[i].compare_exchange_strong(empty, made)) return mine = i;
  }
  Tcl_AsyncDelete(made);
  return kSlots;
}

// earl::_interruptible arm|disarm
int interruptible(ClientData, Tcl_Interp* interp, int objc, Tcl_Obj* const objv[]) {
  static const char* const words[] = {"arm", "disarm", nullptr};
  int which = 0;
  if (objc != 2) {
    Tcl_WrongNumArgs(interp, 1, objv, "arm|disarm");
    return TCL_ERROR;
  }
  if (Tcl_GetIndexFromObj(interp, objv[1], words, "word", 0, &which) != TCL_OK) return TCL_ERROR;
  const std::size_t slot = own_slot();
  if (slot == kSlots) return report(interp, "earl::_interruptible: too many threads");
  armed[slot].store(which == 0, std::memory_order_release);
  install();
  return TCL_OK;
}

}  // namespace

bool still_running(Tcl_Interp* interp) {
  if (Tcl_AsyncReady()) Tcl_AsyncInvoke(interp, TCL_OK);
  return Tcl_Canceled(interp, 0) == TCL_OK;
}

void register_interrupt(Tcl_Interp* interp) {
  Tcl_CreateObjCommand(interp, "::earl::_interruptible", interruptible, nullptr, nullptr);
}

}  // namespace earl::tcl
