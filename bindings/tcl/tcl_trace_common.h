// What both Tcl dialects need of a trace: opening one, and the trace's names as Tcl
// objects made once (an event's type and region are then handed out without allocating).
#pragma once
#include <tcl.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bindings/tcl/tcl_support.h"
#include "trace/event_trace.h"
#include "trace/shared_trace.h"

namespace earl::tcl {

using Lock = std::lock_guard<std::recursive_mutex>;

struct OpenOptions {
  std::string format;  // empty: detect
  Tcl_WideInt bdist = 10000;
  Tcl_WideInt hsize = 1000;
  bool time_correct = false;  // the controlled logical clock (EventTrace::Options)
  Tcl_WideInt memory = -1;    // bookmark budget in bytes; -1: EARL_MEMORY decides
  int index = -1;             // persisted index: -1 automatic (EARL_INDEX), 0 never, 1 always
  double min_latency = -1;    // seconds; < 0: the default
};

std::shared_ptr<SharedTrace> open_shared_trace(const std::string& file, const OpenOptions& options);

// The Tcl objects of one trace's symbol tables, indexed by id; grown when a decoder
// publishes a name after the opening scan. Callers hold the trace's lock.
class TraceNames {
 public:
  Tcl_Obj* type(EventTrace& trace, SymbolId id) { return lookup(types_, trace.definitions().types, id); }
  Tcl_Obj* region(EventTrace& trace, SymbolId id) { return lookup(regions_, trace.definitions().regions, id); }
  Tcl_Obj* string(EventTrace& trace, SymbolId id) { return lookup(strings_, trace.definitions().strings, id); }

 private:
  static Tcl_Obj* lookup(std::vector<SharedObj>& cache, const SymbolTable& table, SymbolId id);

  std::vector<SharedObj> types_, regions_, strings_;
};

// The event at pos (-1: the iterator), with the message Python gives at iterator 0.
const Event& locate(EventTrace& trace, std::int64_t pos);

}  // namespace earl::tcl
