// The EARL 2.0 Tcl mapping of EventTrace (DESIGN.md section 3, language reference
// section 4): `e event arr ?pos?` assigns the event's attributes to elements of the
// caller's array and returns the position; lists are Tcl lists; next/prev/jump return
// the new position or 0, so `while {[e next]} {...}` works.
//
// The command's client data holds one reference to a SharedTrace, the same C++ object a
// Python earl.EventTrace holds after earl.tcl.share(): moving the iterator in either
// language moves it in both.
#include "bindings/tcl/tcl_event_trace.h"

#include <array>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "bindings/tcl/tcl_array.h"
#include "bindings/tcl/tcl_support.h"
#include "bindings/tcl/tcl_trace_common.h"
#include "trace/event_attributes.h"
#include "trace/metric_fields.h"

namespace earl::tcl {

namespace {

struct TraceCommand {
  std::shared_ptr<SharedTrace> shared;
  TraceNames names;
  // Element names, made once per command: Tcl objects are not shared between threads,
  // and each interpreter lives in one thread.
  std::array<SharedObj, static_cast<std::size_t>(Attribute::Count_)> keys;
  std::array<Tcl_Obj*, static_cast<std::size_t>(Attribute::Count_)> key_objs;  // the same, bare
  SharedObj empty{Tcl_NewObj()};

