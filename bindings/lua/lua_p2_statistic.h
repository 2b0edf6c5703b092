#pragma once
#include <lua.hpp>

namespace earl::lua {

// Creates the metatable of P2Statistic objects (once per Lua state).
void register_p2_statistic(lua_State* L);
// P2Statistic() / P2Statistic(state): the global constructor.
int new_p2_statistic(lua_State* L);

}  // namespace earl::lua
