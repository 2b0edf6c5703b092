// The Lua mapping of EventTrace (DESIGN.md section 3): events are tables keyed by
// attribute name, position lists are 1-based sequences, and nil is the false value of
// next/prev/jump, so `while e:next() do ... end` works (0 would be true in Lua).
//
// A trace object is a userdata holding one reference to a SharedTrace, the same C++
// object the Python module holds when earl.lua.share() handed it over: moving the
// iterator in either language moves it in both.
//
// Every method is one row of kMethods: its name and a body that reads its Lua arguments
// and says what to ask of the locked trace. run_row() does the rest for all of them:
// checks the trace argument, turns C++ exceptions into Lua errors (protect), and
// locked()/answer() take the lock, call, and push the answer once the lock is released.
#include "bindings/lua/lua_event_trace.h"

#include <array>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "bindings/lua/lua_support.h"
#include "model/error.h"
#include "trace/event_attributes.h"
#include "trace/event_trace.h"
#include "trace/open_options.h"
#include "trace/metric_fields.h"
#include "trace/shared_trace.h"

namespace earl::lua {

namespace {

constexpr const char* kMeta = "earl.EventTrace";

// The userdata's payload stays plain old data so that a Lua error can never skip a C++
// destructor in it; the reference is released by __gc.
struct TraceBox {
  std::shared_ptr<SharedTrace>* shared;
};

// User values of the userdata: Lua strings of the trace's names, indexed by id + 1, so an
// event table gets interned strings without a lookup by name.
enum NameTable { kTypes = 1, kRegions = 2, kStrings = 3, kNameTables = 3 };

using Lock = std::lock_guard<std::recursive_mutex>;

// Methods and metamethods carry two upvalues, set once in register_event_trace: the
// metatable (checking the object by identity is cheaper than luaL_testudata's lookup by
// name) and the attribute names as Lua strings, indexed by Attribute + 1 (an event table
// then needs no string lookup for its keys). Both matter at millions of calls a second.
constexpr int kMetatableUpvalue = 1;
constexpr int kKeysUpvalue = 2;

TraceBox& box_of(lua_State* L, const char* method) {
  TraceBox* box = nullptr;
  if (lua_getmetatable(L, 1)) {
    if (lua_rawequal(L, -1, lua_upvalueindex(kMetatableUpvalue)))
      box = static_cast<TraceBox*>(lua_touserdata(L, 1));
    lua_pop(L, 1);
  }
  if (!box)
    fail(L, "EventTrace:%s: call it as a method, e:%s(...) (got %s where the trace belongs)",
         method, method, type_of(L, 1));
  if (!box->shared) fail(L, "EventTrace:%s: the trace was collected", method);
  return *box;
}

// One call of a method: the Lua state, the trace, and "EventTrace:<method>" for messages.
// Nothing in it has a destructor, so the argument readers below may raise Lua errors.
struct Call {
  lua_State* L;
  SharedTrace& shared;
  const char* where;
};

// An optional position argument: the iterator when omitted or nil.
std::int64_t position_argument(const Call& c, int idx) {
  if (lua_isnoneornil(c.L, idx)) return EventTrace::kAtIterator;
  return EventTrace::checked_position(integer_argument(c.L, idx, c.where, "pos"));
}

Location location_argument(const Call& c, int idx, const char* name) {
  lua_Integer loc = integer_argument(c.L, idx, c.where, name);
  if (loc < std::numeric_limits<Location>::min() || loc > std::numeric_limits<Location>::max())
    fail(c.L, "%s: %s %I is not a location", c.where, name, loc);
  return static_cast<Location>(loc);
}

// Runs work(trace) with the trace's lock held and returns its result by value: Lua values
// are made from it after the lock is released (the record the core returns may be replaced
// by the next decode, and a Lua error raised while pushing would skip the lock's destructor).
template <class Work>
auto locked(const Call& c, Work&& work) {
  Lock lock(c.shared.mutex());
  return work(c.shared.trace());
}

// The event a call means (pos, or the iterator), copied under the lock.
Event event_of(const Call& c, std::int64_t pos) {
  return locked(c, [pos](EventTrace& t) -> Event {
    return t.event(t.event_position(pos, EventTrace::CallSyntax::Parentheses));
  });
}

std::vector<std::string> names_of(SharedTrace& shared, NameTable which) {
  Lock lock(shared.mutex());
  const Definitions& defs = shared.trace().definitions();
  switch (which) {
    case kTypes: return defs.types.names();
    case kRegions: return defs.regions.names();
    default: return defs.strings.names();
  }
}

// Adds the names the table lacks (all of them when the trace is opened; later ones if a
// decoder publishes a name after the opening scan). The table is at the top of the stack.
void fill_names(lua_State* L, SharedTrace& shared, NameTable which) {
  std::vector<std::string> names = names_of(shared, which);
  for (std::size_t id = lua_rawlen(L, -1); id < names.size(); ++id) {
    lua_pushlstring(L, names[id].data(), names[id].size());
    lua_rawseti(L, -2, static_cast<lua_Integer>(id) + 1);
  }
}

// Pushes the name of a symbol id; the trace userdata is at stack index 1.
void push_name(lua_State* L, NameTable which, SymbolId id) {
  lua_getiuservalue(L, 1, which);
  if (lua_rawgeti(L, -1, static_cast<lua_Integer>(id) + 1) == LUA_TNIL) {
    lua_pop(L, 1);
    fill_names(L, **static_cast<TraceBox*>(lua_touserdata(L, 1))->shared, which);
    if (lua_rawgeti(L, -1, static_cast<lua_Integer>(id) + 1) == LUA_TNIL)
      throw EarlError("internal error: the trace has no name for symbol " + std::to_string(id));
  }
  lua_remove(L, -2);
}

// Pushes one attribute value (visit_slot's types); false, pushing nothing, for an absent
// one, which Lua spells nil.
struct PushSlot {
  lua_State* L;
  bool operator()(std::uint64_t v) const { push_unsigned(L, v); return true; }
  bool operator()(std::int64_t v) const { lua_pushinteger(L, v); return true; }
  bool operator()(double v) const { lua_pushnumber(L, v); return true; }
  bool operator()(TypeName name) const { push_name(L, kTypes, name.id); return true; }
  bool operator()(RegionName name) const { push_name(L, kRegions, name.id); return true; }
  bool operator()(StringName name) const { push_name(L, kStrings, name.id); return true; }
  bool operator()(NoValue) const { return false; }
};

// ---------------------------------------------------------------- answers as Lua values

// A move's answer: the new position, or nil where Python returns 0.
struct Move {
  Position pos;
};

// A location's name, or its number where the trace names none.
struct LocationName {
  Location loc;
  std::optional<std::string> name;
};

void push(lua_State* L, Position pos) { push_unsigned(L, pos); }
void push(lua_State* L, Location count) { lua_pushinteger(L, count); }
void push(lua_State* L, const std::string& text) { lua_pushlstring(L, text.data(), text.size()); }

void push(lua_State* L, Move move) {
  if (move.pos == 0)
    lua_pushnil(L);
  else
    push_unsigned(L, move.pos);
}

void push(lua_State* L, const LocationName& found) {
  if (found.name)
    push(L, *found.name);
  else
    lua_pushinteger(L, found.loc);
}

// A counter definition: a table of trace/metric_fields.h's fields.
void push(lua_State* L, const MetricDefinition& metric) {
  const std::vector<MetricField> fields = metric_fields(metric);
  lua_createtable(L, 0, static_cast<int>(fields.size()));
  for (const MetricField& field : fields) {
    if (const auto* text = std::get_if<std::string>(&field.value)) push(L, *text);
    else if (const auto* number = std::get_if<std::int64_t>(&field.value)) lua_pushinteger(L, *number);
    else lua_pushboolean(L, std::get<bool>(field.value));
    lua_setfield(L, -2, field.name);
  }
}

// A 1-based sequence.
template <class Item>
void push(lua_State* L, const std::vector<Item>& items) {
  lua_createtable(L, static_cast<int>(items.size()), 0);
  for (std::size_t i = 0; i < items.size(); ++i) {
    push(L, items[i]);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i) + 1);
  }
}

