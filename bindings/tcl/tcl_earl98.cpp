// The 1998 EARL dialect (thesis chapter 6, conformance sections C and D) over the same
// EventTrace as the 2.0 mapping. Its differences are made here and, for the view of one
// event, in tcl_earl98_events.cpp: attributes num and node, a group attribute, -1 for
// "no event" (failed reads, top-level enterptr, missing sendptr), explicit reads that move
// the read pointer unless -fetchonly, stack and queue of the state at the read pointer
// only, youngest first, and floats in fixed format with earl_precision decimals. The read
// pointer is the EventTrace's iterator.
#include "bindings/tcl/tcl_earl98.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "bindings/tcl/tcl_earl98_events.h"
#include "bindings/tcl/tcl_methods.h"
#include "bindings/tcl/tcl_p2_statistic.h"
#include "bindings/tcl/tcl_precision.h"
#include "bindings/tcl/tcl_support.h"
#include "bindings/tcl/tcl_trace_common.h"
#include "registry/format_registry.h"

#ifndef EARL_VERSION
#define EARL_VERSION "unknown"
#endif

namespace earl::tcl {

namespace {

struct Trace98 {
  std::shared_ptr<SharedTrace> shared;
  TraceNames names;
  Tcl_Command token = nullptr;
};

enum class Read { Absolute, Next, Prev };

// Reads an event for get/set and their next/prev forms: the cells, or none (-1) when it
// does not exist; moves the pointer unless fetch_only (C12, C13).
bool read98(Trace98& t, Tcl_Interp* interp, Read how, Tcl_WideInt n, bool fetch_only,
            Cells98& cells) {
  int places = decimals(interp);
  Lock lock(t.shared->mutex());
  EventTrace& trace = t.shared->trace();
  Position pos = 0;
  if (how == Read::Absolute) {
    if (n < 1 || static_cast<Position>(n) > trace.size()) return false;
    pos = static_cast<Position>(n);
    if (!fetch_only) trace.jump(n);
  } else {
    pos = how == Read::Next ? trace.next() : trace.prev();
    if (pos == 0) return false;
  }
  cells = attributes98(t.names, trace, trace.event(static_cast<std::int64_t>(pos)), places);
  return true;
}

[[noreturn]] void usage(Tcl_Obj* const objv[], const char* text) {
  throw EarlError(std::string("wrong # args: should be \"") + Tcl_GetString(objv[0]) + " " + text + "\"");
}

bool fetch_only_flag(Tcl_Obj* obj, Tcl_Obj* const objv[]) {
  if (std::string(Tcl_GetString(obj)) != "-fetchonly")
    throw EarlError(std::string(Tcl_GetString(objv[0])) + " " + Tcl_GetString(objv[1]) + ": bad option \"" +
                    Tcl_GetString(obj) + "\": must be -fetchonly");
  return true;
}

Location node_argument(EventTrace& trace, Tcl_Obj* obj, const std::string& where, const char* name) {
  Location node = location_argument(obj, where, name);
  if (node < 0 || node >= trace.nrlocs())
    throw EarlError(where + ": undefined nodenumber " + std::to_string(node) + " (the trace has nodes 0.." +
                    std::to_string(trace.nrlocs() - 1) + ")");
  return node;
}

int info(Trace98& t, Tcl_Interp* interp, int objc, Tcl_Obj* const objv[]) {
  static const char* const subcommands[] = {"filename", "format", "nodecount", "eventtypes", "attributes",
                                            "nodesym", "regions", "groups", "group", nullptr};
  enum { kFilename, kFormat, kNodecount, kEventtypes, kAttributes, kNodesym, kRegions, kGroups, kGroup };
  if (objc < 3) usage(objv, "info subcommand ?arg?");
  int which = 0;
  if (Tcl_GetIndexFromObj(interp, objv[2], subcommands, "info subcommand", 0, &which) != TCL_OK) return TCL_ERROR;
  const bool takes_argument = which == kNodesym || which == kGroup;
  if (which == kAttributes ? objc > 4 : objc != (takes_argument ? 4 : 3)) {
    std::string text = std::string("info ") + subcommands[which];
    if (which == kAttributes) text += " ?type?";
    if (which == kNodesym) text += " node";
    if (which == kGroup) text += " group";
    usage(objv, text.c_str());
  }
  const std::string here = where(objv, 3);
  Lock lock(t.shared->mutex());
  EventTrace& trace = t.shared->trace();
  Tcl_Obj* result = nullptr;
  switch (which) {
    case kFilename: result = Tcl_NewStringObj(trace.file().c_str(), -1); break;
    case kFormat: result = Tcl_NewStringObj(trace.format().c_str(), -1); break;
    case kNodecount: result = Tcl_NewIntObj(trace.nrlocs()); break;
    case kEventtypes: result = string_list(trace.types()); break;
    case kAttributes: result = attribute_names98(trace, objc == 4 ? Tcl_GetString(objv[3]) : nullptr); break;
    case kNodesym: {
      Location node = node_argument(trace, objv[3], here, "node");
      std::optional<std::string> name = trace.locsym(node);
      result = Tcl_NewStringObj(name ? name->c_str() : ("node_" + std::to_string(node)).c_str(), -1);
      break;
    }
    case kRegions: result = string_list(trace.regions()); break;
    case kGroups: result = string_list(trace.groups()); break;
    case kGroup: {
      std::string group = Tcl_GetString(objv[3]);
      // All is every region, whatever groups the format defines (C25).
      result = string_list(group == "All" ? trace.regions() : trace.regions(group));
      break;
    }
  }
  Tcl_SetObjResult(interp, result);
  return TCL_OK;
}

using Call = TclCall<Trace98>;

// get/set and their next/prev forms: the event's attributes as a flat list, or assigned to
// the array objv[array] (no array: get), or -1 where there is no such event.
int read_answer(const Call& c, Read how, int array, Tcl_WideInt n, bool fetch_only) {
  Cells98 cells;
  if (!read98(c.command, c.interp, how, n, fetch_only, cells)) return c.answer(Tcl_NewIntObj(-1));
  if (!array) return c.answer(flat_list98(cells));
  if (set_array98(c.interp, c.objv[array], cells) != TCL_OK) return TCL_ERROR;
  return c.answer(cells[0].second);
}

// `$t get n ?-fetchonly?` (array 0) and `$t set arr n ?-fetchonly?` (array 2).
int read_at(const Call& c, int array) {
  const int at = array ? 3 : 2;
  Tcl_WideInt n = integer_argument(c.objv[at], c.where(), "n");
  bool fetch_only = c.objc == at + 2 && fetch_only_flag(c.objv[at + 1], c.objv);
  return read_answer(c, Read::Absolute, array, n, fetch_only);
}

// The reads lock for themselves: set_array98 assigns variables, whose traces may run
// scripts; close deletes the command.
const TclMethod<Trace98> kMethods[] = {
    {"get", "n ?-fetchonly?", false, [](const Call& c) { return read_at(c, 0); }},
    {"set", "arr n ?-fetchonly?", false, [](const Call& c) { return read_at(c, 2); }},
    {"getnext", "", false, [](const Call& c) { return read_answer(c, Read::Next, 0, 0, false); }},
    {"setnext", "arr", false, [](const Call& c) { return read_answer(c, Read::Next, 2, 0, false); }},
    {"getprev", "", false, [](const Call& c) { return read_answer(c, Read::Prev, 0, 0, false); }},
    {"setprev", "arr", false, [](const Call& c) { return read_answer(c, Read::Prev, 2, 0, false); }},
    {"reset", "", true, [](const Call& c) { c.command.shared->trace().reset(); return TCL_OK; }},
    {"stack", "node ?-sym?", true,
     [](const Call& c) {
       const std::string here = c.where();
       bool symbols = false;
       if (c.objc == 4) {
         if (std::string(Tcl_GetString(c.objv[3])) != "-sym")
           throw EarlError(here + ": bad option \"" + Tcl_GetString(c.objv[3]) + "\": must be -sym");
         symbols = true;
       }
       Trace98& t = c.command;
       EventTrace& trace = t.shared->trace();
       Location node = node_argument(trace, c.objv[2], here, "node");
       // The state at the read pointer (C17), youngest first (C18).
       std::vector<Position> open = trace.stack(node, static_cast<std::int64_t>(trace.iterator()));
       std::reverse(open.begin(), open.end());
       Tcl_Obj* list = Tcl_NewListObj(0, nullptr);
       for (Position p : open)
         Tcl_ListObjAppendElement(nullptr, list,
                                  symbols ? t.names.region(trace, trace.event(static_cast<std::int64_t>(p)).region)
                                          : position_obj(p));
       return c.answer(list);
     }},
    {"queue", "?dest? ?src?", true,
     [](const Call& c) {
       const std::string here = c.where();
       EventTrace& trace = c.command.shared->trace();
       // -1 (or omitted) is any node, as in the 2.0 mapping.
       Location dest = c.objc > 2 ? location_argument(c.objv[2], here, "dest") : -1;
       Location src = c.objc > 3 ? location_argument(c.objv[3], here, "src") : -1;
       if (dest != -1) node_argument(trace, c.objv[2], here, "dest");
       if (src != -1) node_argument(trace, c.objv[3], here, "src");
       std::vector<Position> queued = trace.queue(src, dest, static_cast<std::int64_t>(trace.iterator()));
       std::reverse(queued.begin(), queued.end());  // youngest first, like stack (F2/F3)
       Tcl_Obj* list = Tcl_NewListObj(0, nullptr);
       for (Position p : queued) Tcl_ListObjAppendElement(nullptr, list, position_obj(p));
       return c.answer(list);
     }},
    // Counts its words itself: each subcommand has its own usage.
    {"info", "?arg ...?", false, [](const Call& c) { return info(c.command, c.interp, c.objc, c.objv); }},
    {"close", "", false,
     [](const Call& c) {
       {
         Lock lock(c.command.shared->mutex());
         c.command.shared->close();
       }
       Tcl_DeleteCommandFromToken(c.interp, c.command.token);  // freed when this call returns
       return TCL_OK;
     }},
    {nullptr, "", false, nullptr}};

int trace_command(Trace98& t, Tcl_Interp* interp, int objc, Tcl_Obj* const objv[]) {
  return call_method(kMethods, t, *t.shared, interp, objc, objv);
}

// earl open file ?obj? ?-format f? ?-hist n? ?-mark d? (the rows of trace/open_options.h
// that have a 1998 flag)
int earl_open(Tcl_Interp* interp, int objc, Tcl_Obj* const objv[]) {
  if (objc < 3) usage(objv, ("open file ?obj? " + tcl_option_usage(TclDialect::Earl98)).c_str());
  const std::string file = path_argument(objv[2], "earl open", "file");
  int i = 3;
  std::string name;
  if (i < objc && Tcl_GetString(objv[i])[0] != '-') name = Tcl_GetString(objv[i++]);
  const TclOptionFlags& known = tcl_option_flags(TclDialect::Earl98);
  OpenOptions open;
  for (; i < objc; i += 2) {
    int option = 0;
    if (Tcl_GetIndexFromObj(interp, objv[i], known.flags.data(), "option", 0, &option) != TCL_OK) return TCL_ERROR;
    if (i + 1 >= objc)
      throw EarlError(std::string("earl open: option ") + known.flags[option] + " needs a value");
    set_tcl_option(open, *known.rows[option], objv[i + 1], "earl open", known.flags[option]);
  }
  if (name.empty())
    name = fresh_name(interp, "earltrace");
  else
    require_free_name(interp, name.c_str(), "earl open");
  auto* t = new Trace98{open_shared_trace(file, open), {}, nullptr};
  t->token = create_preserved_command<Trace98, trace_command>(interp, name.c_str(), t);
  Tcl_SetObjResult(interp, Tcl_NewStringObj(name.c_str(), -1));
  return TCL_OK;
}

int earl_help(Tcl_Interp* interp, int objc, Tcl_Obj* const objv[]) {
  static const char* const topics[] = {"formats", "version", nullptr};
  if (objc != 3) usage(objv, "help formats|version");
  int topic = 0;
  if (Tcl_GetIndexFromObj(interp, objv[2], topics, "help topic", 0, &topic) != TCL_OK) return TCL_ERROR;
  Tcl_SetObjResult(interp, topic == 0 ? string_list(readable_formats()) : Tcl_NewStringObj(EARL_VERSION, -1));
  return TCL_OK;
}

int earl_command(ClientData, Tcl_Interp* interp, int objc, Tcl_Obj* const objv[]) {
  return guard(interp, [&] {
    static const char* const subcommands[] = {"open", "stat", "help", nullptr};
    if (objc < 2) usage(objv, "open|stat|help ?arg ...?");
    int which = 0;
    if (Tcl_GetIndexFromObj(interp, objv[1], subcommands, "subcommand", 0, &which) != TCL_OK) return TCL_ERROR;
    if (which == 0) return earl_open(interp, objc, objv);
    if (which == 1) return earl_stat(interp, objc, objv);
    return earl_help(interp, objc, objv);
  });
}

}  // namespace

void register_earl98(Tcl_Interp* interp) {
  Tcl_CreateObjCommand(interp, "::earl", earl_command, nullptr, nullptr);
}

}  // namespace earl::tcl
