#include "bindings/tcl/tcl_trace_common.h"

#include <cstdlib>

namespace earl::tcl {

namespace {

// EARL_CACHE=0 turns the event cache off, as it does for Python and Lua.
bool default_cache() {
  const char* setting = std::getenv("EARL_CACHE");
  if (!setting) return true;
  std::string value(setting);
  auto first = value.find_first_not_of(" \t\n");
  auto last = value.find_last_not_of(" \t\n");
  return first == std::string::npos || value.substr(first, last - first + 1) != "0";
}

}  // namespace

std::shared_ptr<SharedTrace> open_shared_trace(const std::string& file, const OpenOptions& options) {
  EventTrace::Options core;
  core.format = options.format;
  core.bdist = options.bdist;
  core.hsize = options.hsize;
  core.cache = default_cache();
  core.time_correct = options.time_correct;
  core.memory = options.memory;
  core.index = options.index;
  if (options.min_latency >= 0) core.clock.min_latency = options.min_latency;
  return std::make_shared<SharedTrace>(std::make_unique<EventTrace>(file, core));
}

Tcl_Obj* TraceNames::lookup(std::vector<SharedObj>& cache, const SymbolTable& table, SymbolId id) {
  if (id >= cache.size()) {
    if (id >= table.size())
      throw EarlError("internal error: the trace has no name for symbol " + std::to_string(id));
    const std::vector<std::string>& names = table.names();
    for (std::size_t i = cache.size(); i < names.size(); ++i)
      cache.emplace_back(Tcl_NewStringObj(names[i].data(), static_cast<int>(names[i].size())));
  }
  return cache[id].get();
}

const Event& locate(EventTrace& trace, std::int64_t pos) {
  if (pos < 0 && trace.iterator() == 0)
    throw EarlError("no event at the iterator: it stands at 0 (call next or jump first)");
  return trace.event(pos);
}

}  // namespace earl::tcl