void push(lua_State* L, const Problems& found) {
  lua_createtable(L, 0, static_cast<int>(std::size(kProblemNames)));
  auto add = [L](const char* name, const ProblemKind& kind) {
    lua_createtable(L, 0, 2);
    push_unsigned(L, kind.count);
    lua_setfield(L, -2, "count");
    push(L, kind.first);
    lua_setfield(L, -2, "first");
    lua_setfield(L, -2, name);
  };
  for (const ProblemName& kind : kProblemNames) add(kind.name, found.*kind.kind);
  if (found.damaged.empty()) return;
  add(kDamagedName, ProblemKind{found.damaged.size(), {}});
  lua_getfield(L, -1, kDamagedName);
  lua_createtable(L, static_cast<int>(found.damaged.size()), 0);
  lua_Integer index = 0;
  for (const StreamDamage& damage : found.damaged) {
    lua_createtable(L, 0, 4);
    lua_pushinteger(L, damage.loc);
    lua_setfield(L, -2, "loc");
    push_unsigned(L, damage.record);
    lua_setfield(L, -2, "record");
    push_unsigned(L, damage.announced);
    lua_setfield(L, -2, "announced");
    push(L, damage.message);
    lua_setfield(L, -2, "message");
    lua_rawseti(L, -2, ++index);
  }
  lua_setfield(L, -2, "locations");
  lua_pop(L, 1);
}

