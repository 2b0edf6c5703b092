// The Lua mapping of P2Statistic (EARL 2.0, section 5 of the language reference). The
// state is a sequence of 13 numbers in the layout of cpp/stats/p2_statistic.h, the same
// list Python's state() gives, so states move between the languages unchanged.
#include "bindings/lua/lua_p2_statistic.h"

#include <cstdio>
#include <type_traits>
#include <vector>

#include "bindings/lua/lua_support.h"
#include "stats/p2_statistic.h"

namespace earl::lua {

namespace {

constexpr const char* kMeta = "earl.P2Statistic";

// Kept in the userdata by value: with nothing to destroy, no __gc is needed and a Lua
// error can never skip a destructor.
static_assert(std::is_trivially_destructible<P2Statistic>::value,
              "P2Statistic lives in a Lua userdata without __gc");

const char* const kFieldNames[P2Statistic::kStateSize] = {
    "count", "q0", "q1", "q2", "q3", "q4", "n0", "n1", "n2", "n3", "n4", "sum", "m2"};

P2Statistic& self(lua_State* L, const char* method) {
  auto* p = static_cast<P2Statistic*>(luaL_testudata(L, 1, kMeta));
  if (!p)
    fail(L, "P2Statistic:%s: call it as a method, p:%s(...) (got %s where the statistic belongs)",
         method, method, type_of(L, 1));
  return *p;
}

// Checks that the table at idx is a sequence of numbers; fails naming the first item
// that is not (1-based, as Lua counts), before any C++ object exists.
lua_Integer check_numbers(lua_State* L, int idx, const char* what, bool name_fields) {
  if (lua_type(L, idx) != LUA_TTABLE)
    fail(L, "%s must be a table of numbers (got %s)", what, type_of(L, idx));
  lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, idx));
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, idx, i);
    if (lua_type(L, -1) != LUA_TNUMBER) {
      if (name_fields && i <= static_cast<lua_Integer>(P2Statistic::kStateSize))
        fail(L, "%s item %I (%s) is not a number (got %s)", what, i, kFieldNames[i - 1],
             type_of(L, -1));
      fail(L, "%s item %I is not a number (got %s)", what, i, type_of(L, -1));
    }
    lua_pop(L, 1);
  }
  return n;
}

std::vector<double> numbers(lua_State* L, int idx, lua_Integer n) {
  std::vector<double> values(static_cast<std::size_t>(n));
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, idx, i);
    values[static_cast<std::size_t>(i - 1)] = lua_tonumber(L, -1);
    lua_pop(L, 1);
  }
  return values;
}

int create(lua_State* L) {
  bool from_state = !lua_isnoneornil(L, 1);
  lua_Integer n = from_state ? check_numbers(L, 1, "P2Statistic: state", true) : 0;
  auto* p = static_cast<P2Statistic*>(lua_newuserdatauv(L, sizeof(P2Statistic), 0));
  new (p) P2Statistic();
  luaL_setmetatable(L, kMeta);
  // The vector is gone before the userdata is returned; a bad state throws EarlError
  // naming the field, and the half-made userdata is garbage.
  if (from_state) *p = P2Statistic(numbers(L, 1, n));
  return 1;
}

int add(lua_State* L) {
  P2Statistic& p = self(L, "add");
  p.add(number_argument(L, 2, "P2Statistic:add", "x"));
  return 0;
}

// All or nothing, as Python's add_many.
int add_many(lua_State* L) {
  P2Statistic& p = self(L, "add_many");
  lua_Integer n = check_numbers(L, 2, "P2Statistic:add_many: values", false);
  std::vector<double> values = numbers(L, 2, n);
  p.add_many(values.data(), values.size());
  return 0;
}

int count(lua_State* L) {
  push_unsigned(L, self(L, "count").count());
  return 1;
}

int reset(lua_State* L) {
  self(L, "reset").reset();
  return 0;
}

int state(lua_State* L) {
  const auto values = self(L, "state").state();
  lua_createtable(L, static_cast<int>(values.size()), 0);
  for (std::size_t i = 0; i < values.size(); ++i) {
    lua_pushnumber(L, values[i]);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i) + 1);
  }
  return 1;
}

// The statistics that are one number; errors (too few values) come from the core with
// the same message as in Python.
#define EARL_P2_NUMBER(name)                   \
  int stat_##name(lua_State* L) {              \
    lua_pushnumber(L, self(L, #name).name());  \
    return 1;                                  \
  }
EARL_P2_NUMBER(q25)
EARL_P2_NUMBER(med)
EARL_P2_NUMBER(q75)
EARL_P2_NUMBER(min)
EARL_P2_NUMBER(max)
EARL_P2_NUMBER(mean)
EARL_P2_NUMBER(sum)
EARL_P2_NUMBER(var)

int to_string(lua_State* L) {
  const P2Statistic& p = self(L, "__tostring");
  char text[96];
  if (p.count() == 0)
    std::snprintf(text, sizeof text, "P2Statistic(count=0)");
  else
    std::snprintf(text, sizeof text, "P2Statistic(count=%llu, mean=%.17g)",
                  static_cast<unsigned long long>(p.count()), p.mean());
  lua_pushstring(L, text);
  return 1;
}

EARL_LUA_FUNCTION(l_create, create)
EARL_LUA_FUNCTION(l_add, add)
EARL_LUA_FUNCTION(l_add_many, add_many)
EARL_LUA_FUNCTION(l_count, count)
EARL_LUA_FUNCTION(l_reset, reset)
EARL_LUA_FUNCTION(l_state, state)
EARL_LUA_FUNCTION(l_q25, stat_q25)
EARL_LUA_FUNCTION(l_med, stat_med)
EARL_LUA_FUNCTION(l_q75, stat_q75)
EARL_LUA_FUNCTION(l_min, stat_min)
EARL_LUA_FUNCTION(l_max, stat_max)
EARL_LUA_FUNCTION(l_mean, stat_mean)
EARL_LUA_FUNCTION(l_sum, stat_sum)
EARL_LUA_FUNCTION(l_var, stat_var)
EARL_LUA_FUNCTION(l_to_string, to_string)

const luaL_Reg kMethods[] = {
    {"add", l_add},   {"add_many", l_add_many}, {"count", l_count}, {"reset", l_reset},
    {"state", l_state}, {"q25", l_q25},         {"med", l_med},     {"q75", l_q75},
    {"min", l_min},   {"max", l_max},           {"mean", l_mean},   {"sum", l_sum},
    {"var", l_var},   {nullptr, nullptr}};

}  // namespace

void register_p2_statistic(lua_State* L) {
  luaL_newmetatable(L, kMeta);
  luaL_newlib(L, kMethods);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, l_to_string);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
}

int new_p2_statistic(lua_State* L) { return l_create(L); }

}  // namespace earl::lua
