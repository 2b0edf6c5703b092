#pragma once
#include <cstdint>
#include <memory>
#include <mutex>

#include "trace/event_trace.h"

namespace earl {

// One trace used by several language mappings at once: Python, Lua and Tcl can hold the
// same object, so moving the iterator in one moves it in all. The lock is re-entrant: a
// progress callback runs on the thread doing the work, with the lock held. While it runs,
// the trace is halfway through that work, so the callback (in any language) cannot use
// the trace: trace() and close() throw EarlError saying so, rather than deadlock on the
// decoder or move it under the work's feet.
class SharedTrace {
 public:
  explicit SharedTrace(std::unique_ptr<EventTrace> trace) : trace_(std::move(trace)) {}

  std::recursive_mutex& mutex() { return mutex_; }
  // Throws EarlError("the trace is closed") once close() ran in any language, and while a
  // progress callback of this trace's work runs.
  EventTrace& trace();
  bool closed() const { return !trace_; }
  void close();

  // Marks the time a progress callback runs (hold it, with the lock held, around the call).
  class Reporting {
   public:
    explicit Reporting(SharedTrace& shared) : shared_(shared), outer_(shared.reporting_) {
      shared_.reporting_ = true;
    }
    ~Reporting() { shared_.reporting_ = outer_; }
    Reporting(const Reporting&) = delete;
    Reporting& operator=(const Reporting&) = delete;

   private:
    SharedTrace& shared_;
    bool outer_;
  };

 private:
  void check_not_reporting(const char* call) const;

  std::recursive_mutex mutex_;
  std::unique_ptr<EventTrace> trace_;
  bool reporting_ = false;
};

// Hands a SharedTrace from one language module to another. The modules are separate
// shared libraries with hidden symbols, so they share no registry: the giver passes the
// number of a heap ticket, the taker redeems it exactly once.
std::uintptr_t issue_ticket(std::shared_ptr<SharedTrace> trace);
// Throws EarlError for a number that is not an unredeemed ticket.
std::shared_ptr<SharedTrace> redeem_ticket(std::uintptr_t ticket);

}  // namespace earl