  explicit TraceCommand(std::shared_ptr<SharedTrace> trace) : shared(std::move(trace)) {
    for (std::size_t i = 0; i < keys.size(); ++i) {
      keys[i] = SharedObj(Tcl_NewStringObj(attribute_name(static_cast<Attribute>(i)), -1));
      key_objs[i] = keys[i].get();
    }
  }
};

Cell object_cell(Tcl_Obj* object) {
  Cell cell;
  cell.object = object;
  return cell;
}

Cell integer_cell(Tcl_WideInt value) {
  Cell cell;
  cell.kind = Cell::Kind::Integer;
  cell.integer = value;
  return cell;
}

Cell unsigned_cell(std::uint64_t value) {
  if (value > static_cast<std::uint64_t>(std::numeric_limits<Tcl_WideInt>::max())) return object_cell(unsigned_obj(value));
  return integer_cell(static_cast<Tcl_WideInt>(value));
}

Cell real_cell(double value) {
  Cell cell;
  cell.kind = Cell::Kind::Real;
  cell.real = value;
  return cell;
}

// data1/data2: Tcl has no null, so an absent value is the empty string.
Cell value_cell(TraceCommand& t, EventTrace& trace, const Value& v) {
  switch (v.kind) {
    case Value::Kind::None: return object_cell(t.empty.get());
    case Value::Kind::Int: return integer_cell(v.integer);
    case Value::Kind::UInt: return unsigned_cell(v.unsigned_integer);
    case Value::Kind::Float: return real_cell(v.real);
    case Value::Kind::String: return object_cell(t.names.string(trace, v.string));
  }
  return object_cell(t.empty.get());
}

Cell slot_cell(TraceCommand& t, EventTrace& trace, const Event& e, Slot slot) {
  switch (slot) {
    case Slot::Pos: return unsigned_cell(e.pos);
    case Slot::Loc: return integer_cell(e.loc);
    case Slot::Time: return real_cell(e.time);
    case Slot::Type: return object_cell(t.names.type(trace, e.type));
    case Slot::Enterptr: return unsigned_cell(e.enterptr);
    case Slot::Region: return object_cell(t.names.region(trace, e.region));
    case Slot::Peer: return integer_cell(e.peer);
    case Slot::Tag: return integer_cell(e.tag);
    case Slot::Com: return integer_cell(e.com);
    case Slot::Len: return unsigned_cell(e.len);
    case Slot::Pointer: return unsigned_cell(e.sendptr);
    case Slot::Data1: return value_cell(t, trace, e.data1);
    case Slot::Data2: return value_cell(t, trace, e.data2);
  }
  return object_cell(t.empty.get());
}

// An optional position: -1 (the iterator) when omitted.
std::int64_t position_argument(Tcl_Obj* const objv[], int objc, int idx) {
  if (idx >= objc) return -1;
  Tcl_WideInt pos = 0;
  if (Tcl_GetWideIntFromObj(nullptr, objv[idx], &pos) != TCL_OK) integer_argument(objv[idx], where(objv, 2), "pos");
  if (pos < 0) throw EarlError("no event at position " + std::to_string(pos) + " (positions are numbered from 1)");
  return pos;
}

void check_count(int objc, int least, int most, Tcl_Obj* const objv[], const char* usage) {
  if (objc < least || objc > most)
    throw EarlError(std::string("wrong # args: should be \"") + Tcl_GetString(objv[0]) + " " + usage + "\"");
}

// The event's attributes in model order, each with its element name.
struct Row {
  static constexpr std::size_t kMost = static_cast<std::size_t>(Attribute::Count_);
  Cell cells[kMost];
  int size = 0;
  ~Row() {
    for (int i = 0; i < size; ++i)
      if (cells[i].kind == Cell::Kind::Object) Tcl_DecrRefCount(cells[i].object);
  }
};

void fill_row(TraceCommand& t, std::int64_t pos, Row& row) {
  Lock lock(t.shared->mutex());
  EventTrace& trace = t.shared->trace();
  const Event& e = locate(trace, pos);
  for (const AttributeSpec& spec : attribute_specs(e.kind)) {
    Cell cell = slot_cell(t, trace, e, spec.slot);
    // Held until the row is set: a variable trace run by the assignment may delete the
    // command and with it the name objects.
    if (cell.kind == Cell::Kind::Object) Tcl_IncrRefCount(cell.object);
    cell.key = t.keys[static_cast<std::size_t>(spec.name)].get();
    row.cells[row.size++] = cell;
  }
}

Tcl_Obj* positions_list(const std::vector<Position>& positions) {
  Tcl_Obj* list = Tcl_NewListObj(0, nullptr);
  for (Position p : positions) Tcl_ListObjAppendElement(nullptr, list, position_obj(p));
  return list;
}

Tcl_Obj* problems_dict(const Problems& found) {
  Tcl_Obj* dict = Tcl_NewDictObj();
  auto add = [dict](const char* name, const ProblemKind& kind) {
    Tcl_Obj* entry = Tcl_NewDictObj();
    Tcl_DictObjPut(nullptr, entry, Tcl_NewStringObj("count", -1), unsigned_obj(kind.count));
    Tcl_DictObjPut(nullptr, entry, Tcl_NewStringObj("first", -1), positions_list(kind.first));
    Tcl_DictObjPut(nullptr, dict, Tcl_NewStringObj(name, -1), entry);
  };
  for (const ProblemName& kind : kProblemNames) add(kind.name, found.*kind.kind);
  if (found.damaged.empty()) return dict;
  Tcl_Obj* locations = Tcl_NewListObj(0, nullptr);
  for (const StreamDamage& damage : found.damaged) {
    Tcl_Obj* entry = Tcl_NewDictObj();
    Tcl_DictObjPut(nullptr, entry, Tcl_NewStringObj("loc", -1), Tcl_NewWideIntObj(damage.loc));
    Tcl_DictObjPut(nullptr, entry, Tcl_NewStringObj("record", -1), unsigned_obj(damage.record));
    Tcl_DictObjPut(nullptr, entry, Tcl_NewStringObj("announced", -1), unsigned_obj(damage.announced));
    Tcl_DictObjPut(nullptr, entry, Tcl_NewStringObj("message", -1),
                   Tcl_NewStringObj(damage.message.data(), static_cast<int>(damage.message.size())));
    Tcl_ListObjAppendElement(nullptr, locations, entry);
  }
  Tcl_Obj* damaged = Tcl_NewDictObj();
  Tcl_DictObjPut(nullptr, damaged, Tcl_NewStringObj("count", -1), unsigned_obj(found.damaged.size()));
  Tcl_DictObjPut(nullptr, damaged, Tcl_NewStringObj("first", -1), Tcl_NewListObj(0, nullptr));
  Tcl_DictObjPut(nullptr, damaged, Tcl_NewStringObj("locations", -1), locations);
  Tcl_DictObjPut(nullptr, dict, Tcl_NewStringObj(kDamagedName, -1), damaged);
  return dict;
}

// The counters the trace defines: a list of dicts with trace/metric_fields.h's fields.
Tcl_Obj* metrics_list(const std::vector<MetricDefinition>& defined) {
  Tcl_Obj* list = Tcl_NewListObj(0, nullptr);
  for (const MetricDefinition& metric : defined) {
    Tcl_Obj* dict = Tcl_NewDictObj();
    for (const MetricField& field : metric_fields(metric)) {
      Tcl_Obj* value;
      if (const auto* text = std::get_if<std::string>(&field.value))
        value = Tcl_NewStringObj(text->data(), static_cast<int>(text->size()));
      else if (const auto* number = std::get_if<std::int64_t>(&field.value))
        value = Tcl_NewWideIntObj(*number);
      else
        value = Tcl_NewBooleanObj(std::get<bool>(field.value));
      Tcl_DictObjPut(nullptr, dict, Tcl_NewStringObj(field.name, -1), value);
    }
    Tcl_ListObjAppendElement(nullptr, list, dict);
  }
  return list;
}

const char* const kMethods[] = {
    "event", "next", "prev", "jump", "reset", "attributes", "values", "stack", "queue",
    "file", "format", "nrlocs", "locsym", "regions", "groups", "group", "types", "eventTypes",
    "problems", "iterator", "size", "close", "closed", "members", "ranks", "metrics", nullptr};
enum Method {
  kEvent, kNext, kPrev, kJump, kReset, kAttributes, kValues, kStack, kQueue,
  kFile, kFormat, kNrlocs, kLocsym, kRegions, kGroups, kGroup, kTypes, kEventTypes,
  kProblems, kIterator, kSize, kClose, kClosed, kMembers, kRanks, kMetrics
};

int call(TraceCommand& t, Tcl_Interp* interp, int objc, Tcl_Obj* const objv[]) {
  int method = 0;
  if (objc < 2) {
    Tcl_WrongNumArgs(interp, 1, objv, "method ?arg ...?");
    return TCL_ERROR;
  }
  if (Tcl_GetIndexFromObj(interp, objv[1], kMethods, "method", 0, &method) != TCL_OK) return TCL_ERROR;
  SharedTrace& shared = *t.shared;
  // Only an error message needs "e method"; building it per call would cost a string.
  auto here = [objv] { return where(objv, 2); };
  switch (static_cast<Method>(method)) {
    case kNext:
    case kPrev: {
      check_count(objc, 2, 2, objv, method == kNext ? "next" : "prev");
      Position pos;
      {
        Lock lock(shared.mutex());
        pos = method == kNext ? shared.trace().next() : shared.trace().prev();
      }
      Tcl_SetObjResult(interp, position_obj(pos));
      return TCL_OK;
    }
    case kEvent: {
      check_count(objc, 3, 4, objv, "event arr ?pos?");
      Row row;
      fill_row(t, position_argument(objv, objc, 3), row);
      if (assign_elements(interp, objv[2], row.size, row.cells, static_cast<int>(t.key_objs.size()),
                          t.key_objs.data()) != TCL_OK)
        return TCL_ERROR;
      Tcl_SetObjResult(interp, row.cells[0].value());
      return TCL_OK;
    }
    case kAttributes:
    case kValues: {
      check_count(objc, 2, 3, objv, method == kAttributes ? "attributes ?pos?" : "values ?pos?");
      Row row;
      fill_row(t, position_argument(objv, objc, 2), row);
      Tcl_Obj* items[Row::kMost];
      for (int i = 0; i < row.size; ++i) items[i] = method == kAttributes ? row.cells[i].key : row.cells[i].value();
      Tcl_SetObjResult(interp, Tcl_NewListObj(row.size, items));
      return TCL_OK;
    }
    case kJump: {
      check_count(objc, 3, 3, objv, "jump pos");
      Tcl_WideInt target = 0;
      if (Tcl_GetWideIntFromObj(nullptr, objv[2], &target) != TCL_OK) integer_argument(objv[2], here(), "pos");
      Lock lock(shared.mutex());
      Tcl_SetObjResult(interp, position_obj(shared.trace().jump(target)));
      return TCL_OK;
    }
    case kReset: {
      check_count(objc, 2, 2, objv, "reset");
      Lock lock(shared.mutex());
      shared.trace().reset();
      return TCL_OK;
    }
    case kIterator:
    case kSize: {
      check_count(objc, 2, 2, objv, method == kIterator ? "iterator" : "size");
      Lock lock(shared.mutex());
      EventTrace& trace = shared.trace();
      Tcl_SetObjResult(interp, position_obj(method == kIterator ? trace.iterator() : trace.size()));
      return TCL_OK;
    }
    case kStack: {
      check_count(objc, 3, 4, objv, "stack loc ?pos?");
      Location loc = location_argument(objv[2], here(), "loc");
      std::int64_t pos = position_argument(objv, objc, 3);
      Lock lock(shared.mutex());
      Tcl_SetObjResult(interp, positions_list(shared.trace().stack(loc, pos)));
      return TCL_OK;
    }
    case kQueue: {
      check_count(objc, 4, 5, objv, "queue src dest ?pos?");
      Location src = location_argument(objv[2], here(), "src");
      Location dest = location_argument(objv[3], here(), "dest");
      std::int64_t pos = position_argument(objv, objc, 4);
      Lock lock(shared.mutex());
      Tcl_SetObjResult(interp, positions_list(shared.trace().queue(src, dest, pos)));
      return TCL_OK;
    }
    case kFile:
    case kFormat: {
      check_count(objc, 2, 2, objv, method == kFile ? "file" : "format");
      Lock lock(shared.mutex());
      std::string text = method == kFile ? shared.trace().file() : shared.trace().format();
      Tcl_SetObjResult(interp, Tcl_NewStringObj(text.data(), static_cast<int>(text.size())));
      return TCL_OK;
    }
    case kNrlocs: {
      check_count(objc, 2, 2, objv, "nrlocs");
      Lock lock(shared.mutex());
      Tcl_SetObjResult(interp, Tcl_NewIntObj(shared.trace().nrlocs()));
      return TCL_OK;
    }
    case kLocsym: {
      check_count(objc, 3, 3, objv, "locsym loc");
      Location loc = location_argument(objv[2], here(), "loc");
      Lock lock(shared.mutex());
      std::optional<std::string> name = shared.trace().locsym(loc);
      Tcl_SetObjResult(interp, name ? Tcl_NewStringObj(name->data(), static_cast<int>(name->size()))
                                    : Tcl_NewIntObj(loc));
      return TCL_OK;
    }
    case kRegions: {
      check_count(objc, 2, 3, objv, "regions ?group?");
      Lock lock(shared.mutex());
      EventTrace& trace = shared.trace();
      Tcl_SetObjResult(interp, string_list(objc == 3 ? trace.regions(std::string(Tcl_GetString(objv[2])))
                                                     : trace.regions()));
      return TCL_OK;
    }
    case kGroups:
    case kTypes:
    case kEventTypes: {
      check_count(objc, 2, 2, objv, Tcl_GetString(objv[1]));
      Lock lock(shared.mutex());
      EventTrace& trace = shared.trace();
      Tcl_SetObjResult(interp, string_list(method == kGroups ? trace.groups() : trace.types()));
      return TCL_OK;
    }
    case kGroup: {
      check_count(objc, 3, 3, objv, "group region");
      Lock lock(shared.mutex());
      std::string name = shared.trace().group(Tcl_GetString(objv[2]));
      Tcl_SetObjResult(interp, Tcl_NewStringObj(name.data(), static_cast<int>(name.size())));
      return TCL_OK;
    }
    case kMembers:
    case kRanks: {
      const bool members = method == kMembers;
      check_count(objc, 3, 3, objv, members ? "members group" : "ranks com");
      const Tcl_WideInt id = integer_argument(objv[2], here(), members ? "group" : "com");
      Lock lock(shared.mutex());
      const std::vector<Location>& locations = members ? shared.trace().members(id) : shared.trace().ranks(id);
      Tcl_Obj* list = Tcl_NewListObj(0, nullptr);
      for (Location loc : locations) Tcl_ListObjAppendElement(nullptr, list, Tcl_NewIntObj(loc));
      Tcl_SetObjResult(interp, list);
      return TCL_OK;
    }
    case kMetrics: {
      check_count(objc, 2, 2, objv, "metrics");
      Lock lock(shared.mutex());
      Tcl_SetObjResult(interp, metrics_list(shared.trace().metrics()));
      return TCL_OK;
    }
    case kProblems: {
      check_count(objc, 2, 2, objv, "problems");
      Lock lock(shared.mutex());
      Tcl_SetObjResult(interp, problems_dict(shared.trace().problems()));
      return TCL_OK;
    }
    case kClose: {
      // Closes the trace for every language holding it, as Python's close() does; the
      // command stays (and says the trace is closed) until it is renamed away.
      check_count(objc, 2, 2, objv, "close");
      Lock lock(shared.mutex());
      shared.close();
      return TCL_OK;
    }
    case kClosed: {
      check_count(objc, 2, 2, objv, "closed");
      Tcl_SetObjResult(interp, Tcl_NewBooleanObj(shared.closed()));
      return TCL_OK;
    }
  }
  return TCL_OK;
}

int trace_command(ClientData data, Tcl_Interp* interp, int objc, Tcl_Obj* const objv[]) {
  auto& t = *static_cast<TraceCommand*>(data);
  return guard(interp, [&] { return call(t, interp, objc, objv); });
}

// `rename e {}`: drops Tcl's reference; the trace lives on while Python still holds it.
void delete_trace(ClientData data) { delete static_cast<TraceCommand*>(data); }

int make_command(Tcl_Interp* interp, const char* name, std::shared_ptr<SharedTrace> shared) {
  auto* t = new TraceCommand(std::move(shared));
  Tcl_CreateObjCommand(interp, name, trace_command, t, delete_trace);
  Tcl_SetObjResult(interp, Tcl_NewStringObj(name, -1));
  return TCL_OK;
}

// EventTrace handle -file f ?-format F? ?-bdist N? ... (every option of trace/open_options.h)
int create(Tcl_Interp* interp, int objc, Tcl_Obj* const objv[]) {
  const std::string here = "EventTrace";
  if (objc < 2 || objc % 2 != 0)
    throw EarlError("wrong # args: should be \"EventTrace handle -file file " + tcl_option_usage(TclDialect::Earl20) +
                    "\"");
  const TclOptionFlags& known = tcl_option_flags(TclDialect::Earl20);
  std::vector<const char*> flags{"-file"};
  flags.insert(flags.end(), known.flags.begin(), known.flags.end());
  std::optional<std::string> file;
  OpenOptions open;
  for (int i = 2; i < objc; i += 2) {
    int option = 0;
    if (Tcl_GetIndexFromObj(interp, objv[i], flags.data(), "option", 0, &option) != TCL_OK) return TCL_ERROR;
    if (option == 0)
      file = Tcl_GetString(objv[i + 1]);
    else
      set_tcl_option(open, *known.rows[option - 1], objv[i + 1], here, known.flags[option - 1]);
  }
  if (!file) throw EarlError("EventTrace: -file is required, as in EventTrace e -file run.otf2");
  const char* name = Tcl_GetString(objv[1]);
  require_free_name(interp, name, here);
  return make_command(interp, name, open_shared_trace(*file, open));
}

int event_trace_command(ClientData, Tcl_Interp* interp, int objc, Tcl_Obj* const objv[]) {
  return guard(interp, [&] { return create(interp, objc, objv); });
}

// earl::_adopt ticket ?handle?: the trace a ticket from another language module stands
// for (earl.tcl.share), as a 2.0 command named handle (default earl::shared<N>).
int adopt(Tcl_Interp* interp, int objc, Tcl_Obj* const objv[]) {
  if (objc < 2 || objc > 3) throw EarlError("wrong # args: should be \"earl::_adopt ticket ?handle?\"");
  Tcl_WideInt number = integer_argument(objv[1], "earl::_adopt", "ticket");
  std::string name = objc == 3 ? Tcl_GetString(objv[2]) : fresh_name(interp, "::earl::shared");
  require_free_name(interp, name.c_str(), "earl::_adopt");
  std::shared_ptr<SharedTrace> shared = redeem_ticket(static_cast<std::uintptr_t>(number));
  shared->trace();  // a closed trace cannot be shared; throws "the trace is closed"
  return make_command(interp, name.c_str(), std::move(shared));
}

int adopt_command(ClientData, Tcl_Interp* interp, int objc, Tcl_Obj* const objv[]) {
  return guard(interp, [&] { return adopt(interp, objc, objv); });
}

}  // namespace

void register_event_trace(Tcl_Interp* interp) {
  Tcl_CreateObjCommand(interp, "::EventTrace", event_trace_command, nullptr, nullptr);
  Tcl_CreateObjCommand(interp, "::earl::_adopt", adopt_command, nullptr, nullptr);
}

}  // namespace earl::tcl
