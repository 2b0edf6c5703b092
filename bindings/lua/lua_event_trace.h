#pragma once
#include <lua.hpp>

namespace earl::lua {

// Creates the metatable of trace objects (once per Lua state).
void register_event_trace(lua_State* L);
// EventTrace(file, ...) / EventTrace{file=..., ...}: the global constructor.
int open_event_trace(lua_State* L);
// earl._adopt(ticket): a trace handed over by another language module (earl.lua.share).
int adopt_event_trace(lua_State* L);

}  // namespace earl::lua
