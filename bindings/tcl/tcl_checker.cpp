// `earl check` in Tcl: the core's query::Checker (standard checks and rules in one pass).
// No Tcl runs per event, so every rule part must be in the common subset of Python and
// Lua the core tests itself (as `e select`); another part is refused with the rule's name
// and the place the subset ended.
#include "bindings/tcl/tcl_checker.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <vector>

#include "bindings/tcl/tcl_interrupt.h"
#include "bindings/tcl/tcl_support.h"
#include "model/error.h"
#include "query/checker.h"
#include "query/rules_file.h"

namespace earl::tcl {

namespace {

Tcl_Obj* text(const std::string& s) { return Tcl_NewStringObj(s.data(), static_cast<int>(s.size())); }

void put(Tcl_Obj* dict, const char* key, Tcl_Obj* value) { Tcl_DictObjPut(nullptr, dict, Tcl_NewStringObj(key, -1), value); }

// kind pos loc time message rule; rule: the rule's index in the file (0-based, as lindex),
// "" for a standard check.
Tcl_Obj* violation_dict(const query::Violation& v) {
  Tcl_Obj* dict = Tcl_NewDictObj();
  put(dict, "kind", text(v.kind));
  put(dict, "pos", position_obj(v.pos));
  put(dict, "loc", Tcl_NewIntObj(v.loc));
  put(dict, "time", Tcl_NewDoubleObj(v.time));
  put(dict, "message", text(v.message));
  put(dict, "rule", v.rule >= 0 ? Tcl_NewWideIntObj(v.rule) : Tcl_NewObj());
  return dict;
}

void refuse_fallback(const query::Rule& rule, std::size_t index, const char* key, const query::Checker::Part& part) {
  if (part.native) return;
  throw EarlError("rule " + std::to_string(index + 1) + " (" + rule.name + "): " + key + ": line " +
                  std::to_string(part.line) + ", column " + std::to_string(part.column) + ": " + part.reason +
                  " (Tcl rules use comparisons of ev.<attribute> and constants, and, or, not, in)");
}

}  // namespace

Tcl_Obj* check_trace(Tcl_Interp* interp, EventTrace& trace, const std::string& where, int objc, Tcl_Obj* const objv[], int first) {
  std::vector<query::Rule> rules;
  std::optional<Tcl_WideInt> most;
  for (int i = first; i < objc; i += 2) {
    const char* option = Tcl_GetString(objv[i]);
    if (i + 1 >= objc) throw EarlError(where + ": " + option + " needs a value");
    if (std::strcmp(option, "-rules") == 0) {
      rules = query::load_rules(path_argument(objv[i + 1], where, "-rules"));
    } else if (std::strcmp(option, "-max") == 0) {
      most = count_argument(objv[i + 1], where, "-max", true);
    } else {
      throw EarlError(where + ": unknown option " + option + " (-rules FILE, -max N)");
    }
  }
  query::Checker checker(trace, rules);
  for (std::size_t i = 0; i < rules.size(); ++i) {
    refuse_fallback(rules[i], i, "when", checker.fallbacks()[i].when);
    refuse_fallback(rules[i], i, "assert", checker.fallbacks()[i].assertion);
  }
  // Every part is native: each pending event is a violation where the core found the
  // assertion false.
  std::vector<query::Violation> found;
  std::vector<query::Checker::Pending> pending;
  std::vector<query::Violation> all;
  constexpr std::size_t kScan = 1 << 16;
  while (!checker.done()) {
    // Ctrl-C between batches, as `e select` stops at the Tcl it runs per event.
    if (!still_running(interp)) throw Interrupted();
    found.clear();
    pending.clear();
    checker.batch(trace, kScan, found, pending);
    all.insert(all.end(), found.begin(), found.end());
    for (const auto& p : pending) {
      if (!p.fails) continue;
      const Event& e = trace.event(static_cast<std::int64_t>(p.pos));
      const query::Rule& rule = rules[p.rule];
      all.push_back(query::Violation{"rule", p.pos, e.loc, e.time,
                                     "rule " + rule.name + ": " + rule.assertion + " is false",
                                     static_cast<std::int64_t>(p.rule)});
    }
  }
  found.clear();
  checker.finish(trace, found);
  all.insert(all.end(), found.begin(), found.end());
  // At most -max of each kind, in the order found; then by position and kind (earl.check).
  std::map<std::string, Tcl_WideInt> counts;
  std::vector<query::Violation> shown;
  for (auto& v : all)
    if (++counts[v.kind] <= most.value_or(counts[v.kind])) shown.push_back(std::move(v));
  std::stable_sort(shown.begin(), shown.end(), [](const query::Violation& a, const query::Violation& b) {
    return a.pos != b.pos ? a.pos < b.pos : a.kind < b.kind;
  });
  Tcl_Obj* list = Tcl_NewListObj(0, nullptr);
  for (const auto& v : shown) Tcl_ListObjAppendElement(nullptr, list, violation_dict(v));
  Tcl_Obj* tally = Tcl_NewDictObj();
  for (const auto& [kind, n] : counts) put(tally, kind.c_str(), Tcl_NewWideIntObj(n));
  Tcl_Obj* result = Tcl_NewDictObj();
  put(result, "violations", list);
  put(result, "counts", tally);
  return result;
}

}  // namespace earl::tcl
