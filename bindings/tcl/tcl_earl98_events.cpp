// The 1998 view of an event (thesis Tab. 4.1): num and node for pos and loc, a group
// attribute, -1 for "no event", data for the values of format-defined types, and times
// in fixed format with earl_precision decimals.
#include "bindings/tcl/tcl_earl98_events.h"

#include <algorithm>
#include <string>
#include <vector>

#include "bindings/tcl/tcl_precision.h"
#include "bindings/tcl/tcl_support.h"
#include "trace/event_attributes.h"

namespace earl::tcl {

namespace {

// Every attribute of the 1998 model, in the order of the thesis' Tab. 4.1 (C14).
const char* const kAllAttributes[] = {"num", "node", "time", "type", "enterptr", "region", "group",
                                      "src", "dest", "tag", "com", "len", "sendptr", "data"};

// 0 (no event) is -1 in this dialect (D1).
Tcl_Obj* pointer_obj(Position p) { return p == 0 ? Tcl_NewIntObj(-1) : position_obj(p); }

// A value of data: the 2.0 mapping's, but floats in fixed format (visit_value's types).
struct DataObj {
  TraceNames& names;
  EventTrace& trace;
  int places;
  Tcl_Obj* operator()(std::int64_t v) const { return Tcl_NewWideIntObj(v); }
  Tcl_Obj* operator()(std::uint64_t v) const { return unsigned_obj(v); }
  Tcl_Obj* operator()(double v) const { return fixed_obj(v, places); }
  Tcl_Obj* operator()(StringName name) const { return names.string(trace, name.id); }
  Tcl_Obj* operator()(NoValue) const { return Tcl_NewObj(); }
};

// data of a format-defined type: its value, or the list of both where it has two.
Tcl_Obj* data_obj(TraceNames& names, EventTrace& trace, const Event& e, int places) {
  const DataObj one{names, trace, places};
  if (e.data2.kind == Value::Kind::None) return visit_value(e.data1, one);
  Tcl_Obj* both[2] = {visit_value(e.data1, one), visit_value(e.data2, one)};
  return Tcl_NewListObj(2, both);
}

// An integer attribute of a kind 1998 did not know (visit_slot's types; nullptr for the
// others, which data leaves out, as it leaves out data1/data2).
struct IntegerObj {
  Tcl_Obj* operator()(std::int64_t v) const { return Tcl_NewWideIntObj(v); }
  Tcl_Obj* operator()(std::uint64_t v) const { return unsigned_obj(v); }
  template <class Other>
  Tcl_Obj* operator()(Other) const { return nullptr; }
};

// The kinds 1998 did not know (collective exits aside, which are exits) show their 2.0
// integer attributes after the first five as a name-value list in data.
Tcl_Obj* extension_data(const Event& e) {
  Tcl_Obj* list = Tcl_NewListObj(0, nullptr);
  const std::vector<AttributeSpec>& specs = attribute_specs(e.kind);
  for (std::size_t i = 5; i < specs.size(); ++i) {
    if (specs[i].slot == Slot::Data1 || specs[i].slot == Slot::Data2) continue;
    Tcl_Obj* value = visit_slot(e, specs[i].slot, IntegerObj{});
    if (!value) continue;
    Tcl_ListObjAppendElement(nullptr, list, Tcl_NewStringObj(attribute_name(specs[i].name), -1));
    Tcl_ListObjAppendElement(nullptr, list, value);
  }
  return list;
}

}  // namespace

// The event's 1998 attributes in Tab. 4.1 order, as name-value pairs.
Cells98 attributes98(TraceNames& names, EventTrace& trace, const Event& e, int places) {
  Cells98 cells = {
      {"num", position_obj(e.pos)},
      {"node", Tcl_NewIntObj(e.loc)},
      {"time", fixed_obj(e.time, places)},
      {"type", names.type(trace, e.type)},
      {"enterptr", pointer_obj(e.enterptr)}};
  const Definitions& defs = trace.definitions();
  switch (e.kind) {
    case EventKind::Enter:
    case EventKind::Exit:
    case EventKind::CollectiveExit: {
      cells.emplace_back("region", names.region(trace, e.region));
      std::string group = e.region < defs.region_group.size() && defs.groups.size() > 0
                              ? defs.groups.name(defs.region_group[e.region]) : "All";
      cells.emplace_back("group", Tcl_NewStringObj(group.c_str(), -1));
      break;
    }
    case EventKind::Send:
    case EventKind::Recv:
      cells.emplace_back(e.kind == EventKind::Send ? "dest" : "src", Tcl_NewIntObj(e.peer));
      cells.emplace_back("tag", Tcl_NewWideIntObj(e.tag));
      cells.emplace_back("com", Tcl_NewWideIntObj(e.com));
      cells.emplace_back("len", unsigned_obj(e.len));
      if (e.kind == EventKind::Recv) cells.emplace_back("sendptr", pointer_obj(e.sendptr));
      break;
    case EventKind::Other:
    case EventKind::RmaGroupSync:  // the 1998 dialect keeps its one data element
    case EventKind::Metric:
      cells.emplace_back("data", data_obj(names, trace, e, places));
      break;
    default:
      cells.emplace_back("data", extension_data(e));
      break;
  }
  return cells;
}

int set_array98(Tcl_Interp* interp, Tcl_Obj* array, const Cells98& cells) {
  // All 14 elements, "" for those that do not apply (C14), so no stale value survives.
  for (const char* name : kAllAttributes) {
    Tcl_Obj* value = nullptr;
    for (const auto& cell : cells)
      if (std::string(cell.first) == name) value = cell.second;
    if (!Tcl_ObjSetVar2(interp, array, Tcl_NewStringObj(name, -1), value ? value : Tcl_NewObj(), TCL_LEAVE_ERR_MSG))
      return TCL_ERROR;
  }
  return TCL_OK;
}

Tcl_Obj* flat_list98(const Cells98& cells) {
  Tcl_Obj* list = Tcl_NewListObj(0, nullptr);
  for (const auto& cell : cells) {
    Tcl_ListObjAppendElement(nullptr, list, Tcl_NewStringObj(cell.first, -1));
    Tcl_ListObjAppendElement(nullptr, list, cell.second);
  }
  return list;
}

Tcl_Obj* attribute_names98(EventTrace& trace, const char* type) {
  Tcl_Obj* list = Tcl_NewListObj(0, nullptr);
  auto add = [list](std::initializer_list<const char*> names) {
    for (const char* name : names) Tcl_ListObjAppendElement(nullptr, list, Tcl_NewStringObj(name, -1));
  };
  if (!type) {
    for (const char* name : kAllAttributes) add({name});
    return list;
  }
  // Per-type lists omit num, as the thesis prints them (conformance F5).
  std::string t = type;
  add({"node", "time", "type", "enterptr"});
  if (t == "enter" || t == "exit") {
    add({"region", "group"});
  } else if (t == "send") {
    add({"dest", "tag", "com", "len"});
  } else if (t == "recv") {
    add({"src", "tag", "com", "len", "sendptr"});
  } else {
    std::vector<std::string> types = trace.types();
    if (std::find(types.begin(), types.end(), t) == types.end()) {
      Tcl_DecrRefCount(list);
      std::string known;
      for (const std::string& name : types) known += (known.empty() ? "" : " ") + name;
      throw EarlError("info attributes: unknown event type '" + t + "' (the types are " + known + ")");
    }
    add({"data"});
  }
  return list;
}

}  // namespace earl::tcl