// locked(), then the result as a Lua value (nothing for a call that returns nothing);
// returns how many values it pushed.
template <class Work>
int answer(const Call& c, Work&& work) {
  if constexpr (std::is_void_v<decltype(work(std::declval<EventTrace&>()))>) {
    locked(c, work);
    return 0;
  } else {
    push(c.L, locked(c, work));
    return 1;
  }
}

// ---------------------------------------------------------------- the methods

struct Method {
  const char* name;  // as messages name it: "EventTrace:<name>"
  int (*body)(const Call& c);
};

using T = EventTrace;

constexpr Method kMethods[] = {
    {"event",
     [](const Call& c) {
       const Event e = event_of(c, position_argument(c, 2));
       const std::vector<AttributeSpec>& specs = attribute_specs(e.kind);
       lua_createtable(c.L, 0, static_cast<int>(specs.size()));
       for (const AttributeSpec& spec : specs) {
         lua_rawgeti(c.L, lua_upvalueindex(kKeysUpvalue), static_cast<lua_Integer>(spec.name) + 1);
         if (visit_slot(e, spec.slot, PushSlot{c.L}))
           lua_rawset(c.L, -3);
         else
           lua_pop(c.L, 1);
       }
       return 1;
     }},
    {"attributes",
     [](const Call& c) {
       const std::vector<AttributeSpec>& specs = attribute_specs(event_of(c, position_argument(c, 2)).kind);
       lua_createtable(c.L, static_cast<int>(specs.size()), 0);
       for (std::size_t i = 0; i < specs.size(); ++i) {
         lua_pushstring(c.L, attribute_name(specs[i].name));
         lua_rawseti(c.L, -2, static_cast<lua_Integer>(i) + 1);
       }
       return 1;
     }},
    // Values in attribute order. data1/data2 may be nil, which leaves holes, so the table
    // carries n as table.pack does: `for i = 1, vals.n do ... end`.
    {"values",
     [](const Call& c) {
       const Event e = event_of(c, position_argument(c, 2));
       const std::vector<AttributeSpec>& specs = attribute_specs(e.kind);
       lua_createtable(c.L, static_cast<int>(specs.size()), 1);
       for (std::size_t i = 0; i < specs.size(); ++i)
         if (visit_slot(e, specs[i].slot, PushSlot{c.L})) lua_rawseti(c.L, -2, static_cast<lua_Integer>(i) + 1);
       lua_pushinteger(c.L, static_cast<lua_Integer>(specs.size()));
       lua_setfield(c.L, -2, "n");
       return 1;
     }},
    {"stack",
     [](const Call& c) {
       const Location loc = location_argument(c, 2, "loc");
       const std::int64_t pos = position_argument(c, 3);
       return answer(c, [=](T& t) { return t.stack(loc, pos); });
     }},
    {"queue",
     [](const Call& c) {
       const Location src = location_argument(c, 2, "src");
       const Location dest = location_argument(c, 3, "dest");
       const std::int64_t pos = position_argument(c, 4);
       return answer(c, [=](T& t) { return t.queue(src, dest, pos); });
     }},
    {"next", [](const Call& c) { return answer(c, [](T& t) { return Move{t.next()}; }); }},
    {"prev", [](const Call& c) { return answer(c, [](T& t) { return Move{t.prev()}; }); }},
    {"jump",
     [](const Call& c) {
       const lua_Integer target = integer_argument(c.L, 2, c.where, "pos");
       return answer(c, [=](T& t) { return Move{t.jump(target)}; });
     }},
    {"reset", [](const Call& c) { return answer(c, [](T& t) { t.reset(); }); }},
    {"iterator", [](const Call& c) { return answer(c, [](T& t) { return t.iterator(); }); }},
    {"file", [](const Call& c) { return answer(c, [](T& t) { return t.file(); }); }},
    {"format", [](const Call& c) { return answer(c, [](T& t) { return t.format(); }); }},
    {"nrlocs", [](const Call& c) { return answer(c, [](T& t) { return t.nrlocs(); }); }},
    {"__len", [](const Call& c) { return answer(c, [](T& t) { return t.size(); }); }},
    {"locsym",
     [](const Call& c) {
       const Location loc = location_argument(c, 2, "loc");
       return answer(c, [=](T& t) { return LocationName{loc, t.locsym(loc)}; });
     }},
    {"groups", [](const Call& c) { return answer(c, [](T& t) { return t.groups(); }); }},
    {"group",
     [](const Call& c) {
       const char* region = string_argument(c.L, 2, c.where, "region");
       return answer(c, [=](T& t) { return t.group(region); });
     }},
    {"regions",
     [](const Call& c) {
       const char* group = lua_isnoneornil(c.L, 2) ? nullptr : string_argument(c.L, 2, c.where, "group");
       return answer(c, [=](T& t) { return group ? t.regions(std::string(group)) : t.regions(); });
     }},
    {"types", [](const Call& c) { return answer(c, [](T& t) { return t.types(); }); }},
    // The locations of a process group, and of a communicator, in rank order (rank r at r + 1).
    {"members",
     [](const Call& c) {
       const lua_Integer id = integer_argument(c.L, 2, c.where, "group");
       return answer(c, [=](T& t) { return t.members(id); });
     }},
    {"ranks",
     [](const Call& c) {
       const lua_Integer id = integer_argument(c.L, 2, c.where, "com");
       return answer(c, [=](T& t) { return t.ranks(id); });
     }},
    {"metrics", [](const Call& c) { return answer(c, [](T& t) { return t.metrics(); }); }},
    {"problems", [](const Call& c) { return answer(c, [](T& t) { return t.problems(); }); }},
    // Closes the trace for every language holding it (as Python's close() does); closing
    // a closed trace is no error.
    {"close",
     [](const Call& c) {
       Lock lock(c.shared.mutex());
       c.shared.close();
       return 0;
     }},
    {"closed",
     [](const Call& c) {
       lua_pushboolean(c.L, c.shared.closed());
       return 1;
     }},
    {"__tostring",
     [](const Call& c) {
       std::string text;
       {
         Lock lock(c.shared.mutex());
         if (c.shared.closed()) {
           text = "EventTrace (closed)";
         } else {
           EventTrace& t = c.shared.trace();
           text = "EventTrace: " + t.file() + " (" + t.format() + ", " + std::to_string(t.size()) +
                  " events, " + std::to_string(t.nrlocs()) + " locations)";
         }
       }
       push(c.L, text);
       return 1;
     }},
};

