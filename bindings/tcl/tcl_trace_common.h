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
#include "trace/open_options.h"
#include "trace/shared_trace.h"

namespace earl::tcl {

using Lock = std::lock_guard<std::recursive_mutex>;

// The open options' flags of a Tcl dialect (trace/open_options.h): the 2.0 mapping's
// `-bdist ...` (every row) or the 1998 `earl open`'s `-mark ...` (the rows that have one).
enum class TclDialect { Earl20, Earl98 };

// The rows of `dialect` and their flags in table order, the flags ending in nullptr (for
// Tcl_GetIndexFromObj).
struct TclOptionFlags {
  std::vector<const OpenOption*> rows;
  std::vector<const char*> flags;
};
const TclOptionFlags& tcl_option_flags(TclDialect dialect);

// "?-format format? ?-bdist n? ..." for usage messages.
std::string tcl_option_usage(TclDialect dialect);

// Sets `option` from its flag's value; EarlError naming `where` and `flag`.
void set_tcl_option(OpenOptions& options, const OpenOption& option, Tcl_Obj* value, const std::string& where,
                    const char* flag);

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

}  // namespace earl::tcl
