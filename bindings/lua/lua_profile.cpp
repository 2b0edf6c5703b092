// The profile in Lua: `e:profile{bins=N}` is a table of the tables earl.stats() shows
// (types, flat_profile, messages, traffic), each a sequence of rows keyed by column name;
// `for inst in e:region_instances() do ... end` visits one row per region instance. The
// rows are the core's (profile/profile_rows.h); this file only makes Lua values of them.
// A value the columns hold as NaN (an open instance's exit time) is nil here.
#include "bindings/lua/lua_profile.h"

#include <memory>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

#include "bindings/lua/lua_event_trace.h"
#include "bindings/lua/lua_interrupt.h"
#include "bindings/lua/lua_support.h"
#include "profile/profile_rows.h"
#include "profile/region_instances.h"
#include "profile/trace_profile.h"
#include "trace/event_trace.h"
#include "trace/shared_trace.h"

namespace earl::lua {

namespace {

constexpr const char* kMeta = "earl.RegionInstances";

// The instances of one call and the region names of their trace; plain old data in the
// userdata (a Lua error never skips a destructor), freed by __gc.
struct Instances {
  profile::RegionInstances found;
  std::vector<std::string> regions;
};
struct InstancesBox {
  Instances* instances;
};

// Pushes one value; false, pushing nothing, where there is none.
struct PushValue {
  lua_State* L;
  bool operator()(std::monostate) const { return false; }
  bool operator()(std::int64_t v) const { lua_pushinteger(L, v); return true; }
  bool operator()(std::uint64_t v) const { push_unsigned(L, v); return true; }
  bool operator()(double v) const { lua_pushnumber(L, v); return true; }
  bool operator()(const std::string& v) const { lua_pushlstring(L, v.data(), v.size()); return true; }
  // A sequence in metrics() order; a counter without a sample leaves a hole, so the table
  // carries n as table.pack does.
  bool operator()(const std::vector<double>& values) const {
    lua_createtable(L, static_cast<int>(values.size()), 1);
    for (std::size_t i = 0; i < values.size(); ++i)
      if (values[i] == values[i]) {
        lua_pushnumber(L, values[i]);
        lua_rawseti(L, -2, static_cast<lua_Integer>(i) + 1);
      }
    lua_pushinteger(L, static_cast<lua_Integer>(values.size()));
    lua_setfield(L, -2, "n");
    return true;
  }
};

void push_row(lua_State* L, const profile::Row& row) {
  lua_createtable(L, 0, static_cast<int>(row.size()));
  for (const profile::Field& field : row)
    if (std::visit(PushValue{L}, field.value)) lua_setfield(L, -2, field.name);
}

// The bins of e:profile(), e:profile{bins = N} or e:profile(N).
lua_Integer bins_argument(lua_State* L) {
  constexpr const char* kWhere = "EventTrace:profile";
  if (lua_type(L, 2) != LUA_TTABLE) return optional_integer(L, 2, kWhere, "bins", profile::kDefaultTimeBins);
  lua_getfield(L, 2, "bins");
  const lua_Integer bins = optional_integer(L, -1, kWhere, "bins", profile::kDefaultTimeBins);
  lua_pop(L, 1);
  return bins;
}

// EventTrace:profile(...): a C method, so that errors name the script's line.
int profile_table(lua_State* L) {
  trace_argument(L, 1, "profile");  // Lua errors first, while no C++ object of the call exists
  const lua_Integer bins = bins_argument(L);
  std::shared_ptr<SharedTrace> shared = trace_argument(L, 1, "profile");
  const std::size_t count = profile::checked_bins(bins);
  std::vector<profile::Table> tables;
  double begin = 0.0, end = 0.0;
  {
    std::lock_guard<std::recursive_mutex> lock(shared->mutex());
    EventTrace& trace = shared->trace();
    const profile::TraceProfile found = profile::trace_profile(trace, count, [L](double) { return poll_host(L); });
    tables = profile::profile_tables(found, trace.types(), trace.regions());
    begin = found.begin;
    end = found.end;
  }
  lua_createtable(L, 0, static_cast<int>(tables.size()) + 2);
  lua_pushnumber(L, begin);
  lua_setfield(L, -2, "begin");
  lua_pushnumber(L, end);
  lua_setfield(L, -2, "end");
  for (const profile::Table& table : tables) {
    lua_createtable(L, static_cast<int>(table.rows.size()), 0);
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
      push_row(L, table.rows[i]);
      lua_rawseti(L, -2, static_cast<lua_Integer>(i) + 1);
    }
    lua_setfield(L, -2, table.name);
  }
  return 1;
}

// The iterator EventTrace:region_instances() returns: its upvalues are the userdata
// holding the instances and the number of the last row it gave.
int next_row(lua_State* L) {
  auto* box = static_cast<InstancesBox*>(lua_touserdata(L, lua_upvalueindex(1)));
  const lua_Integer i = lua_tointeger(L, lua_upvalueindex(2)) + 1;
  if (!box || !box->instances) return luaL_error(L, "region_instances: already collected");
  const Instances& all = *box->instances;
  if (static_cast<std::size_t>(i) > all.found.loc.size()) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushinteger(L, i);
  lua_replace(L, lua_upvalueindex(2));
  push_row(L, profile::instance_row(all.found, static_cast<std::size_t>(i) - 1, all.regions));
  return 1;
}

EARL_LUA_FUNCTION(l_next_row, next_row)

// EventTrace:region_instances(): the instances made in one pass, then the iterator over them.
int instances(lua_State* L) {
  trace_argument(L, 1, "region_instances");
  std::shared_ptr<SharedTrace> shared = trace_argument(L, 1, "region_instances");
  auto* box = static_cast<InstancesBox*>(lua_newuserdatauv(L, sizeof(InstancesBox), 0));
  box->instances = nullptr;
  luaL_setmetatable(L, kMeta);
  auto made = std::make_unique<Instances>();
  {
    std::lock_guard<std::recursive_mutex> lock(shared->mutex());
    EventTrace& trace = shared->trace();
    made->found = profile::region_instances(trace, [L](double) { return poll_host(L); });
    made->regions = trace.regions();
  }
  box->instances = made.release();
  lua_pushinteger(L, 0);
  lua_pushcclosure(L, l_next_row, 2);
  return 1;
}

int collect(lua_State* L) {
  auto* box = static_cast<InstancesBox*>(luaL_testudata(L, 1, kMeta));
  if (box) {
    delete box->instances;
    box->instances = nullptr;
  }
  return 0;
}

EARL_LUA_FUNCTION(l_profile, profile_table)
EARL_LUA_FUNCTION(l_instances, instances)
}  // namespace

void register_profile(lua_State* L, int module) {
  luaL_newmetatable(L, kMeta);
  lua_pushcfunction(L, collect);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);
  lua_pushinteger(L, profile::kDefaultTimeBins);
  lua_setfield(L, module, "DEFAULT_TIME_BINS");
  luaL_getmetatable(L, "earl.EventTrace");
  lua_getfield(L, -1, "__index");
  lua_pushcfunction(L, l_profile);
  lua_setfield(L, -2, "profile");
  lua_pushcfunction(L, l_instances);
  lua_setfield(L, -2, "region_instances");
  lua_pop(L, 2);
}

}  // namespace earl::lua
