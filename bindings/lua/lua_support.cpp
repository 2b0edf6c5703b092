#include "bindings/lua/lua_support.h"

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "bindings/lua/lua_interrupt.h"
#include "model/error.h"
#include "model/path_check.h"

namespace earl::lua {

int protect(lua_State* L, int (*body)(lua_State*)) {
  bool failed = false, interrupted = false;
  try {
    return body(L);
  } catch (const Interrupted&) {
    interrupted = true;  // raised below: a longjmp must not leave a catch block
  } catch (const std::exception& error) {
    // lua_pushstring copies the message, so the exception may die before lua_error runs.
    lua_pushstring(L, error.what());
    failed = true;
  } catch (...) {
    lua_pushstring(L, "earl: unexpected C++ exception");
    failed = true;
  }
  // The host's poll raised (poll_host): its error goes on unwinding the script.
  if (interrupted && push_interrupt(L)) return lua_error(L);
  if (interrupted) {
    lua_pushstring(L, Interrupted().what());
    failed = true;
  }
  if (failed) {
    luaL_where(L, 1);
    lua_insert(L, -2);
    lua_concat(L, 2);
  }
  return lua_error(L);
}

void fail(lua_State* L, const char* format, ...) {
  va_list args;
  va_start(args, format);
  luaL_where(L, 1);
  lua_pushvfstring(L, format, args);
  va_end(args);
  lua_concat(L, 2);
  lua_error(L);
  std::abort();  // not reached: lua_error does not return
}

const char* type_of(lua_State* L, int idx) {
  if (lua_type(L, idx) == LUA_TNONE) return "no value";
  if (lua_isinteger(L, idx)) return "integer";
  if (lua_type(L, idx) == LUA_TNUMBER) return "float";
  return luaL_typename(L, idx);
}

lua_Integer integer_argument(lua_State* L, int idx, const char* where, const char* name) {
  int is_integer = 0;
  lua_Integer value = 0;
  if (lua_type(L, idx) == LUA_TNUMBER) value = lua_tointegerx(L, idx, &is_integer);
  if (!is_integer) {
    if (lua_type(L, idx) == LUA_TNUMBER) {
      // A whole float beyond 64 bits (2^63, 2^64-1 written in decimal): never wrapped.
      const lua_Number number = lua_tonumber(L, idx);
      if (std::isfinite(number) && std::floor(number) == number) {
        char text[32];  // lua_pushfstring has no %.17g; every digit of the float
        std::snprintf(text, sizeof text, "%.17g", number);
        fail(L, "%s: %s must be an integer from -2^63 to 2^63-1 (got %s)", where, name, text);
      }
      fail(L, "%s: %s must be an integer (got %s)", where, name, lua_tostring(L, idx));
    }
    fail(L, "%s: %s must be an integer (got %s)", where, name, type_of(L, idx));
  }
  return value;
}

lua_Integer optional_integer(lua_State* L, int idx, const char* where, const char* name,
                             lua_Integer fallback) {
  if (lua_isnoneornil(L, idx)) return fallback;
  return integer_argument(L, idx, where, name);
}

const char* string_argument(lua_State* L, int idx, const char* where, const char* name) {
  if (lua_type(L, idx) != LUA_TSTRING)
    fail(L, "%s: %s must be a string (got %s)", where, name, type_of(L, idx));
  return lua_tostring(L, idx);
}

std::string path_argument(lua_State* L, int idx, const char* where, const char* name) {
  string_argument(L, idx, where, name);
  std::size_t length = 0;
  const char* bytes = lua_tolstring(L, idx, &length);
  std::string path(bytes, length);
  check_path(path, std::string(where) + ": " + name);
  return path;
}

lua_Number number_argument(lua_State* L, int idx, const char* where, const char* name) {
  if (lua_type(L, idx) != LUA_TNUMBER)
    fail(L, "%s: %s must be a number (got %s)", where, name, type_of(L, idx));
  return lua_tonumber(L, idx);
}

void push_unsigned(lua_State* L, std::uint64_t value) {
  if (value <= static_cast<std::uint64_t>(LUA_MAXINTEGER))
    lua_pushinteger(L, static_cast<lua_Integer>(value));
  else
    lua_pushnumber(L, static_cast<lua_Number>(value));
}

void register_helper_class(lua_State* L, int module, const char* meta, const luaL_Reg* methods,
                           lua_CFunction gc, const char* make_name, lua_CFunction make) {
  luaL_newmetatable(L, meta);
  lua_newtable(L);
  luaL_setfuncs(L, methods, 0);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, gc);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);
  lua_pushcfunction(L, make);
  lua_setfield(L, module, make_name);
}

void run_with_trace_methods(lua_State* L, int module, const char* source, const char* name) {
  if (luaL_loadbuffer(L, source, std::strlen(source), name) != LUA_OK) lua_error(L);
  lua_pushvalue(L, module);
  luaL_getmetatable(L, "earl.EventTrace");
  lua_getfield(L, -1, "__index");
  lua_remove(L, -2);
  lua_call(L, 2, 0);
}

}  // namespace earl::lua
