#pragma once
#include <cstdint>
#include <memory>
#include <mutex>

#include "trace/event_trace.h"

namespace earl {

// One trace used by several language mappings at once: Python, Lua and Tcl can hold the
// same object, so moving the iterator in one moves it in all. The lock is re-entrant
// because a progress callback may call back into the trace it reports on.
class SharedTrace {
 public:
  explicit SharedTrace(std::unique_ptr<EventTrace> trace) : trace_(std::move(trace)) {}

  std::recursive_mutex& mutex() { return mutex_; }
  // Throws EarlError("the trace is closed") once close() ran in any language.
  EventTrace& trace();
  bool closed() const { return !trace_; }
  void close();

 private:
  std::recursive_mutex mutex_;
  std::unique_ptr<EventTrace> trace_;
};

// Hands a SharedTrace from one language module to another. The modules are separate
// shared libraries with hidden symbols, so they share no registry: the giver passes the
// number of a heap ticket, the taker redeems it exactly once.
std::uintptr_t issue_ticket(std::shared_ptr<SharedTrace> trace);
// Throws EarlError for a number that is not an unredeemed ticket.
std::shared_ptr<SharedTrace> redeem_ticket(std::uintptr_t ticket);

}  // namespace earl
