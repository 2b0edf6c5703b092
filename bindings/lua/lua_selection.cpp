// Selection in Lua: `for ev in e:select('ev.type == "send"') do ... end`. The core's
// query::Selection scans (testing the expression itself where it is in the common subset
// of Python and Lua); the rest is Lua: the iterator, and for other expressions a chunk
// `return <expression>` run once per event of the window with `ev` set.
#include "bindings/lua/lua_selection.h"

#include <memory>
#include <mutex>
#include <string>

#include "bindings/lua/lua_event_trace.h"
#include "bindings/lua/lua_support.h"
#include "model/error.h"
#include "query/selection.h"
#include "trace/shared_trace.h"

namespace earl::lua {

namespace {

constexpr const char* kMeta = "earl.Selection";
// Events scanned per batch: the count hook of Ctrl-C runs between batches.
constexpr std::size_t kScan = 1 << 16;

// Plain old data, so that a Lua error never skips a destructor; __gc frees both.
struct SelectionBox {
  query::Selection* selection;
  std::shared_ptr<SharedTrace>* shared;
};

SelectionBox& box_at(lua_State* L) {
  auto* box = static_cast<SelectionBox*>(luaL_checkudata(L, 1, kMeta));
  if (!box->selection) fail(L, "selection: already collected");
  return *box;
}

// nil, a position (integer), a time in seconds (float) or text as `earl list --from`.
query::Bound bound_at(lua_State* L, int idx, const char* name) {
  query::Bound bound;
  if (lua_isnoneornil(L, idx)) return bound;
  if (lua_type(L, idx) == LUA_TSTRING) return query::parse_bound(lua_tostring(L, idx), name);
  if (lua_isinteger(L, idx)) {
    lua_Integer pos = lua_tointeger(L, idx);
    if (pos < 0) throw EarlError(std::string("EventTrace:select: ") + name + " " + std::to_string(pos) + " is not a position");
    bound.kind = query::Bound::Kind::Position;
    bound.position = static_cast<std::uint64_t>(pos);
    return bound;
  }
  if (lua_type(L, idx) == LUA_TNUMBER) {
    bound.kind = query::Bound::Kind::Time;
    bound.seconds = lua_tonumber(L, idx);
    return bound;
  }
  throw EarlError(std::string("EventTrace:select: ") + name + " must be a position, a time or nil");
}

// earl._selection(trace, expression, first, last)
int make(lua_State* L) {
  // Lua errors first, while no C++ object of the call exists
  trace_argument(L, 1, "select");
  const char* text = lua_isnoneornil(L, 2) ? "" : string_argument(L, 2, "EventTrace:select", "expression");
  std::string expression(text);
  std::shared_ptr<SharedTrace> shared = trace_argument(L, 1, "select");
  query::Bound first = bound_at(L, 3, "first"), last = bound_at(L, 4, "last");
  auto* box = static_cast<SelectionBox*>(lua_newuserdatauv(L, sizeof(SelectionBox), 0));
  box->selection = nullptr;
  box->shared = nullptr;
  luaL_setmetatable(L, kMeta);
  {
    std::lock_guard<std::recursive_mutex> lock(shared->mutex());
    box->selection = new query::Selection(shared->trace(), expression, query::Language::Lua, first, last);
  }
  box->shared = new std::shared_ptr<SharedTrace>(std::move(shared));
  return 1;
}

int batch(lua_State* L) {
  SelectionBox& box = box_at(L);
  std::vector<Position> found;
  {
    std::lock_guard<std::recursive_mutex> lock((*box.shared)->mutex());
    found = box.selection->batch((*box.shared)->trace(), kScan);
  }
  lua_createtable(L, static_cast<int>(found.size()), 0);
  for (std::size_t i = 0; i < found.size(); ++i) {
    push_unsigned(L, found[i]);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i) + 1);
  }
  return 1;
}

int done(lua_State* L) { lua_pushboolean(L, box_at(L).selection->done()); return 1; }
int native(lua_State* L) { lua_pushboolean(L, box_at(L).selection->native()); return 1; }
int line(lua_State* L) { lua_pushinteger(L, box_at(L).selection->line()); return 1; }
int column(lua_State* L) { lua_pushinteger(L, box_at(L).selection->column()); return 1; }
int partial(lua_State* L) { lua_pushboolean(L, box_at(L).selection->partial()); return 1; }
int rest(lua_State* L) {
  const std::string& text = box_at(L).selection->rest();
  lua_pushlstring(L, text.data(), text.size());
  return 1;
}
int reason(lua_State* L) {
  const std::string& text = box_at(L).selection->reason();
  lua_pushlstring(L, text.data(), text.size());
  return 1;
}

int collect(lua_State* L) {
  auto* box = static_cast<SelectionBox*>(luaL_testudata(L, 1, kMeta));
  if (box) {
    delete box->selection;
    delete box->shared;
    box->selection = nullptr;
    box->shared = nullptr;
  }
  return 0;
}

EARL_LUA_FUNCTION(l_make, make)
EARL_LUA_FUNCTION(l_batch, batch)
EARL_LUA_FUNCTION(l_done, done)
EARL_LUA_FUNCTION(l_native, native)
EARL_LUA_FUNCTION(l_line, line)
EARL_LUA_FUNCTION(l_column, column)
EARL_LUA_FUNCTION(l_reason, reason)
EARL_LUA_FUNCTION(l_partial, partial)
EARL_LUA_FUNCTION(l_rest, rest)

// Arguments: the module table, the EventTrace methods. ev.duration is an exit's time
// minus its enter's (as the core's Predicate and earl.query's Python Event give it).
constexpr const char* kLuaSource = R"lua(
local earl, methods = ...

-- A test(ev) for an expression the core cannot test; a syntax error names the line and
-- the column where the common subset stopped reading (Lua's own message has no column).
local function expression_test(trace, expression, name, line, column)
  local env = setmetatable({}, {__index = _G})
  local chunk, message = load("return " .. expression, "=" .. name, "t", env)
  if not chunk then
    message = tostring(message):gsub("^[^:]*:%d+: ", "")
    error(string.format("%s: line %d, column %d: %s", name, line, column, message), 0)
  end
  return function(ev)
    if ev.type == "exit" and ev.enterptr ~= 0 then
      ev.duration = ev.time - trace:event(ev.enterptr).time
    end
    env.ev = ev
    return chunk() and true or false
  end
end
earl._expression_test = expression_test

-- for ev in e:select(expression [, first [, last]]) do ... end
function methods.select(trace, expression, first, last)
  local selection = earl._selection(trace, expression, first, last)
  local test
  if not selection:native() then
    -- selection:rest(): the expression, less the operands of `and` the core tests
    test = expression_test(trace, selection:rest(), "expression", selection:line(), selection:column())
  end
  local found, i = {}, 1
  return function()
    while true do
      if i <= #found then
        local ev = trace:event(found[i])
        i = i + 1
        if not test or test(ev) then return ev end
      elseif selection:done() then
        return nil
      else
        found, i = selection:batch(), 1
      end
    end
  end
end
)lua";

}  // namespace

void register_selection(lua_State* L, int module) {
  const luaL_Reg methods[] = {{"batch", l_batch}, {"done", l_done}, {"native", l_native}, {"line", l_line},
                              {"column", l_column}, {"reason", l_reason}, {"partial", l_partial}, {"rest", l_rest},
                              {nullptr, nullptr}};
  register_helper_class(L, module, kMeta, methods, collect, "_selection", l_make);
  run_with_trace_methods(L, module, kLuaSource, "=earl.select");
}

}  // namespace earl::lua
