#include "bindings/tcl/tcl_trace_common.h"

#include <cstdlib>

namespace earl::tcl {

namespace {

TclOptionFlags flags_of(TclDialect dialect) {
  TclOptionFlags out;
  for (const OpenOption& option : open_options()) {
    const char* flag = dialect == TclDialect::Earl20 ? option.tcl : option.tcl98;
    if (!flag) continue;
    out.rows.push_back(&option);
    out.flags.push_back(flag);
  }
  out.flags.push_back(nullptr);
  return out;
}

}  // namespace

const TclOptionFlags& tcl_option_flags(TclDialect dialect) {
  static const TclOptionFlags earl20 = flags_of(TclDialect::Earl20);
  static const TclOptionFlags earl98 = flags_of(TclDialect::Earl98);
  return dialect == TclDialect::Earl20 ? earl20 : earl98;
}

std::string tcl_option_usage(TclDialect dialect) {
  const TclOptionFlags& flags = tcl_option_flags(dialect);
  std::string usage;
  for (std::size_t i = 0; i < flags.rows.size(); ++i) {
    usage += std::string(i ? " ?" : "?") + flags.flags[i] + " " + flags.rows[i]->metavar + "?";
  }
  return usage;
}

void set_tcl_option(OpenOptions& options, const OpenOption& option, Tcl_Obj* value, const std::string& where,
                    const char* flag) {
  OptionValue converted;
  switch (option.type) {
    case OptionType::Text: converted = std::string(Tcl_GetString(value)); break;
    case OptionType::Integer: {
      // Counts: the row says whether 0 is one.
      const bool zero_allowed = option.problem(OptionValue(std::int64_t(0))).empty();
      converted = static_cast<std::int64_t>(count_argument(value, where, flag, zero_allowed));
      break;
    }
    case OptionType::Boolean: {
      int flag_value = 0;
      if (Tcl_GetBooleanFromObj(nullptr, value, &flag_value) != TCL_OK)
        throw EarlError(where + ": " + flag + " expected boolean value but got \"" + Tcl_GetString(value) + "\"");
      converted = flag_value != 0;
      break;
    }
    case OptionType::Number: converted = number_argument(value, where, flag); break;
  }
  set_open_option(options, option, converted, where + ": " + flag);
}

std::shared_ptr<SharedTrace> open_shared_trace(const std::string& file, const OpenOptions& options) {
  return std::make_shared<SharedTrace>(std::make_unique<EventTrace>(file, options));
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

}  // namespace earl::tcl
