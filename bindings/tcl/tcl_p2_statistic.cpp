// P2Statistic in Tcl. Both dialects wrap the one C++ class, whose 13-number state
// (cpp/stats/p2_statistic.h) is what `p state` lists, `P2Statistic p $state` reads,
// `$so print` prints and `earl stat obj v1 ... v13` reads: states move unchanged between
// Python, Lua and both Tcl dialects.
#include "bindings/tcl/tcl_p2_statistic.h"

#include <cstdio>
#include <string>
#include <vector>

#include "bindings/tcl/tcl_precision.h"
#include "bindings/tcl/tcl_support.h"
#include "stats/p2_statistic.h"

namespace earl::tcl {

namespace {

const char* const kFieldNames[P2Statistic::kStateSize] = {
    "count", "q0", "q1", "q2", "q3", "q4", "n0", "n1", "n2", "n3", "n4", "sum", "m2"};

enum class Dialect { Earl2000, Earl1998 };

struct StatCommand {
  P2Statistic stat;
  Dialect dialect;
};

std::vector<double> state_numbers(Tcl_Obj* const items[], int count, const std::string& where) {
  std::vector<double> values(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i)
    if (Tcl_GetDoubleFromObj(nullptr, items[i], &values[static_cast<std::size_t>(i)]) != TCL_OK) {
      std::string item = "item " + std::to_string(i + 1);
      if (i < static_cast<int>(P2Statistic::kStateSize)) item += std::string(" (") + kFieldNames[i] + ")";
      throw EarlError(where + ": state " + item + " is not a number (got \"" + Tcl_GetString(items[i]) + "\")");
    }
  return values;
}

void check_count(int objc, int words, Tcl_Obj* const objv[], const char* usage) {
  if (objc != words)
    throw EarlError(std::string("wrong # args: should be \"") + Tcl_GetString(objv[0]) + " " + usage + "\"");
}

const char* const kMethods2000[] = {"add", "count", "reset", "state", "q25", "med", "q75",
                                    "min", "max", "mean", "sum", "var", nullptr};
// The 1998 object: no reset (conformance D12); print lists the state.
const char* const kMethods1998[] = {"addval", "count", "print", "q25", "med", "q75",
                                    "min", "max", "mean", "sum", "var", nullptr};

double statistic(const P2Statistic& p, const std::string& name, Dialect dialect) {
  if (name == "q25") return p.q25();
  if (name == "med") return p.med();
  if (name == "q75") return p.q75();
  if (name == "min") return p.min();
  if (name == "max") return p.max();
  if (name == "mean") return p.mean();
  if (name == "sum") return p.sum();
  // 2.0: one value has variance 0.0; 1998: var needs two values (conformance B5, C29).
  return dialect == Dialect::Earl2000 ? p.var() : p.variance_strict();
}

int call(StatCommand& s, Tcl_Interp* interp, int objc, Tcl_Obj* const objv[]) {
  if (objc < 2) {
    Tcl_WrongNumArgs(interp, 1, objv, "method ?arg?");
    return TCL_ERROR;
  }
  const bool old = s.dialect == Dialect::Earl1998;
  int index = 0;
  if (Tcl_GetIndexFromObj(interp, objv[1], old ? kMethods1998 : kMethods2000, "method", 0, &index) != TCL_OK)
    return TCL_ERROR;
  const std::string method = (old ? kMethods1998 : kMethods2000)[index];
  if (method == "add" || method == "addval") {
    check_count(objc, 3, objv, old ? "addval value" : "add x");
    s.stat.add(number_argument(objv[2], where(objv, 2), old ? "value" : "x"));
    return TCL_OK;
  }
  check_count(objc, 2, objv, method.c_str());
  if (method == "count") {
    Tcl_SetObjResult(interp, unsigned_obj(s.stat.count()));
  } else if (method == "reset") {
    s.stat.reset();
  } else if (method == "state" || method == "print") {
    Tcl_Obj* list = Tcl_NewListObj(0, nullptr);
    for (double v : s.stat.state()) {
      // print: full precision, general format (thesis 6.3); state: Tcl's own shortest
      // text that reads back to the same double. Both round-trip exactly.
      Tcl_Obj* item;
      if (old) {
        char text[40];
        item = Tcl_NewStringObj(text, std::snprintf(text, sizeof text, "%.17g", v));
      } else {
        item = Tcl_NewDoubleObj(v);
      }
      Tcl_ListObjAppendElement(nullptr, list, item);
    }
    Tcl_SetObjResult(interp, list);
  } else {
    double value = statistic(s.stat, method, s.dialect);
    Tcl_SetObjResult(interp, old ? fixed_obj(value, decimals(interp)) : Tcl_NewDoubleObj(value));
  }
  return TCL_OK;
}

void make_command(Tcl_Interp* interp, const std::string& name, P2Statistic stat, Dialect dialect) {
  create_preserved_command<StatCommand, call>(interp, name.c_str(), new StatCommand{stat, dialect});
  Tcl_SetObjResult(interp, Tcl_NewStringObj(name.c_str(), -1));
}

// P2Statistic handle ?state?
int create(Tcl_Interp* interp, int objc, Tcl_Obj* const objv[]) {
  if (objc < 2 || objc > 3) throw EarlError("wrong # args: should be \"P2Statistic handle ?state?\"");
  const std::string name = Tcl_GetString(objv[1]);
  require_free_name(interp, name.c_str(), "P2Statistic");
  P2Statistic stat;
  if (objc == 3) {
    int count = 0;
    Tcl_Obj** items = nullptr;
    if (Tcl_ListObjGetElements(nullptr, objv[2], &count, &items) != TCL_OK)
      throw EarlError(std::string("P2Statistic: state must be a list of 13 numbers (got \"") +
                      Tcl_GetString(objv[2]) + "\")");
    stat = P2Statistic(state_numbers(items, count, "P2Statistic"));
  }
  make_command(interp, name, stat, Dialect::Earl2000);
  return TCL_OK;
}

int p2_statistic_command(ClientData, Tcl_Interp* interp, int objc, Tcl_Obj* const objv[]) {
  return guard(interp, [&] { return create(interp, objc, objv); });
}

}  // namespace

void register_p2_statistic(Tcl_Interp* interp) {
  Tcl_CreateObjCommand(interp, "::P2Statistic", p2_statistic_command, nullptr, nullptr);
}

// earl stat ?obj? ?v1 ... v13?: the arguments are told apart by their number.
int earl_stat(Tcl_Interp* interp, int objc, Tcl_Obj* const objv[]) {
  const int given = objc - 2;
  const int state_size = static_cast<int>(P2Statistic::kStateSize);
  if (given != 0 && given != 1 && given != state_size && given != state_size + 1)
    throw EarlError("wrong # args: should be \"earl stat ?obj? ?v1 ... v13?\" (got " +
                    std::to_string(given) + " arguments)");
  const bool named = given == 1 || given == state_size + 1;
  std::string name = named ? Tcl_GetString(objv[2]) : fresh_name(interp, "earlstat");
  if (named) require_free_name(interp, name.c_str(), "earl stat");
  P2Statistic stat;
  if (given >= state_size) stat = P2Statistic(state_numbers(objv + 2 + (named ? 1 : 0), state_size, "earl stat"));
  make_command(interp, name, stat, Dialect::Earl1998);
  return TCL_OK;
}

}  // namespace earl::tcl