constexpr std::size_t kMethodCount = std::size(kMethods);

// "EventTrace:<name>" of each row, for messages; made when the module is loaded.
const std::array<std::string, kMethodCount> kWhere = [] {
  std::array<std::string, kMethodCount> out;
  for (std::size_t i = 0; i < kMethodCount; ++i) out[i] = std::string("EventTrace:") + kMethods[i].name;
  return out;
}();

// Row I's lua_CFunction: the row is known at compile time, so its body is called (and
// mostly inlined) directly, as a hand-written function per method would be.
template <std::size_t I>
int run_row(lua_State* L) {
  SharedTrace& shared = **box_of(L, kMethods[I].name).shared;
  return kMethods[I].body(Call{L, shared, kWhere[I].c_str()});
}

template <std::size_t I>
int method_function(lua_State* L) {
  return protect(L, run_row<I>);
}

template <std::size_t... I>
constexpr std::array<lua_CFunction, kMethodCount> method_functions(std::index_sequence<I...>) {
  return {method_function<I>...};
}
constexpr std::array<lua_CFunction, kMethodCount> kFunctions = method_functions(std::make_index_sequence<kMethodCount>());

std::size_t row_of(const char* name) {
  for (std::size_t i = 0; i < kMethodCount; ++i)
    if (std::strcmp(kMethods[i].name, name) == 0) return i;
  std::abort();  // a name below that kMethods lacks: a mistake in this file
}

