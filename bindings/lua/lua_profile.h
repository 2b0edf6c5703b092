#pragma once
#include <lua.hpp>

namespace earl::lua {

// EventTrace:profile{bins=N} and EventTrace:region_instances() (bindings/lua/lua_profile.cpp);
// `module` is the index of the module table.
void register_profile(lua_State* L, int module);

}  // namespace earl::lua
