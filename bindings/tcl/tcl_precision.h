// How the 1998 dialect writes floating point numbers (thesis section 6.3): fixed format
// with earl_precision decimals; without earl_precision, tcl_precision's; without either, 9.
#pragma once
#include <tcl.h>

namespace earl::tcl {

// The number of decimals; throws EarlError when earl_precision is not an integer 0..17.
// tcl_precision 0 is Tcl 8.6's default meaning "as many digits as needed", i.e. unset.
int decimals(Tcl_Interp* interp);

Tcl_Obj* fixed_obj(double value, int decimals);

}  // namespace earl::tcl
