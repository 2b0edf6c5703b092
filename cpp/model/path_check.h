#pragma once
// Paths reach the operating system as C strings, which end at the first NUL byte: a path
// "a.alog\0x" would open "a.alog". Every binding's path conversion (Python, Lua, Tcl) calls
// this one rule where a path enters EARL.
#include <string>

namespace earl {

// EarlError "WHAT 'a.alog\0x' contains a NUL byte, which no path can hold" (the NUL shown
// as \0) when `path` holds a NUL byte; `what` names the argument ("file", "output").
void check_path(const std::string& path, const std::string& what);

}  // namespace earl
