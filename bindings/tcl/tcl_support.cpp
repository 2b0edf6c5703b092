#include "bindings/tcl/tcl_support.h"

#include <limits>

#include "model/path_check.h"

namespace earl::tcl {

int report(Tcl_Interp* interp, const char* message) {
  Tcl_SetObjResult(interp, Tcl_NewStringObj(message, -1));
  Tcl_SetErrorCode(interp, "EARL", message, static_cast<char*>(nullptr));
  return TCL_ERROR;
}

std::string where(Tcl_Obj* const objv[], int words) {
  std::string text = Tcl_GetString(objv[0]);
  for (int i = 1; i < words; ++i) {
    text += ' ';
    text += Tcl_GetString(objv[i]);
  }
  return text;
}

namespace {

[[noreturn]] void bad(Tcl_Obj* obj, const std::string& where, const char* name, const char* what) {
  throw EarlError(where + ": " + name + " must be " + what + " (got \"" + Tcl_GetString(obj) + "\")");
}

// Tcl 8.6 reads 2^63..2^64-1 as their two's complement (18446744073709551615 and
// 0xFFFFFFFFFFFFFFFF become -1): a negative value whose number is not negative is such a
// one, beyond what a 64-bit argument holds.
bool wrapped(Tcl_Obj* obj, Tcl_WideInt value) {
  if (value >= 0) return false;
  double number = 0;
  return Tcl_GetDoubleFromObj(nullptr, obj, &number) == TCL_OK && number >= 0;
}

}  // namespace

Tcl_WideInt integer_argument(Tcl_Obj* obj, const std::string& where, const char* name) {
  Tcl_WideInt value = 0;
  // No interp: the messages are ours, naming the argument.
  if (Tcl_GetWideIntFromObj(nullptr, obj, &value) != TCL_OK) bad(obj, where, name, "an integer");
  if (wrapped(obj, value)) bad(obj, where, name, "an integer from -2^63 to 2^63-1");
  return value;
}

double number_argument(Tcl_Obj* obj, const std::string& where, const char* name) {
  double value = 0;
  if (Tcl_GetDoubleFromObj(nullptr, obj, &value) != TCL_OK) bad(obj, where, name, "a number");
  return value;
}

Location location_argument(Tcl_Obj* obj, const std::string& where, const char* name) {
  Tcl_WideInt value = integer_argument(obj, where, name);
  if (value < std::numeric_limits<Location>::min() || value > std::numeric_limits<Location>::max())
    throw EarlError(where + ": " + name + " " + std::to_string(value) + " is not a location");
  return static_cast<Location>(value);
}

Tcl_WideInt count_argument(Tcl_Obj* obj, const std::string& where, const char* name, bool allow_zero) {
  Tcl_WideInt value = 0;
  if (Tcl_GetWideIntFromObj(nullptr, obj, &value) != TCL_OK || wrapped(obj, value) || value < (allow_zero ? 0 : 1))
    bad(obj, where, name, allow_zero ? "a nonnegative integer" : "a positive integer");
  return value;
}

void require_free_name(Tcl_Interp* interp, const char* name, const std::string& where) {
  Tcl_CmdInfo info;
  if (Tcl_GetCommandInfo(interp, name, &info))
    throw EarlError(where + ": a command named \"" + name + "\" already exists");
}

std::string fresh_name(Tcl_Interp* interp, const char* prefix) {
  // One counter per prefix and interpreter, kept as the interpreter's associated data.
  const std::string key = std::string("earl::counter::") + prefix;
  auto* counter = static_cast<unsigned*>(Tcl_GetAssocData(interp, key.c_str(), nullptr));
  if (!counter) {
    counter = new unsigned(0);
    Tcl_SetAssocData(interp, key.c_str(), [](ClientData data, Tcl_Interp*) { delete static_cast<unsigned*>(data); },
                     counter);
  }
  Tcl_CmdInfo info;
  for (;;) {
    std::string name = prefix + std::to_string((*counter)++);
    if (!Tcl_GetCommandInfo(interp, name.c_str(), &info)) return name;
  }
}

Tcl_Obj* unsigned_obj(std::uint64_t value) {
  if (value <= static_cast<std::uint64_t>(std::numeric_limits<Tcl_WideInt>::max()))
    return Tcl_NewWideIntObj(static_cast<Tcl_WideInt>(value));
  // Beyond a wide int Tcl reads the decimal text as a bignum, keeping it exact.
  return Tcl_NewStringObj(std::to_string(value).c_str(), -1);
}

Tcl_Obj* position_obj(Position pos) { return unsigned_obj(pos); }

Tcl_Obj* string_list(const std::vector<std::string>& items) {
  Tcl_Obj* list = Tcl_NewListObj(0, nullptr);
  for (const std::string& item : items)
    Tcl_ListObjAppendElement(nullptr, list, Tcl_NewStringObj(item.data(), static_cast<int>(item.size())));
  return list;
}

std::string path_argument(Tcl_Obj* obj, const std::string& where, const char* name) {
  int length = 0;
  const char* bytes = Tcl_GetStringFromObj(obj, &length);
  std::string path;
  for (int i = 0; i < length; ++i) {
    if (bytes[i] == '\xC0' && i + 1 < length && bytes[i + 1] == '\x80') {
      path += '\0';
      ++i;
    } else {
      path += bytes[i];
    }
  }
  check_path(path, where + ": " + name);
  return path;
}

}  // namespace earl::tcl
