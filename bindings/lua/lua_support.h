// What every function of the Lua module needs: turning C++ exceptions into Lua errors and
// reading arguments with messages that name them.
//
// Lua raises errors with longjmp, which skips C++ destructors, and a C++ exception must
// never unwind through Lua's C frames. So each function exposed to Lua runs its C++ work
// inside protect(): an exception becomes its message on the Lua stack, and the Lua error
// is raised only after every C++ object of the call is gone. Argument checks that may
// raise a Lua error run before any C++ object with a destructor exists.
#pragma once
#include <lua.hpp>

#include <cstdint>
#include <string>

namespace earl::lua {

// Runs body(L); a C++ exception becomes a Lua error "script:line: message" (the position
// of the Lua code that called the function, as Lua's own library functions do).
int protect(lua_State* L, int (*body)(lua_State*));

// Raises a Lua error with the caller's position; never returns.
[[noreturn]] void fail(lua_State* L, const char* format, ...);

// The name Lua gives the type of the value at idx, for messages.
const char* type_of(lua_State* L, int idx);

// An integer argument, or fails naming it: "<where>: <name> must be an integer (got ...)".
lua_Integer integer_argument(lua_State* L, int idx, const char* where, const char* name);
// nil or nothing -> fallback; otherwise as integer_argument.
lua_Integer optional_integer(lua_State* L, int idx, const char* where, const char* name,
                             lua_Integer fallback);
// A string argument (numbers are not silently converted), or fails naming it.
const char* string_argument(lua_State* L, int idx, const char* where, const char* name);
// A path argument: as string_argument, all its bytes (a Lua string may hold NUL bytes),
// refused with EarlError "<where>: <name> '...' contains a NUL byte ..." when it holds one
// (model/path_check.h, the rule of every binding).
std::string path_argument(lua_State* L, int idx, const char* where, const char* name);
// A number argument (strings are not silently converted), or fails naming it.
lua_Number number_argument(lua_State* L, int idx, const char* where, const char* name);

// A helper object's class: metatable `meta` with `methods` (ending in {nullptr, nullptr})
// as __index and `gc` as __gc; `make` set as module[make_name], the constructor the Lua
// source calls.
void register_helper_class(lua_State* L, int module, const char* meta, const luaL_Reg* methods,
                           lua_CFunction gc, const char* make_name, lua_CFunction make);
// Runs Lua source (chunk name `name`) with two arguments: the module table at `module` and
// the EventTrace methods, for methods written in Lua (EventTrace:select, EventTrace:check).
void run_with_trace_methods(lua_State* L, int module, const char* source, const char* name);

// Pushes an unsigned 64-bit count or position: an integer where it fits, else a float.
void push_unsigned(lua_State* L, std::uint64_t value);

}  // namespace earl::lua

// Wraps a body in protect() as a lua_CFunction.
#define EARL_LUA_FUNCTION(name, body) \
  int name(lua_State* L) { return ::earl::lua::protect(L, body); }