// Drops Lua's reference; the trace itself lives on while Python still holds it.
int collect(lua_State* L) {
  auto* box = static_cast<TraceBox*>(luaL_testudata(L, 1, kMeta));
  if (box && box->shared) {
    delete box->shared;
    box->shared = nullptr;
  }
  return 0;
}

// Makes the userdata for a SharedTrace; takes over `shared` (heap-allocated by the caller).
// The metatable is set first, so that __gc frees the reference even if filling the name
// tables fails.
void push_trace(lua_State* L, std::shared_ptr<SharedTrace>* shared) {
  auto* box = static_cast<TraceBox*>(lua_newuserdatauv(L, sizeof(TraceBox), kNameTables));
  box->shared = shared;
  luaL_setmetatable(L, kMeta);
  lua_replace(L, 1);  // methods expect the trace at index 1; arguments are read by now
  lua_settop(L, 1);
  for (int which = kTypes; which <= kStrings; ++which) {
    lua_newtable(L);
    fill_names(L, **shared, static_cast<NameTable>(which));
    lua_setiuservalue(L, 1, which);
  }
}

// Fails (a Lua error naming the option) unless the value at idx is nil or of the row's
// type. Lua errors skip C++ destructors, so every check runs before any C++ object of the
// call exists.
void check_type(lua_State* L, int idx, const OpenOption& option) {
  if (lua_isnoneornil(L, idx)) return;
  switch (option.type) {
    case OptionType::Text: string_argument(L, idx, "EventTrace", option.name); break;
    case OptionType::Integer: integer_argument(L, idx, "EventTrace", option.name); break;
    case OptionType::Boolean:
      if (!lua_isboolean(L, idx))
        fail(L, "EventTrace: %s must be a boolean (got %s)", option.name, type_of(L, idx));
      break;
    case OptionType::Number: number_argument(L, idx, "EventTrace", option.name); break;
  }
}

// The value at idx, of a type check_type accepted.
OptionValue lua_value(lua_State* L, int idx, const OpenOption& option) {
  if (lua_isnoneornil(L, idx)) return std::monostate{};
  switch (option.type) {
    case OptionType::Text: return std::string(lua_tostring(L, idx));
    case OptionType::Integer: return static_cast<std::int64_t>(lua_tointeger(L, idx));
    case OptionType::Boolean: return lua_toboolean(L, idx) != 0;
    case OptionType::Number: return static_cast<double>(lua_tonumber(L, idx));
  }
  return std::monostate{};
}

const char* option_names() {
  static const std::string names = [] {
    std::string out = "file";
    for (const OpenOption& option : open_options()) out += std::string(", ") + option.name;
    return out;
  }();
  return names.c_str();
}

struct OpenArguments {
  std::string file;
  OpenOptions options;
};

// EventTrace{file=..., <any option of trace/open_options.h>=...}: unknown keys are errors,
// so that a misspelt option is not silently ignored.
OpenArguments options_from_table(lua_State* L) {
  lua_pushnil(L);
  while (lua_next(L, 1)) {
    lua_pop(L, 1);
    bool known = lua_type(L, -1) == LUA_TSTRING &&
                 (std::strcmp(lua_tostring(L, -1), "file") == 0 || find_open_option(lua_tostring(L, -1)));
    if (!known)
      fail(L, "EventTrace: unknown option '%s' (the options are %s)", luaL_tolstring(L, -1, nullptr),
           option_names());
  }
  lua_settop(L, 1);
  lua_getfield(L, 1, "file");  // at 2
  if (lua_isnil(L, 2)) fail(L, "EventTrace: file is required, as in EventTrace{file=\"run.otf2\"}");
  const std::string file = path_argument(L, 2, "EventTrace", "file");
  for (const OpenOption& option : open_options()) {
    lua_getfield(L, 1, option.name);
    check_type(L, -1, option);
  }
  OpenArguments args;
  args.file = file;
  int idx = 3;
  for (const OpenOption& option : open_options())
    set_open_option(args.options, option, lua_value(L, idx++, option), option.name);
  return args;
}

