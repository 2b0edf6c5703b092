// Tcl_ObjSetVar2 looks the array variable up again for every element, and at global
// level that lookup goes through namespace resolution: most of the cost of an event. Tcl's
// own `array set` looks the array up once and then only its elements; this does the
// same, through Tcl 8.6's internal stubs (TclObjLookupVar, TclPtrSetVar) and the element
// table layout of tclInt.h (Debian: tcl8.6-dev's tcl-private headers). Wherever that path
// does not apply (no private headers, another Tcl, the variable not yet an array, an
// array search in progress) it falls back to Tcl_ObjSetVar2.
#include "bindings/tcl/tcl_array.h"

#include <cstddef>
#include <cstring>

#ifdef EARL_TCL_PRIVATE_HEADERS
#include <tclInt.h>
#endif

namespace earl::tcl {

namespace {

bool fast_path = false;

bool among(Tcl_Obj* key, int count, Tcl_Obj* const keys[]) {
  for (int i = 0; i < count; ++i)
    if (keys[i] == key) return true;
  const char* text = Tcl_GetString(key);
  for (int i = 0; i < count; ++i)
    if (std::strcmp(Tcl_GetString(keys[i]), text) == 0) return true;
  return false;
}

// Unsets array(name) for the owned names keys lacks; absent elements are no error.
void unset_stale(Tcl_Interp* interp, Tcl_Obj* array, int count, Tcl_Obj* const keys[], int owned_count,
                 Tcl_Obj* const owned[]) {
  for (int i = 0; i < owned_count; ++i)
    if (!among(owned[i], count, keys)) Tcl_UnsetVar2(interp, Tcl_GetString(array), Tcl_GetString(owned[i]), 0);
}

int assign_slowly(Tcl_Interp* interp, Tcl_Obj* array, int count, Tcl_Obj* const keys[], Tcl_Obj* const values[]) {
  for (int i = 0; i < count; ++i)
    if (!Tcl_ObjSetVar2(interp, array, keys[i], values[i], TCL_LEAVE_ERR_MSG)) return TCL_ERROR;
  return TCL_OK;
}

#ifdef EARL_TCL_PRIVATE_HEADERS
// The fast path's unset: walks the array's own elements (a dozen or so) instead of
// trying every owned name.
int unset_stale_elements(Tcl_Interp* interp, Var* arr, Tcl_Obj* array, int count, Tcl_Obj* const keys[],
                         int owned_count, Tcl_Obj* const owned[]) {
  constexpr int kMost = 64;
  Tcl_Obj* stale[kMost];
  int found = 0;
  Tcl_HashSearch search;
  for (Tcl_HashEntry* entry = Tcl_FirstHashEntry(&arr->value.tablePtr->table, &search); entry && found < kMost;
       entry = Tcl_NextHashEntry(&search)) {
    Var* element = reinterpret_cast<Var*>(reinterpret_cast<char*>(entry) - offsetof(VarInHash, entry));
    Tcl_Obj* key = entry->key.objPtr;
    if (TclIsVarUndefined(element) || among(key, count, keys) || !among(key, owned_count, owned)) continue;
    Tcl_IncrRefCount(key);
    stale[found++] = key;
  }
  // Unset after the walk: unsetting deletes entries from the table being walked.
  for (int i = 0; i < found; ++i) {
    // Found again each time: an unset trace may have changed the array meanwhile.
    Tcl_HashEntry* entry = TclIsVarArray(arr) ? Tcl_FindHashEntry(&arr->value.tablePtr->table, reinterpret_cast<char*>(stale[i])) : nullptr;
    if (entry) {
      Var* element = reinterpret_cast<Var*>(reinterpret_cast<char*>(entry) - offsetof(VarInHash, entry));
      TclPtrUnsetVar(interp, reinterpret_cast<Tcl_Var>(element), reinterpret_cast<Tcl_Var>(arr), array, stale[i], 0);
    }
    Tcl_DecrRefCount(stale[i]);
  }
  return TCL_OK;
}
#endif

}  // namespace

void check_array_fast_path(Tcl_Interp* interp) {
#ifdef EARL_TCL_PRIVATE_HEADERS
  int major = 0, minor = 0;
  Tcl_GetVersion(&major, &minor, nullptr, nullptr);
  fast_path = major == TCL_MAJOR_VERSION && minor == TCL_MINOR_VERSION && tclIntStubsPtr != nullptr &&
              tclIntStubsPtr->tclObjLookupVar != nullptr && tclIntStubsPtr->tclPtrSetVar != nullptr && tclIntStubsPtr->tclPtrUnsetVar != nullptr;
#endif
  (void)interp;
}

int assign_elements(Tcl_Interp* interp, Tcl_Obj* array, int count, Tcl_Obj* const keys[], Tcl_Obj* const values[],
                    int owned_count, Tcl_Obj* const owned[]) {
#ifdef EARL_TCL_PRIVATE_HEADERS
  if (fast_path) {
    Var* owner = nullptr;
    // part2 NULL: the array variable itself, upvar links followed.
    Var* arr = TclObjLookupVar(interp, array, nullptr, 0, "set", 1, 1, &owner);
    if (arr && owner == nullptr && TclIsVarArray(arr) && !(arr->flags & VAR_SEARCH_ACTIVE)) {
      for (int i = 0; i < count; ++i) {
        // A trace run by the previous assignment may have unset or reshaped the array.
        if (!TclIsVarArray(arr) || (arr->flags & VAR_SEARCH_ACTIVE))
          return assign_slowly(interp, array, count - i, keys + i, values + i);
        int is_new = 0;
        Tcl_HashEntry* entry = Tcl_CreateHashEntry(&arr->value.tablePtr->table, reinterpret_cast<char*>(keys[i]), &is_new);
        Var* element = reinterpret_cast<Var*>(reinterpret_cast<char*>(entry) - offsetof(VarInHash, entry));
        if (is_new) TclSetVarArrayElement(element);
        if (!TclPtrSetVar(interp, reinterpret_cast<Tcl_Var>(element), reinterpret_cast<Tcl_Var>(arr), array,
                          keys[i], values[i], TCL_LEAVE_ERR_MSG))
          return TCL_ERROR;
      }
      // Elements beyond this event's are left over from another kind of event (or the
      // script's own): only then is there anything to unset.
      if (TclIsVarArray(arr) && arr->value.tablePtr->table.numEntries > count)
        return unset_stale_elements(interp, arr, array, count, keys, owned_count, owned);
      return TCL_OK;
    }
  }
#endif
  if (assign_slowly(interp, array, count, keys, values) != TCL_OK) return TCL_ERROR;
  unset_stale(interp, array, count, keys, owned_count, owned);
  return TCL_OK;
}

}  // namespace earl::tcl
