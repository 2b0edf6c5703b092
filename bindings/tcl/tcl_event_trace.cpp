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
#include "bindings/tcl/tcl_checker.h"
#include "bindings/tcl/tcl_methods.h"
#include "bindings/tcl/tcl_profile.h"
#include "bindings/tcl/tcl_support.h"
#include "bindings/tcl/tcl_trace_common.h"
#include "profile/trace_profile.h"
#include "query/selection.h"
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

// One attribute value (visit_slot's types) as a cell; data1/data2: Tcl has no null, so an
// absent value is the empty string.
struct ToCell {
  TraceCommand& t;
  EventTrace& trace;
  Cell operator()(std::uint64_t v) const { return unsigned_cell(v); }
  Cell operator()(std::int64_t v) const { return integer_cell(v); }
  Cell operator()(double v) const { return real_cell(v); }
  Cell operator()(TypeName name) const { return object_cell(t.names.type(trace, name.id)); }
  Cell operator()(RegionName name) const { return object_cell(t.names.region(trace, name.id)); }
  Cell operator()(StringName name) const { return object_cell(t.names.string(trace, name.id)); }
  Cell operator()(NoValue) const { return object_cell(t.empty.get()); }
};

// An optional position: the iterator when omitted.
std::int64_t position_argument(Tcl_Obj* const objv[], int objc, int idx) {
  if (idx >= objc) return EventTrace::kAtIterator;
  return EventTrace::checked_position(integer_argument(objv[idx], where(objv, 2), "pos"));
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

// work(trace) with the trace's lock held, for bodies that must not hold it throughout
// (they assign variables or run scripts afterwards).
template <class Work>
decltype(auto) locked(TraceCommand& t, Work&& work) {
  Lock lock(t.shared->mutex());
  return work(t.shared->trace());
}

void fill_row(TraceCommand& t, std::int64_t pos, Row& row) {
  locked(t, [&](EventTrace& trace) {
    const Event& e = trace.event(trace.event_position(pos, EventTrace::CallSyntax::Words));
    for (const AttributeSpec& spec : attribute_specs(e.kind)) {
      Cell cell = visit_slot(e, spec.slot, ToCell{t, trace});
      // Held until the row is set: a variable trace run by the assignment may delete the
      // command and with it the name objects.
      if (cell.kind == Cell::Kind::Object) Tcl_IncrRefCount(cell.object);
      cell.key = t.keys[static_cast<std::size_t>(spec.name)].get();
      row.cells[row.size++] = cell;
    }
  });
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

Tcl_Obj* text_obj(const std::string& text) { return Tcl_NewStringObj(text.data(), static_cast<int>(text.size())); }

Tcl_Obj* locations_list(const std::vector<Location>& locations) {
  Tcl_Obj* list = Tcl_NewListObj(0, nullptr);
  for (Location loc : locations) Tcl_ListObjAppendElement(nullptr, list, Tcl_NewIntObj(loc));
  return list;
}

using Call = TclCall<TraceCommand>;

// The trace; rows that read it hold its lock.
EventTrace& trace_of(const Call& c) { return c.command.shared->trace(); }

// `e attributes ?pos?` and `e values ?pos?`: the row's element names or values as a list.
int row_list(const Call& c, bool names) {
  Row row;
  fill_row(c.command, position_argument(c.objv, c.objc, 2), row);
  Tcl_Obj* items[Row::kMost];
  for (int i = 0; i < row.size; ++i) items[i] = names ? row.cells[i].key : row.cells[i].value();
  return c.answer(Tcl_NewListObj(row.size, items));
}

int types(const Call& c) { return c.answer(string_list(trace_of(c).types())); }

// `e select expr arr body`: body runs with arr set to each event expr selects, in order
// (break and continue as in foreach). Tcl selects with the common subset of Python and
// Lua that the core tests itself (query/expression.h, Python's spelling: != and `in`):
// the trace is never held in memory and no Tcl runs for events that do not match.
int select(const Call& c) {
  TraceCommand& t = c.command;
  auto chosen = locked(t, [&](EventTrace& trace) {
    return std::make_unique<query::Selection>(trace, Tcl_GetString(c.objv[2]), query::Language::Python);
  });
  if (!chosen->native())
    throw EarlError(c.where() + ": line " + std::to_string(chosen->line()) + ", column " +
                    std::to_string(chosen->column()) + ": " + chosen->reason() +
                    " (Tcl selects with comparisons of ev.<attribute> and constants, and, or, not, in)");
  constexpr std::size_t kScan = 1 << 16;
  while (!chosen->done()) {
    const std::vector<Position> found = locked(t, [&](EventTrace& trace) { return chosen->batch(trace, kScan); });
    for (Position pos : found) {
      Row row;
      fill_row(t, static_cast<std::int64_t>(pos), row);
      if (assign_elements(c.interp, c.objv[3], row.size, row.cells, static_cast<int>(t.key_objs.size()),
                          t.key_objs.data()) != TCL_OK)
        return TCL_ERROR;
      int code = Tcl_EvalObjEx(c.interp, c.objv[4], 0);
      if (code == TCL_BREAK) return TCL_OK;
      if (code != TCL_OK && code != TCL_CONTINUE) return code;
    }
  }
  Tcl_ResetResult(c.interp);
  return TCL_OK;
}

// In the order Tcl's "bad method" message lists them.
const TclMethod<TraceCommand> kMethods[] = {
    // Assigns the caller's array: the lock is held only while the row is read (fill_row).
    {"event", "arr ?pos?", false,
     [](const Call& c) {
       Row row;
       TraceCommand& t = c.command;
       fill_row(t, position_argument(c.objv, c.objc, 3), row);
       if (assign_elements(c.interp, c.objv[2], row.size, row.cells, static_cast<int>(t.key_objs.size()),
                           t.key_objs.data()) != TCL_OK)
         return TCL_ERROR;
       return c.answer(row.cells[0].value());
     }},
    {"next", "", true, [](const Call& c) { return c.answer(position_obj(trace_of(c).next())); }},
    {"prev", "", true, [](const Call& c) { return c.answer(position_obj(trace_of(c).prev())); }},
    {"jump", "pos", true,
     [](const Call& c) {
       return c.answer(position_obj(trace_of(c).jump(integer_argument(c.objv[2], c.where(), "pos"))));
     }},
    {"reset", "", true, [](const Call& c) { trace_of(c).reset(); return TCL_OK; }},
    {"attributes", "?pos?", false, [](const Call& c) { return row_list(c, true); }},
    {"values", "?pos?", false, [](const Call& c) { return row_list(c, false); }},
    {"stack", "loc ?pos?", true,
     [](const Call& c) {
       Location loc = location_argument(c.objv[2], c.where(), "loc");
       return c.answer(positions_list(trace_of(c).stack(loc, position_argument(c.objv, c.objc, 3))));
     }},
    {"queue", "src dest ?pos?", true,
     [](const Call& c) {
       Location src = location_argument(c.objv[2], c.where(), "src");
       Location dest = location_argument(c.objv[3], c.where(), "dest");
       return c.answer(positions_list(trace_of(c).queue(src, dest, position_argument(c.objv, c.objc, 4))));
     }},
    {"file", "", true, [](const Call& c) { return c.answer(text_obj(trace_of(c).file())); }},
    {"format", "", true, [](const Call& c) { return c.answer(text_obj(trace_of(c).format())); }},
    {"nrlocs", "", true, [](const Call& c) { return c.answer(Tcl_NewIntObj(trace_of(c).nrlocs())); }},
    {"locsym", "loc", true,
     [](const Call& c) {
       Location loc = location_argument(c.objv[2], c.where(), "loc");
       std::optional<std::string> name = trace_of(c).locsym(loc);
       return c.answer(name ? text_obj(*name) : Tcl_NewIntObj(loc));
     }},
    {"regions", "?group?", true,
     [](const Call& c) {
       EventTrace& trace = trace_of(c);
       return c.answer(string_list(c.objc == 3 ? trace.regions(std::string(Tcl_GetString(c.objv[2]))) : trace.regions()));
     }},
    {"groups", "", true, [](const Call& c) { return c.answer(string_list(trace_of(c).groups())); }},
    {"group", "region", true, [](const Call& c) { return c.answer(text_obj(trace_of(c).group(Tcl_GetString(c.objv[2])))); }},
    {"types", "", true, types},
    {"eventTypes", "", true, types},
    {"problems", "", true, [](const Call& c) { return c.answer(problems_dict(trace_of(c).problems())); }},
    {"iterator", "", true, [](const Call& c) { return c.answer(position_obj(trace_of(c).iterator())); }},
    {"size", "", true, [](const Call& c) { return c.answer(position_obj(trace_of(c).size())); }},
    // Closes the trace for every language holding it, as Python's close() does; the
    // command stays (and says the trace is closed) until it is renamed away.
    {"close", "", true, [](const Call& c) { c.command.shared->close(); return TCL_OK; }},
    {"closed", "", false, [](const Call& c) { return c.answer(Tcl_NewBooleanObj(c.command.shared->closed())); }},
    {"members", "group", true,
     [](const Call& c) { return c.answer(locations_list(trace_of(c).members(integer_argument(c.objv[2], c.where(), "group")))); }},
    {"ranks", "com", true,
     [](const Call& c) { return c.answer(locations_list(trace_of(c).ranks(integer_argument(c.objv[2], c.where(), "com")))); }},
    {"metrics", "", true, [](const Call& c) { return c.answer(metrics_list(trace_of(c).metrics())); }},
    // Assigns the caller's array and runs scripts: locks only while it reads the trace.
    {"select", "expr arr body", false, select},
    // earl.check's violations and counts (bindings/tcl/tcl_checker.h)
    {"check", "?arg ...?", true,  // ?-rules FILE? ?-max N?
     [](const Call& c) { return c.answer(check_trace(c.interp, trace_of(c), c.where(), c.objc, c.objv, 2)); }},
    // The profile's tables (bindings/tcl/tcl_profile.h), which lock for themselves.
    {"profile", "?bins?", false,
     [](const Call& c) {
       const Tcl_WideInt bins =
           c.objc == 3 ? integer_argument(c.objv[2], c.where(), "bins") : profile::kDefaultTimeBins;
       return c.answer(profile_dict(c.interp, *c.command.shared, bins));
     }},
    {"region_instances", "arr body", false,
     [](const Call& c) { return each_instance(c.interp, *c.command.shared, c.objv[2], c.objv[3]); }},
    {nullptr, "", false, nullptr}};

int trace_command(TraceCommand& t, Tcl_Interp* interp, int objc, Tcl_Obj* const objv[]) {
  return call_method(kMethods, t, *t.shared, interp, objc, objv);
}

// `rename e {}` drops Tcl's reference once no call of the command is running; the trace
// lives on while Python still holds it.
int make_command(Tcl_Interp* interp, const char* name, std::shared_ptr<SharedTrace> shared) {
  create_preserved_command<TraceCommand, trace_command>(interp, name, new TraceCommand(std::move(shared)));
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
      file = path_argument(objv[i + 1], here, "-file");
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
