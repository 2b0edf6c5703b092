// `earl check` in Lua: `local violations, counts = e:check{rules = "rules.toml", max = 10}`.
// The core's query::Checker runs the standard checks and the rules (testing rule parts
// itself where they are in the common subset of Python and Lua); Lua tests the other
// parts of Lua rules in this same state (earl._expression_test). Python rules need Python
// there: refused with the rule's name and the place the common subset ended.
#include "bindings/lua/lua_checker.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bindings/lua/lua_event_trace.h"
#include "bindings/lua/lua_support.h"
#include "model/error.h"
#include "query/checker.h"
#include "query/rules_file.h"
#include "trace/shared_trace.h"

namespace earl::lua {

namespace {

constexpr const char* kMeta = "earl.Checker";
// Events scanned per batch: the count hook of Ctrl-C runs between batches.
constexpr std::size_t kScan = 1 << 16;

// Plain old data, so that a Lua error never skips a destructor; __gc frees all three.
struct CheckerBox {
  query::Checker* checker;
  std::shared_ptr<SharedTrace>* shared;
  std::vector<query::Rule>* rules;
};

CheckerBox& box_at(lua_State* L) {
  auto* box = static_cast<CheckerBox*>(luaL_checkudata(L, 1, kMeta));
  if (!box->checker) fail(L, "checker: already collected");
  return *box;
}

// A string field of the rule table at idx ("" where absent), EarlError where not a string.
std::string field(lua_State* L, int idx, const char* key, std::size_t index) {
  lua_getfield(L, idx, key);
  std::string text;
  if (lua_type(L, -1) == LUA_TSTRING) {
    std::size_t size = 0;
    const char* data = lua_tolstring(L, -1, &size);
    text.assign(data, size);
  } else if (!lua_isnil(L, -1)) {
    lua_pop(L, 1);
    throw EarlError("EventTrace:check: rule " + std::to_string(index) + ": " + key + " must be a string");
  }
  lua_pop(L, 1);
  return text;
}

// rules: nil, a rules file's path, or a sequence of {name=, language=, when=, assert=}.
std::vector<query::Rule> rules_at(lua_State* L, int idx) {
  if (lua_isnoneornil(L, idx)) return {};
  if (lua_type(L, idx) == LUA_TSTRING) return query::load_rules(lua_tostring(L, idx));
  if (!lua_istable(L, idx)) throw EarlError("EventTrace:check: rules must be a file's path or a table of rules");
  std::vector<query::Rule> rules;
  const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, idx));
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, idx, i);
    if (!lua_istable(L, -1)) {
      lua_pop(L, 1);
      throw EarlError("EventTrace:check: rule " + std::to_string(i) + " must be a table");
    }
    const int at = lua_gettop(L);
    const auto index = static_cast<std::size_t>(i);
    query::Rule rule;
    rule.name = field(L, at, "name", index);
    if (rule.name.empty()) rule.name = "rule " + std::to_string(i);
    std::string language = field(L, at, "language", index);
    rule.language = query::language_named(language.empty() ? "python" : language);
    rule.when = field(L, at, "when", index);
    rule.assertion = field(L, at, "assert", index);
    lua_pop(L, 1);
    if (rule.assertion.empty()) throw EarlError("EventTrace:check: rule " + std::to_string(i) + ": no assert");
    rules.push_back(std::move(rule));
  }
  return rules;
}

// earl._checker(trace, rules)
int make(lua_State* L) {
  trace_argument(L, 1, "check");  // Lua errors first, while no C++ object of the call exists
  std::shared_ptr<SharedTrace> shared = trace_argument(L, 1, "check");
  auto rules = std::make_unique<std::vector<query::Rule>>(rules_at(L, 2));
  auto* box = static_cast<CheckerBox*>(lua_newuserdatauv(L, sizeof(CheckerBox), 0));
  box->checker = nullptr;
  box->shared = nullptr;
  box->rules = nullptr;
  luaL_setmetatable(L, kMeta);
  {
    std::lock_guard<std::recursive_mutex> lock(shared->mutex());
    box->checker = new query::Checker(shared->trace(), *rules);
  }
  box->rules = rules.release();
  box->shared = new std::shared_ptr<SharedTrace>(std::move(shared));
  return 1;
}