// EventTrace(file, ...): after the file, the table's positional options in its order.
OpenArguments options_from_arguments(lua_State* L) {
  const std::string file = path_argument(L, 1, "EventTrace", "file");
  int idx = 2;
  for (const OpenOption& option : open_options())
    if (option.positional) check_type(L, idx++, option);
  OpenArguments args;
  args.file = file;
  idx = 2;
  for (const OpenOption& option : open_options())
    if (option.positional) set_open_option(args.options, option, lua_value(L, idx++, option), option.name);
  return args;
}

std::shared_ptr<SharedTrace>* open_trace(const OpenArguments& args) {
  auto trace = std::make_unique<EventTrace>(args.file, args.options);
  return new std::shared_ptr<SharedTrace>(std::make_shared<SharedTrace>(std::move(trace)));
}

int open(lua_State* L) {
  OpenArguments args = lua_type(L, 1) == LUA_TTABLE ? options_from_table(L) : options_from_arguments(L);
  push_trace(L, open_trace(args));
  return 1;
}

// earl._adopt(ticket): the trace a ticket from another language module stands for.
int adopt(lua_State* L) {
  lua_Integer number = integer_argument(L, 1, "earl._adopt", "ticket");
  std::shared_ptr<SharedTrace> shared = redeem_ticket(static_cast<std::uintptr_t>(number));
  shared->trace();  // a closed trace cannot be shared; throws "the trace is closed"
  auto* holder = new std::shared_ptr<SharedTrace>(std::move(shared));
  shared.reset();
  push_trace(L, holder);
  return 1;
}

EARL_LUA_FUNCTION(l_collect, collect)
EARL_LUA_FUNCTION(l_open, open)
EARL_LUA_FUNCTION(l_adopt, adopt)

// Sets table[key] = row's function closed over the metatable and the attribute names
// (both at the top of the stack, the metatable below).
void set_method(lua_State* L, int table, const char* key, std::size_t row) {
  lua_pushvalue(L, -2);
  lua_pushvalue(L, -2);
  lua_pushcclosure(L, kFunctions[row], 2);
  lua_setfield(L, table, key);
}

}  // namespace

void register_event_trace(lua_State* L) {
  luaL_newmetatable(L, kMeta);
  const int metatable = lua_gettop(L);
  lua_newtable(L);  // the methods
  const int methods = lua_gettop(L);
  lua_pushvalue(L, metatable);
  const int count = static_cast<int>(Attribute::Count_);
  lua_createtable(L, count, 0);
  for (int i = 0; i < count; ++i) {
    lua_pushstring(L, attribute_name(static_cast<Attribute>(i)));
    lua_rawseti(L, -2, i + 1);
  }
  // Rows named __* are metamethods; eventTypes is types, __close is close.
  for (std::size_t i = 0; i < kMethodCount; ++i)
    set_method(L, std::strncmp(kMethods[i].name, "__", 2) == 0 ? metatable : methods, kMethods[i].name, i);
  set_method(L, methods, "eventTypes", row_of("types"));
  set_method(L, metatable, "__close", row_of("close"));
  lua_pop(L, 2);
  lua_setfield(L, metatable, "__index");
  lua_pushcfunction(L, l_collect);
  lua_setfield(L, metatable, "__gc");
  lua_pop(L, 1);
}

int open_event_trace(lua_State* L) { return l_open(L); }

std::shared_ptr<SharedTrace> trace_argument(lua_State* L, int idx, const char* method) {
  auto* box = static_cast<TraceBox*>(luaL_testudata(L, idx, kMeta));
  if (!box)
    fail(L, "EventTrace:%s: call it as a method, e:%s(...) (got %s where the trace belongs)", method, method,
         type_of(L, idx));
  if (!box->shared) fail(L, "EventTrace:%s: the trace was collected", method);
  return *box->shared;
}
int adopt_event_trace(lua_State* L) { return l_adopt(L); }

}  // namespace earl::lua
