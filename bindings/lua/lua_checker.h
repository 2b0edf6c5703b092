#pragma once
#include <lua.hpp>

namespace earl::lua {

// The metatable of checkers and, in Lua, EventTrace:check (bindings/lua/lua_checker.cpp);
// `module` is the index of the module table. Call after register_selection (it uses
// earl._expression_test).
void register_checker(lua_State* L, int module);

}  // namespace earl::lua
