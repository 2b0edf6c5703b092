// The method table of a Tcl command over a trace (the 2.0 EventTrace command and the 1998
// trace object): each method is one row, and call_method() does what every call needs.
#pragma once
#include <tcl.h>

#include <array>
#include <climits>
#include <cstddef>
#include <cstring>
#include <mutex>
#include <string>

#include "bindings/tcl/tcl_support.h"
#include "model/error.h"
#include "trace/shared_trace.h"

namespace earl::tcl {

// One call of a method: the command's data, the interpreter and the words.
template <class Command>
struct TclCall {
  Command& command;
  Tcl_Interp* interp;
  int objc;
  Tcl_Obj* const* objv;

  // "e method", for messages.
  std::string where() const { return earl::tcl::where(objv, 2); }
  // Sets the result; a body that answers with a value ends with it.
  int answer(Tcl_Obj* result) const {
    Tcl_SetObjResult(interp, result);
    return TCL_OK;
  }
};

// One row. Tcl_GetIndexFromObjStruct reads the name as the struct's first member.
template <class Command>
struct TclMethod {
  const char* name;
  // As the usage message shows them: "arr ?pos?" is one word and an optional one, and
  // "?arg ...?" any number more.
  const char* arguments;
  // Whether call_method holds the trace's lock around the body. A body that assigns
  // variables (their traces may run scripts that delete the command, and the trace with
  // it) or deletes its own command locks for itself, only as long as it reads the trace.
  bool locked;
  int (*body)(const TclCall<Command>& call);
};

// How many words a call of a row may have, the command and the method included.
struct WordCounts {
  int least = 2;
  int most = 2;
};

template <class Command>
WordCounts word_counts(const TclMethod<Command>& row) {
  WordCounts counts;
  int& least = counts.least;
  int& most = counts.most;
  static const char kAnyMore[] = "?arg ...?";
  for (const char* word = row.arguments; *word;) {
    if (std::strncmp(word, kAnyMore, sizeof kAnyMore - 1) == 0) {
      most = INT_MAX;
      break;
    }
    ++most;
    if (word[0] != '?') ++least;
    word += std::strcspn(word, " ");
    while (*word == ' ') ++word;
  }
  return counts;
}

// Runs the method objv[1] names: Tcl's own "bad method" error for an unknown one, "wrong #
// args: should be "e stack loc ?pos?"" for a wrong count, the body with the trace's lock
// held where the row says so. C++ exceptions are left to the caller's guard().
template <class Command, std::size_t N>
int call_method(const TclMethod<Command> (&table)[N], Command& command, SharedTrace& shared, Tcl_Interp* interp,
                int objc, Tcl_Obj* const objv[]) {
  if (objc < 2) {
    Tcl_WrongNumArgs(interp, 1, objv, "method ?arg ...?");
    return TCL_ERROR;
  }
  int index = 0;
  if (Tcl_GetIndexFromObjStruct(interp, objv[1], table, sizeof(TclMethod<Command>), "method", 0, &index) != TCL_OK)
    return TCL_ERROR;
  const TclMethod<Command>& row = table[index];
  // Counted once per table (each Command has one), not at every call.
  static const std::array<WordCounts, N> counts = [&table] {
    std::array<WordCounts, N> out;
    for (std::size_t i = 0; i + 1 < N; ++i) out[i] = word_counts(table[i]);
    return out;
  }();
  if (objc < counts[index].least || objc > counts[index].most) {
    std::string usage = std::string(row.name) + (*row.arguments ? " " : "") + row.arguments;
    throw EarlError(std::string("wrong # args: should be \"") + Tcl_GetString(objv[0]) + " " + usage + "\"");
  }
  const TclCall<Command> call{command, interp, objc, objv};
  if (!row.locked) return row.body(call);
  std::lock_guard<std::recursive_mutex> lock(shared.mutex());
  return row.body(call);
}

}  // namespace earl::tcl
