#include "bindings/tcl/tcl_profile.h"

#include <mutex>
#include <string>
#include <variant>
#include <vector>

#include "bindings/tcl/tcl_interrupt.h"
#include "bindings/tcl/tcl_support.h"
#include "profile/profile_rows.h"
#include "profile/region_instances.h"
#include "profile/trace_profile.h"
#include "trace/event_trace.h"

namespace earl::tcl {

namespace {

Tcl_Obj* real_obj(double value) { return value == value ? Tcl_NewDoubleObj(value) : Tcl_NewObj(); }

struct ToObj {
  Tcl_Obj* operator()(std::monostate) const { return Tcl_NewObj(); }
  Tcl_Obj* operator()(std::int64_t v) const { return Tcl_NewWideIntObj(v); }
  Tcl_Obj* operator()(std::uint64_t v) const { return unsigned_obj(v); }
  Tcl_Obj* operator()(double v) const { return real_obj(v); }
  Tcl_Obj* operator()(const std::string& v) const { return Tcl_NewStringObj(v.data(), static_cast<int>(v.size())); }
  // In metrics() order.
  Tcl_Obj* operator()(const std::vector<double>& values) const {
    Tcl_Obj* list = Tcl_NewListObj(0, nullptr);
    for (double v : values) Tcl_ListObjAppendElement(nullptr, list, real_obj(v));
    return list;
  }
};

// Ctrl-C during a pass (bindings/tcl/tcl_interrupt.h): the handler it marked runs here, as
// it would between commands, and a cancelled evaluation stops the pass ("interrupted").
ProgressCallback cancellable(Tcl_Interp* interp) {
  return [interp](double) { return still_running(interp); };
}

Tcl_Obj* row_dict(const profile::Row& row) {
  Tcl_Obj* dict = Tcl_NewDictObj();
  for (const profile::Field& field : row)
    Tcl_DictObjPut(nullptr, dict, Tcl_NewStringObj(field.name, -1), std::visit(ToObj{}, field.value));
  return dict;
}

}  // namespace

Tcl_Obj* profile_dict(Tcl_Interp* interp, SharedTrace& shared, Tcl_WideInt bins) {
  const std::size_t count = profile::checked_bins(bins);
  std::lock_guard<std::recursive_mutex> lock(shared.mutex());
  EventTrace& trace = shared.trace();
  const profile::TraceProfile found = profile::trace_profile(trace, count, cancellable(interp));
  Tcl_Obj* dict = Tcl_NewDictObj();
  Tcl_DictObjPut(nullptr, dict, Tcl_NewStringObj("begin", -1), Tcl_NewDoubleObj(found.begin));
  Tcl_DictObjPut(nullptr, dict, Tcl_NewStringObj("end", -1), Tcl_NewDoubleObj(found.end));
  for (const profile::Table& table : profile::profile_tables(found, trace.types(), trace.regions())) {
    Tcl_Obj* rows = Tcl_NewListObj(0, nullptr);
    for (const profile::Row& row : table.rows) Tcl_ListObjAppendElement(nullptr, rows, row_dict(row));
    Tcl_DictObjPut(nullptr, dict, Tcl_NewStringObj(table.name, -1), rows);
  }
  return dict;
}

int each_instance(Tcl_Interp* interp, SharedTrace& shared, Tcl_Obj* array, Tcl_Obj* body) {
  profile::RegionInstances found;
  std::vector<std::string> regions;
  {
    std::lock_guard<std::recursive_mutex> lock(shared.mutex());
    EventTrace& trace = shared.trace();
    found = profile::region_instances(trace, cancellable(interp));
    regions = trace.regions();
  }
  for (std::size_t i = 0; i < found.loc.size(); ++i) {
    for (const profile::Field& field : profile::instance_row(found, i, regions)) {
      Tcl_Obj* key = Tcl_NewStringObj(field.name, -1);
      Tcl_IncrRefCount(key);
      Tcl_Obj* set = Tcl_ObjSetVar2(interp, array, key, std::visit(ToObj{}, field.value), TCL_LEAVE_ERR_MSG);
      Tcl_DecrRefCount(key);
      if (!set) return TCL_ERROR;
    }
    const int code = Tcl_EvalObjEx(interp, body, 0);
    if (code == TCL_BREAK) break;
    if (code != TCL_OK && code != TCL_CONTINUE) return code;
  }
  Tcl_ResetResult(interp);
  return TCL_OK;
}

}  // namespace earl::tcl
