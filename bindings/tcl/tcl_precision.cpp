#include "bindings/tcl/tcl_precision.h"

#include <cstdio>
#include <string>

#include "model/error.h"

namespace earl::tcl {

namespace {

constexpr int kDefaultDecimals = 9;
constexpr int kMostDecimals = 17;

}  // namespace

int decimals(Tcl_Interp* interp) {
  if (Tcl_Obj* setting = Tcl_GetVar2Ex(interp, "earl_precision", nullptr, TCL_GLOBAL_ONLY)) {
    int value = -1;
    if (Tcl_GetIntFromObj(nullptr, setting, &value) != TCL_OK || value < 0 || value > kMostDecimals)
      throw EarlError(std::string("earl_precision must be an integer from 0 to 17 (got \"") +
                      Tcl_GetString(setting) + "\")");
    return value;
  }
  if (Tcl_Obj* setting = Tcl_GetVar2Ex(interp, "tcl_precision", nullptr, TCL_GLOBAL_ONLY)) {
    int value = 0;
    if (Tcl_GetIntFromObj(nullptr, setting, &value) == TCL_OK && value > 0 && value <= kMostDecimals)
      return value;
  }
  return kDefaultDecimals;
}

Tcl_Obj* fixed_obj(double value, int decimals) {
  char text[400];  // %.17f of the largest double has 309 digits before the point
  int length = std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return Tcl_NewStringObj(text, length);
}

}  // namespace earl::tcl
