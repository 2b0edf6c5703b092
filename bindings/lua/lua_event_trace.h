#pragma once
#include <lua.hpp>

#include <memory>

#include "trace/shared_trace.h"

namespace earl::lua {

// Creates the metatable of trace objects (once per Lua state).
void register_event_trace(lua_State* L);
// EventTrace(file, ...) / EventTrace{file=..., ...}: the global constructor.
int open_event_trace(lua_State* L);
// earl._adopt(ticket): a trace handed over by another language module (earl.lua.share).
int adopt_event_trace(lua_State* L);
// The trace of the EventTrace at idx, or a Lua error "EventTrace:<method>: call it as a
// method, ..." as every method gives (raise it before any C++ object of the call exists).
std::shared_ptr<SharedTrace> trace_argument(lua_State* L, int idx, const char* method);

}  // namespace earl::lua
