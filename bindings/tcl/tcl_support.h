// What every command of the Tcl extension needs: C++ exceptions turned into Tcl errors,
// arguments read with messages that name them, and Tcl objects made from core values.
//
// Tcl reports errors by return code, not by longjmp, so argument readers simply throw
// EarlError and each command's body runs inside guard(): the message becomes the Tcl
// result and the errorCode is {EARL message}, which earl.tcl maps to earl.EarlError.
#pragma once
#include <tcl.h>

#include <cstdint>
#include <string>
#include <vector>

#include "model/error.h"
#include "model/event.h"

namespace earl::tcl {

// Runs body() (returning TCL_OK or TCL_ERROR); an exception becomes a Tcl error.
template <class Body>
int guard(Tcl_Interp* interp, Body&& body);

int report(Tcl_Interp* interp, const char* message);

// "cmd method" for messages, e.g. "e event" or "P2Statistic".
std::string where(Tcl_Obj* const objv[], int words);

// Readers that throw EarlError naming the argument: "<where>: <name> must be ... (got "x")".
Tcl_WideInt integer_argument(Tcl_Obj* obj, const std::string& where, const char* name);
double number_argument(Tcl_Obj* obj, const std::string& where, const char* name);

// A path argument's bytes, with the NUL bytes Tcl keeps as C0 80 (its modified UTF-8)
// back as NUL, so that the rule of every binding (model/path_check.h) refuses them:
// EarlError "<where>: <name> '...' contains a NUL byte ...".
std::string path_argument(Tcl_Obj* obj, const std::string& where, const char* name);
Location location_argument(Tcl_Obj* obj, const std::string& where, const char* name);
// A positive (or, with allow_zero, nonnegative) integer option value.
Tcl_WideInt count_argument(Tcl_Obj* obj, const std::string& where, const char* name, bool allow_zero);

// Throws unless `name` is free for a new command (C8: an existing name is an error).
void require_free_name(Tcl_Interp* interp, const char* name, const std::string& where);
// The first of prefix0, prefix1, ... that names no command; numbered per interpreter,
// so that each new interpreter's first trace is earltrace0 as in 1998.
std::string fresh_name(Tcl_Interp* interp, const char* prefix);

Tcl_Obj* position_obj(Position pos);
Tcl_Obj* unsigned_obj(std::uint64_t value);
Tcl_Obj* string_list(const std::vector<std::string>& items);

// A reference-counted Tcl_Obj, for names made once and handed out many times.
class SharedObj {
 public:
  SharedObj() = default;
  explicit SharedObj(Tcl_Obj* obj) : obj_(obj) { if (obj_) Tcl_IncrRefCount(obj_); }
  SharedObj(const SharedObj& other) : SharedObj(other.obj_) {}
  SharedObj& operator=(const SharedObj& other) {
    SharedObj copy(other);
    std::swap(obj_, copy.obj_);
    return *this;
  }
  ~SharedObj() { if (obj_) Tcl_DecrRefCount(obj_); }
  Tcl_Obj* get() const { return obj_; }

 private:
  Tcl_Obj* obj_ = nullptr;
};

// Creates the command `name` over `data` (owned by the command from here on), whose calls
// run body(*data, ...) inside guard(). The data lives until the command is deleted AND
// every call of it has returned (Tcl_Preserve/Tcl_EventuallyFree): a script run from
// inside a call (a variable trace on the array `e event` writes, earl_precision's read
// trace) may `rename` the command away or delete its namespace, and the call goes on with
// its data intact instead of reading freed memory.
template <class T, int (*Body)(T&, Tcl_Interp*, int, Tcl_Obj* const[])>
Tcl_Command create_preserved_command(Tcl_Interp* interp, const char* name, T* data);

template <class Body>
int guard(Tcl_Interp* interp, Body&& body) {
  try {
    return body();
  } catch (const std::exception& error) {
    return report(interp, error.what());
  } catch (...) {
    return report(interp, "earl: unexpected C++ exception");
  }
}

namespace detail {

template <class T>
void free_data(char* block) {
  delete reinterpret_cast<T*>(block);
}

template <class T>
void release_data(ClientData data) {
  Tcl_EventuallyFree(data, free_data<T>);
}

// Holds a Tcl_Preserve for one call, released however the call ends.
class Preserved {
 public:
  explicit Preserved(ClientData data) : data_(data) { Tcl_Preserve(data_); }
  Preserved(const Preserved&) = delete;
  Preserved& operator=(const Preserved&) = delete;
  ~Preserved() { Tcl_Release(data_); }

 private:
  ClientData data_;
};

template <class T, int (*Body)(T&, Tcl_Interp*, int, Tcl_Obj* const[])>
int preserved_call(ClientData data, Tcl_Interp* interp, int objc, Tcl_Obj* const objv[]) {
  Preserved hold(data);
  return guard(interp, [&] { return Body(*static_cast<T*>(data), interp, objc, objv); });
}

}  // namespace detail

template <class T, int (*Body)(T&, Tcl_Interp*, int, Tcl_Obj* const[])>
Tcl_Command create_preserved_command(Tcl_Interp* interp, const char* name, T* data) {
  return Tcl_CreateObjCommand(interp, name, detail::preserved_call<T, Body>, data, detail::release_data<T>);
}

}  // namespace earl::tcl