void push_text(lua_State* L, const std::string& text) { lua_pushlstring(L, text.data(), text.size()); }

// {kind, pos, loc, time, message, rule}; rule: the rule's index in the rules (1-based), nil
// for a standard check.
void push_violations(lua_State* L, const std::vector<query::Violation>& found) {
  lua_createtable(L, static_cast<int>(found.size()), 0);
  for (std::size_t i = 0; i < found.size(); ++i) {
    const query::Violation& v = found[i];
    lua_createtable(L, 0, 6);
    push_text(L, v.kind);
    lua_setfield(L, -2, "kind");
    push_unsigned(L, v.pos);
    lua_setfield(L, -2, "pos");
    lua_pushinteger(L, v.loc);
    lua_setfield(L, -2, "loc");
    lua_pushnumber(L, v.time);
    lua_setfield(L, -2, "time");
    push_text(L, v.message);
    lua_setfield(L, -2, "message");
    if (v.rule >= 0) {
      lua_pushinteger(L, v.rule + 1);
      lua_setfield(L, -2, "rule");
    }
    lua_rawseti(L, -2, static_cast<lua_Integer>(i) + 1);
  }
}

// Returns the violations found and the events Lua must test: {rule (1-based), pos, fails}.
int batch(lua_State* L) {
  CheckerBox& box = box_at(L);
  std::vector<query::Violation> found;
  std::vector<query::Checker::Pending> pending;
  {
    std::lock_guard<std::recursive_mutex> lock((*box.shared)->mutex());
    box.checker->batch((*box.shared)->trace(), kScan, found, pending);
  }
  push_violations(L, found);
  lua_createtable(L, static_cast<int>(pending.size()), 0);
  for (std::size_t i = 0; i < pending.size(); ++i) {
    lua_createtable(L, 3, 0);
    lua_pushinteger(L, static_cast<lua_Integer>(pending[i].rule) + 1);
    lua_rawseti(L, -2, 1);
    push_unsigned(L, pending[i].pos);
    lua_rawseti(L, -2, 2);
    lua_pushboolean(L, pending[i].fails);
    lua_rawseti(L, -2, 3);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i) + 1);
  }
  return 2;
}

int finish(lua_State* L) {
  CheckerBox& box = box_at(L);
  std::vector<query::Violation> found;
  {
    std::lock_guard<std::recursive_mutex> lock((*box.shared)->mutex());
    box.checker->finish((*box.shared)->trace(), found);
  }
  push_violations(L, found);
  return 1;
}

int done(lua_State* L) { lua_pushboolean(L, box_at(L).checker->done()); return 1; }

// Per rule: {name, language, assert, when = part or nil, assertion = part or nil}; a
// part (what Lua tests): {rest, reason, line, column}.
int rules(lua_State* L) {
  CheckerBox& box = box_at(L);
  const auto& fallbacks = box.checker->fallbacks();
  lua_createtable(L, static_cast<int>(box.rules->size()), 0);
  for (std::size_t i = 0; i < box.rules->size(); ++i) {
    const query::Rule& rule = (*box.rules)[i];
    lua_createtable(L, 0, 5);
    push_text(L, rule.name);
    lua_setfield(L, -2, "name");
    lua_pushstring(L, query::language_name(rule.language));
    lua_setfield(L, -2, "language");
    push_text(L, rule.assertion);
    lua_setfield(L, -2, "assert");
    auto part = [&](const query::Checker::Part& p, const char* key) {
      if (p.native) return;
      lua_createtable(L, 0, 4);
      push_text(L, p.rest);
      lua_setfield(L, -2, "rest");
      push_text(L, p.reason);
      lua_setfield(L, -2, "reason");
      lua_pushinteger(L, p.line);
      lua_setfield(L, -2, "line");
      lua_pushinteger(L, p.column);
      lua_setfield(L, -2, "column");
      lua_setfield(L, -2, key);
    };
    part(fallbacks[i].when, "when");
    part(fallbacks[i].assertion, "assertion");
    lua_rawseti(L, -2, static_cast<lua_Integer>(i) + 1);
  }
  return 1;
}

