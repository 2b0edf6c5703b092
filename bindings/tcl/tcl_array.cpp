// Tcl_ObjSetVar2 looks the array variable up again for every element, and at global
// level that lookup goes through namespace resolution: most of the cost of an event. Tcl's
// own `array set` looks the array up once and then only its elements; this does the
// same, through Tcl 8.6's internal stubs (TclObjLookupVar, TclPtrSetVar, TclPtrUnsetVar)
// and the element table layout of tclInt.h (Debian: tcl8.6-dev's tcl-private headers).
// Where nothing can observe it (no traces, the old value object held by the element
// alone), a number is stored into the element's existing object instead of a new one.
// Wherever the fast path does not apply (no private headers, another Tcl, the variable
// not yet an array, an array search in progress) it falls back to Tcl_ObjSetVar2.
#include "bindings/tcl/tcl_array.h"

#include <cstddef>
#include <cstring>

#ifdef EARL_TCL_PRIVATE_HEADERS
#include <tclInt.h>
#endif

namespace earl::tcl {

Tcl_Obj* Cell::value() const {
  switch (kind) {
    case Kind::Integer: return Tcl_NewWideIntObj(integer);
    case Kind::Real: return Tcl_NewDoubleObj(real);
    case Kind::Object: break;
  }
  return object;
}

namespace {

bool fast_path = false;

bool among(Tcl_Obj* key, int count, const Cell cells[]) {
  for (int i = 0; i < count; ++i)
    if (cells[i].key == key) return true;
  const char* text = Tcl_GetString(key);
  for (int i = 0; i < count; ++i)
    if (std::strcmp(Tcl_GetString(cells[i].key), text) == 0) return true;
  return false;
}

bool owned_name(Tcl_Obj* key, int owned_count, Tcl_Obj* const owned[]) {
  for (int i = 0; i < owned_count; ++i)
    if (owned[i] == key) return true;
  const char* text = Tcl_GetString(key);
  for (int i = 0; i < owned_count; ++i)
    if (std::strcmp(Tcl_GetString(owned[i]), text) == 0) return true;
  return false;
}

// Sets one element through Tcl_ObjSetVar2; a value made here and refused is freed.
bool set_slowly(Tcl_Interp* interp, Tcl_Obj* array, const Cell& cell) {
  Tcl_Obj* value = cell.value();
  Tcl_IncrRefCount(value);
  bool done = Tcl_ObjSetVar2(interp, array, cell.key, value, TCL_LEAVE_ERR_MSG) != nullptr;
  Tcl_DecrRefCount(value);
  return done;
}

int assign_slowly(Tcl_Interp* interp, Tcl_Obj* array, int count, const Cell cells[], int owned_count,
                  Tcl_Obj* const owned[]) {
  for (int i = 0; i < count; ++i)
    if (!set_slowly(interp, array, cells[i])) return TCL_ERROR;
  // Unsets the owned names the cells lack; absent elements are no error.
  for (int i = 0; i < owned_count; ++i)
    if (!among(owned[i], count, cells)) Tcl_UnsetVar2(interp, Tcl_GetString(array), Tcl_GetString(owned[i]), 0);
  return TCL_OK;
}

#ifdef EARL_TCL_PRIVATE_HEADERS
Var* element_of(Tcl_HashEntry* entry) {
  return reinterpret_cast<Var*>(reinterpret_cast<char*>(entry) - offsetof(VarInHash, entry));
}

// Stores the cell into an existing element without a new object or TclPtrSetVar, where
// no one could tell the difference: no write traces, a defined scalar, and the old value
// either the same object or a number object held by this element alone.
bool store_in_place(Var* arr, Var* element, const Cell& cell) {
  if ((element->flags & VAR_TRACED_WRITE) || (arr->flags & VAR_TRACED_WRITE) || !TclIsVarScalar(element))
    return false;
  Tcl_Obj* old = element->value.objPtr;
  if (!old) return false;
  if (cell.kind == Cell::Kind::Object) return old == cell.object;
  if (Tcl_IsShared(old)) return false;
  if (cell.kind == Cell::Kind::Integer)
    Tcl_SetWideIntObj(old, cell.integer);
  else
    Tcl_SetDoubleObj(old, cell.real);
  return true;
}

// The fast path's unset: walks the array's own elements (a dozen or so) instead of
// trying every owned name.
void unset_stale_elements(Tcl_Interp* interp, Var* arr, Tcl_Obj* array, int count, const Cell cells[],
                          int owned_count, Tcl_Obj* const owned[]) {
  constexpr int kMost = 64;
  Tcl_Obj* stale[kMost];
  int found = 0;
  Tcl_HashSearch search;
  for (Tcl_HashEntry* entry = Tcl_FirstHashEntry(&arr->value.tablePtr->table, &search); entry && found < kMost;
       entry = Tcl_NextHashEntry(&search)) {
    Tcl_Obj* key = entry->key.objPtr;
    if (TclIsVarUndefined(element_of(entry)) || among(key, count, cells) || !owned_name(key, owned_count, owned))
      continue;
    Tcl_IncrRefCount(key);
    stale[found++] = key;
  }
  // Unset after the walk: unsetting deletes entries from the table being walked.
  for (int i = 0; i < found; ++i) {
    // Found again each time: an unset trace may have changed the array meanwhile.
    Tcl_HashEntry* entry =
        TclIsVarArray(arr) ? Tcl_FindHashEntry(&arr->value.tablePtr->table, reinterpret_cast<char*>(stale[i])) : nullptr;
    if (entry)
      TclPtrUnsetVar(interp, reinterpret_cast<Tcl_Var>(element_of(entry)), reinterpret_cast<Tcl_Var>(arr), array,
                     stale[i], 0);
    Tcl_DecrRefCount(stale[i]);
  }
}
#endif

}  // namespace

void check_array_fast_path(Tcl_Interp* interp) {
#ifdef EARL_TCL_PRIVATE_HEADERS
  int major = 0, minor = 0;
  Tcl_GetVersion(&major, &minor, nullptr, nullptr);
  fast_path = major == TCL_MAJOR_VERSION && minor == TCL_MINOR_VERSION && tclIntStubsPtr != nullptr &&
              tclIntStubsPtr->tclObjLookupVar != nullptr && tclIntStubsPtr->tclPtrSetVar != nullptr &&
              tclIntStubsPtr->tclPtrUnsetVar != nullptr;
#endif
  (void)interp;
}

int assign_elements(Tcl_Interp* interp, Tcl_Obj* array, int count, const Cell cells[], int owned_count,
                    Tcl_Obj* const owned[]) {
#ifdef EARL_TCL_PRIVATE_HEADERS
  if (fast_path) {
    Var* owner = nullptr;
    // part2 NULL: the array variable itself, upvar links followed.
    Var* arr = TclObjLookupVar(interp, array, nullptr, 0, "set", 1, 1, &owner);
    if (arr && owner == nullptr && TclIsVarArray(arr) && !(arr->flags & VAR_SEARCH_ACTIVE)) {
      for (int i = 0; i < count; ++i) {
        // A trace run by the previous assignment may have unset or reshaped the array.
        if (!TclIsVarArray(arr) || (arr->flags & VAR_SEARCH_ACTIVE))
          return assign_slowly(interp, array, count - i, cells + i, owned_count, owned);
        int is_new = 0;
        Tcl_HashEntry* entry =
            Tcl_CreateHashEntry(&arr->value.tablePtr->table, reinterpret_cast<char*>(cells[i].key), &is_new);
        Var* element = element_of(entry);
        if (is_new)
          TclSetVarArrayElement(element);
        else if (store_in_place(arr, element, cells[i]))
          continue;
        Tcl_Obj* value = cells[i].value();
        Tcl_IncrRefCount(value);
        bool done = TclPtrSetVar(interp, reinterpret_cast<Tcl_Var>(element), reinterpret_cast<Tcl_Var>(arr), array,
                                 cells[i].key, value, TCL_LEAVE_ERR_MSG) != nullptr;
        Tcl_DecrRefCount(value);
        if (!done) return TCL_ERROR;
      }
      // Elements beyond this event's are left over from another kind of event (or the
      // script's own): only then is there anything to unset.
      if (TclIsVarArray(arr) && arr->value.tablePtr->table.numEntries > count)
        unset_stale_elements(interp, arr, array, count, cells, owned_count, owned);
      return TCL_OK;
    }
  }
#endif
  return assign_slowly(interp, array, count, cells, owned_count, owned);
}

}  // namespace earl::tcl
