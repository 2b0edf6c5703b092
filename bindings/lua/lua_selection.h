#pragma once
#include <lua.hpp>

namespace earl::lua {

// The metatable of selections and, in Lua, EventTrace:select and earl._expression_test
// (bindings/lua/lua_selection.cpp); `module` is the index of the module table.
void register_selection(lua_State* L, int module);

}  // namespace earl::lua