int collect(lua_State* L) {
  auto* box = static_cast<CheckerBox*>(luaL_testudata(L, 1, kMeta));
  if (box) {
    delete box->checker;
    delete box->shared;
    delete box->rules;
    box->checker = nullptr;
    box->shared = nullptr;
    box->rules = nullptr;
  }
  return 0;
}

EARL_LUA_FUNCTION(l_make, make)
EARL_LUA_FUNCTION(l_batch, batch)
EARL_LUA_FUNCTION(l_finish, finish)
EARL_LUA_FUNCTION(l_done, done)
EARL_LUA_FUNCTION(l_rules, rules)

// Arguments: the module table, the EventTrace methods. The order of the result and the
// per-kind limit are those of earl.check and `earl check --max`.
constexpr const char* kLuaSource = R"lua(
local earl, methods = ...

-- The test of one rule part Lua evaluates, or nil where the core tests it.
local function part_test(trace, index, rule, key, part)
  if not part then return nil end
  local name = string.format("rule %d (%s): %s", index, rule.name, key)
  if rule.language ~= "lua" then
    error(string.format("%s: line %d, column %d: %s (a Python rule outside the common subset of " ..
                        "Python and Lua needs Python: earl.check or `earl check`)",
                        name, part.line, part.column, part.reason), 0)
  end
  return earl._expression_test(trace, part.rest, name, part.line, part.column)
end

-- violations, counts = e:check() / e:check{rules = FILE or {rule, ...}, max = N}
function methods.check(trace, options)
  options = options or {}
  if type(options) ~= "table" then error("EventTrace:check: options must be a table {rules=, max=}", 2) end
  local most = options.max
  if most ~= nil and (math.type(most) ~= "integer" or most < 0) then
    error("EventTrace:check: max must be an integer, 0 or more", 2)
  end
  local checker = earl._checker(trace, options.rules)
  local rules = checker:rules()
  local tests = {}
  for index, rule in ipairs(rules) do
    tests[index] = {when = part_test(trace, index, rule, "when", rule.when),
                    assertion = part_test(trace, index, rule, "assert", rule.assertion)}
  end
  local shown, counts, order = {}, {}, 0
  local function add(v)
    counts[v.kind] = (counts[v.kind] or 0) + 1
    if most == nil or counts[v.kind] <= most then
      order = order + 1
      v._order = order
      shown[#shown + 1] = v
    end
  end
  while not checker:done() do
    local found, pending = checker:batch()
    for _, v in ipairs(found) do add(v) end
    for _, p in ipairs(pending) do
      local index, pos, fails = p[1], p[2], p[3]
      local test = tests[index]
      local ev = trace:event(pos)
      if not test.when or test.when(ev) then
        if fails or (test.assertion and not test.assertion(ev)) then
          add({kind = "rule", pos = pos, loc = ev.loc, time = ev.time, rule = index,
               message = string.format("rule %s: %s is false", rules[index].name, rules[index].assert)})
        end
      end
    end
  end
  for _, v in ipairs(checker:finish()) do add(v) end
  -- by position, then kind, else in the order found (a stable sort, as Python's)
  table.sort(shown, function(a, b)
    if a.pos ~= b.pos then return a.pos < b.pos end
    if a.kind ~= b.kind then return a.kind < b.kind end
    return a._order < b._order
  end)
  for _, v in ipairs(shown) do v._order = nil end
  return shown, counts
end
)lua";

}  // namespace

void register_checker(lua_State* L, int module) {
  const luaL_Reg methods[] = {{"batch", l_batch}, {"finish", l_finish}, {"done", l_done}, {"rules", l_rules},
                              {nullptr, nullptr}};
  register_helper_class(L, module, kMeta, methods, collect, "_checker", l_make);
  run_with_trace_methods(L, module, kLuaSource, "=earl.check");
}

}  // namespace earl::lua
