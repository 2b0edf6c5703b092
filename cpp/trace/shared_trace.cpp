#include "trace/shared_trace.h"

#include <string>

#include "model/error.h"

namespace earl {

void SharedTrace::check_not_reporting(const char* call) const {
  if (reporting_)
    throw EarlError(std::string("the trace is busy: its progress callback cannot ") + call +
                    " it while the work it reports on is under way");
}

EventTrace& SharedTrace::trace() {
  if (!trace_) throw EarlError("the trace is closed");
  check_not_reporting("use");
  return *trace_;
}

void SharedTrace::close() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  check_not_reporting("close");
  trace_.reset();
}

namespace {

constexpr std::uint64_t kTicketMagic = 0x4541524c5449434bULL;  // "EARLTICK"

struct Ticket {
  std::uint64_t magic = kTicketMagic;
  std::shared_ptr<SharedTrace> trace;
};

}  // namespace

std::uintptr_t issue_ticket(std::shared_ptr<SharedTrace> trace) {
  auto* ticket = new Ticket;
  ticket->trace = std::move(trace);
  return reinterpret_cast<std::uintptr_t>(ticket);
}

std::shared_ptr<SharedTrace> redeem_ticket(std::uintptr_t number) {
  if (number == 0 || number % alignof(Ticket) != 0)
    throw EarlError("not a trace ticket: " + std::to_string(number));
  auto* ticket = reinterpret_cast<Ticket*>(number);
  if (ticket->magic != kTicketMagic)
    throw EarlError("not a trace ticket (or one already redeemed): " + std::to_string(number));
  ticket->magic = 0;
  std::shared_ptr<SharedTrace> trace = std::move(ticket->trace);
  delete ticket;
  return trace;
}

}  // namespace earl
