// Assigning many elements of one array variable, as `e event arr` does millions of times
// a second.
#pragma once
#include <tcl.h>

namespace earl::tcl {

// Sets array(keys[i]) to values[i] for i < count, in the caller's frame, with the
// semantics of Tcl_ObjSetVar2 (traces, errors), and unsets the elements named in
// `owned` (the names this extension ever assigns) that keys lacks, so that the array
// holds exactly the new event's attributes (and whatever else the script put in it).
// Returns TCL_OK or TCL_ERROR.
int assign_elements(Tcl_Interp* interp, Tcl_Obj* array, int count, Tcl_Obj* const keys[],
                    Tcl_Obj* const values[], int owned_count, Tcl_Obj* const owned[]);

// Whether the fast path may be used: only under the Tcl 8.6 whose private headers this
// was compiled with. Called once by Earl_Init.
void check_array_fast_path(Tcl_Interp* interp);

}  // namespace earl::tcl
