// Assigning many elements of one array variable, as `e event arr` does millions of times
// a second.
#pragma once
#include <tcl.h>

namespace earl::tcl {

// One element's new value: a Tcl object, or a number that becomes one only where the
// element's current value object cannot simply be given the new number.
struct Cell {
  enum class Kind : unsigned char { Object, Integer, Real };
  Tcl_Obj* key = nullptr;
  Kind kind = Kind::Object;
  Tcl_Obj* object = nullptr;  // Kind::Object
  Tcl_WideInt integer = 0;    // Kind::Integer
  double real = 0.0;          // Kind::Real

  // A new object for a number, the object itself otherwise.
  Tcl_Obj* value() const;
};

// Sets array(cells[i].key) to the cell's value for i < count, in the caller's frame, with
// the semantics of Tcl_ObjSetVar2 (traces, errors), and unsets the elements named in
// `owned` (the names this extension ever assigns) that the cells lack, so that the array
// holds exactly the new event's attributes (and whatever else the script put in it).
// Returns TCL_OK or TCL_ERROR.
int assign_elements(Tcl_Interp* interp, Tcl_Obj* array, int count, const Cell cells[], int owned_count,
                    Tcl_Obj* const owned[]);

// Whether the fast path may be used: only under the Tcl 8.6 whose private headers this
// was compiled with. Called by Earl_Init.
void check_array_fast_path(Tcl_Interp* interp);

}  // namespace earl::tcl
