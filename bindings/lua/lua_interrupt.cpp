#include "bindings/lua/lua_interrupt.h"

namespace earl::lua {

namespace {

// Instructions between polls: about a millisecond of a tight loop, and a call of the
// host's function costs about a microsecond.
constexpr int kPollCount = 100000;

// Registry keys (their addresses): the poll function and the error unwinding the script.
char poll_key;
char interrupt_key;

bool at_entry_from_host(lua_State* L) {
  // The main thread, and no Lua function below the one being called: the host called it.
  if (!lua_pushthread(L)) {
    lua_pop(L, 1);
    return false;
  }
  lua_pop(L, 1);
  lua_Debug caller;
  return lua_getstack(L, 1, &caller) == 0;
}

void hook(lua_State* L, lua_Debug* event);

void poll_now_and_then(lua_State* L) { lua_sethook(L, hook, LUA_MASKCOUNT, kPollCount); }

// While an interrupt unwinds: every call and every instruction, in this thread and in the
// main one (an error leaving a coroutine goes on in the thread that resumed it).
void raise_everywhere(lua_State* L) {
  lua_sethook(L, hook, LUA_MASKCALL | LUA_MASKCOUNT, 1);
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
  lua_State* main = lua_tothread(L, -1);
  lua_pop(L, 1);
  if (main && main != L) lua_sethook(main, hook, LUA_MASKCALL | LUA_MASKCOUNT, 1);
}

// A C hook, not a Lua one (debug.sethook): lua_newthread copies it to every coroutine,
// while a Lua hook function is kept per thread and a new coroutine would run without it.
void hook(lua_State* L, lua_Debug* event) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &interrupt_key) != LUA_TNIL) {
    // Unwinding: a pcall in the script cannot hold the error, it is raised again at every
    // call and every instruction until the next call from the host, which starts afresh.
    if (event->event == LUA_HOOKCALL && at_entry_from_host(L)) {
      lua_pop(L, 1);
      lua_pushnil(L);
      lua_rawsetp(L, LUA_REGISTRYINDEX, &interrupt_key);
      poll_now_and_then(L);
      return;
    }
    raise_everywhere(L);
    lua_error(L);
  }
  lua_pop(L, 1);
  if (lua_gethookmask(L) != LUA_MASKCOUNT || lua_gethookcount(L) != kPollCount) {
    // A coroutine left raising by an interrupt that has since ended.
    poll_now_and_then(L);
    return;
  }
  lua_rawgetp(L, LUA_REGISTRYINDEX, &poll_key);
  if (lua_pcall(L, 0, 0, 0) == LUA_OK) return;
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &interrupt_key);
  raise_everywhere(L);
  lua_error(L);
}

}  // namespace

int interruptible(lua_State* L) {
  luaL_checkany(L, 1);  // a callable: a Lua function or a host object (lupa: userdata)
  lua_pushvalue(L, 1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &poll_key);
  poll_now_and_then(L);
  return 0;
}

bool poll_host(lua_State* L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &poll_key) == LUA_TNIL) {  // standalone Lua: no host to ask
    lua_pop(L, 1);
    return true;
  }
  if (lua_pcall(L, 0, 0, 0) == LUA_OK) return true;
  lua_rawsetp(L, LUA_REGISTRYINDEX, &interrupt_key);
  raise_everywhere(L);
  return false;
}

bool push_interrupt(lua_State* L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &interrupt_key) != LUA_TNIL) return true;
  lua_pop(L, 1);
  return false;
}

}  // namespace earl::lua
