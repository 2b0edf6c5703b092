// luaopen_earl: what `require "earl"` (standalone Lua) and earl.lua.runtime() (lupa) run.
// It defines the globals EventTrace and P2Statistic, as EARL 2.0's mappings did, and
// returns them in a module table as well.
#include <lua.hpp>

#include "bindings/lua/lua_checker.h"
#include "bindings/lua/lua_event_trace.h"
#include "bindings/lua/lua_interrupt.h"
#include "bindings/lua/lua_p2_statistic.h"
#include "bindings/lua/lua_profile.h"
#include "bindings/lua/lua_selection.h"

extern "C" __attribute__((visibility("default"))) int luaopen_earl(lua_State* L) {
  // The module's functions are compiled for Lua 5.4's ABI; a runtime of another version
  // (lupa's lua53, LuaJIT) would misread every structure, so it is refused here.
  luaL_checkversion(L);
  earl::lua::register_event_trace(L);
  earl::lua::register_p2_statistic(L);
  const luaL_Reg functions[] = {{"EventTrace", earl::lua::open_event_trace},
                                {"P2Statistic", earl::lua::new_p2_statistic},
                                {"_adopt", earl::lua::adopt_event_trace},
                                {"_interruptible", earl::lua::interruptible},
                                {nullptr, nullptr}};
  luaL_newlib(L, functions);
  earl::lua::register_selection(L, lua_gettop(L));
  earl::lua::register_checker(L, lua_gettop(L));
  earl::lua::register_profile(L, lua_gettop(L));
  lua_getfield(L, -1, "EventTrace");
  lua_setglobal(L, "EventTrace");
  lua_getfield(L, -1, "P2Statistic");
  lua_setglobal(L, "P2Statistic");
  return 1;
}
