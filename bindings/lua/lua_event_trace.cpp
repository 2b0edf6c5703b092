// The Lua mapping of EventTrace (DESIGN.md section 3): events are tables keyed by
// attribute name, position lists are 1-based sequences, and nil is the false value of
// next/prev/jump, so `while e:next() do ... end` works (0 would be true in Lua).
//
// A trace object is a userdata holding one reference to a SharedTrace, the same C++
// object the Python module holds when earl.lua.share() handed it over: moving the
// iterator in either language moves it in both.
#include "bindings/lua/lua_event_trace.h"

#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
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

SharedTrace& shared_of(lua_State* L, const char* method) { return **box_of(L, method).shared; }

// An optional position argument: -1 (the iterator) when omitted or nil.
std::int64_t position_argument(lua_State* L, int idx, const char* method) {
  lua_Integer pos = optional_integer(L, idx, method, "pos", -1);
  if (!lua_isnoneornil(L, idx) && pos < 0)
    fail(L, "no event at position %I (positions are numbered from 1)", pos);
  return pos;
}

Location location_argument(lua_State* L, int idx, const char* method, const char* name) {
  lua_Integer loc = integer_argument(L, idx, method, name);
  if (loc < std::numeric_limits<Location>::min() || loc > std::numeric_limits<Location>::max())
    fail(L, "%s %I is not a location", name, loc);
  return static_cast<Location>(loc);
}

const Event& locate(EventTrace& trace, std::int64_t pos) {
  if (pos < 0 && trace.iterator() == 0)
    throw EarlError("no event at the iterator: it stands at 0 (call next() or jump() first)");
  return trace.event(pos);
}

// The event at pos, copied while the lock is held: the record the core returns may be
// replaced by the next decode, and Lua values are made after the lock is released.
Event copy_event(SharedTrace& shared, std::int64_t pos) {
  Lock lock(shared.mutex());
  return locate(shared.trace(), pos);
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

// Pushes a value; returns false (pushing nothing) for none, which Lua spells nil.
bool push_value(lua_State* L, const Value& v) {
  switch (v.kind) {
    case Value::Kind::None: return false;
    case Value::Kind::Int: lua_pushinteger(L, v.integer); return true;
    case Value::Kind::UInt: push_unsigned(L, v.unsigned_integer); return true;
    case Value::Kind::Float: lua_pushnumber(L, v.real); return true;
    case Value::Kind::String: push_name(L, kStrings, v.string); return true;
  }
  return false;
}

bool push_slot(lua_State* L, const Event& e, Slot slot) {
  switch (slot) {
    case Slot::Pos: push_unsigned(L, e.pos); return true;
    case Slot::Loc: lua_pushinteger(L, e.loc); return true;
    case Slot::Time: lua_pushnumber(L, e.time); return true;
    case Slot::Type: push_name(L, kTypes, e.type); return true;
    case Slot::Enterptr: push_unsigned(L, e.enterptr); return true;
    case Slot::Region: push_name(L, kRegions, e.region); return true;
    case Slot::Peer: lua_pushinteger(L, e.peer); return true;
    case Slot::Tag: lua_pushinteger(L, e.tag); return true;
    case Slot::Com: lua_pushinteger(L, e.com); return true;
    case Slot::Len: push_unsigned(L, e.len); return true;
    case Slot::Pointer: push_unsigned(L, e.sendptr); return true;
    case Slot::Data1: return push_value(L, e.data1);
    case Slot::Data2: return push_value(L, e.data2);
  }
  return false;
}

void push_positions(lua_State* L, const std::vector<Position>& positions) {
  lua_createtable(L, static_cast<int>(positions.size()), 0);
  for (std::size_t i = 0; i < positions.size(); ++i) {
    push_unsigned(L, positions[i]);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i) + 1);
  }
}

void push_strings(lua_State* L, const std::vector<std::string>& strings) {
  lua_createtable(L, static_cast<int>(strings.size()), 0);
  for (std::size_t i = 0; i < strings.size(); ++i) {
    lua_pushlstring(L, strings[i].data(), strings[i].size());
    lua_rawseti(L, -2, static_cast<lua_Integer>(i) + 1);
  }
}

// Moves return the new position, or nil where Python returns 0.
int push_move(lua_State* L, Position pos) {
  if (pos == 0)
    lua_pushnil(L);
  else
    push_unsigned(L, pos);
  return 1;
}

// ---------------------------------------------------------------- events

int event(lua_State* L) {
  SharedTrace& shared = shared_of(L, "event");
  std::int64_t pos = position_argument(L, 2, "EventTrace:event");
  Event e = copy_event(shared, pos);
  const std::vector<AttributeSpec>& specs = attribute_specs(e.kind);
  lua_createtable(L, 0, static_cast<int>(specs.size()));
  for (const AttributeSpec& spec : specs) {
    lua_rawgeti(L, lua_upvalueindex(kKeysUpvalue), static_cast<lua_Integer>(spec.name) + 1);
    if (push_slot(L, e, spec.slot))
      lua_rawset(L, -3);
    else
      lua_pop(L, 1);
  }
  return 1;
}

int attributes(lua_State* L) {
  SharedTrace& shared = shared_of(L, "attributes");
  std::int64_t pos = position_argument(L, 2, "EventTrace:attributes");
  Event e = copy_event(shared, pos);
  const std::vector<AttributeSpec>& specs = attribute_specs(e.kind);
  lua_createtable(L, static_cast<int>(specs.size()), 0);
  for (std::size_t i = 0; i < specs.size(); ++i) {
    lua_pushstring(L, attribute_name(specs[i].name));
    lua_rawseti(L, -2, static_cast<lua_Integer>(i) + 1);
  }
  return 1;
}

// Values in attribute order. data1/data2 may be nil, which leaves holes, so the table
// carries n as table.pack does: `for i = 1, vals.n do ... end`.
int values(lua_State* L) {
  SharedTrace& shared = shared_of(L, "values");
  std::int64_t pos = position_argument(L, 2, "EventTrace:values");
  Event e = copy_event(shared, pos);
  const std::vector<AttributeSpec>& specs = attribute_specs(e.kind);
  lua_createtable(L, static_cast<int>(specs.size()), 1);
  for (std::size_t i = 0; i < specs.size(); ++i)
    if (push_slot(L, e, specs[i].slot)) lua_rawseti(L, -2, static_cast<lua_Integer>(i) + 1);
  lua_pushinteger(L, static_cast<lua_Integer>(specs.size()));
  lua_setfield(L, -2, "n");
  return 1;
}

int stack(lua_State* L) {
  SharedTrace& shared = shared_of(L, "stack");
  Location loc = location_argument(L, 2, "EventTrace:stack", "loc");
  std::int64_t pos = position_argument(L, 3, "EventTrace:stack");
  std::vector<Position> found;
  {
    Lock lock(shared.mutex());
    found = shared.trace().stack(loc, pos);
  }
  push_positions(L, found);
  return 1;
}

int queue(lua_State* L) {
  SharedTrace& shared = shared_of(L, "queue");
  Location src = location_argument(L, 2, "EventTrace:queue", "src");
  Location dest = location_argument(L, 3, "EventTrace:queue", "dest");
  std::int64_t pos = position_argument(L, 4, "EventTrace:queue");
  std::vector<Position> found;
  {
    Lock lock(shared.mutex());
    found = shared.trace().queue(src, dest, pos);
  }
  push_positions(L, found);
  return 1;
}

// ---------------------------------------------------------------- the iterator

int next(lua_State* L) {
  SharedTrace& shared = shared_of(L, "next");
  Position pos;
  {
    Lock lock(shared.mutex());
    pos = shared.trace().next();
  }
  return push_move(L, pos);
}

int prev(lua_State* L) {
  SharedTrace& shared = shared_of(L, "prev");
  Position pos;
  {
    Lock lock(shared.mutex());
    pos = shared.trace().prev();
  }
  return push_move(L, pos);
}

int jump(lua_State* L) {
  SharedTrace& shared = shared_of(L, "jump");
  lua_Integer target = integer_argument(L, 2, "EventTrace:jump", "pos");
  Position pos;
  {
    Lock lock(shared.mutex());
    pos = shared.trace().jump(target);
  }
  return push_move(L, pos);
}

int reset(lua_State* L) {
  SharedTrace& shared = shared_of(L, "reset");
  Lock lock(shared.mutex());
  shared.trace().reset();
  return 0;
}

int iterator(lua_State* L) {
  SharedTrace& shared = shared_of(L, "iterator");
  Position pos;
  {
    Lock lock(shared.mutex());
    pos = shared.trace().iterator();
  }
  push_unsigned(L, pos);
  return 1;
}

// ---------------------------------------------------------------- what the trace defines

int file(lua_State* L) {
  SharedTrace& shared = shared_of(L, "file");
  std::string name;
  {
    Lock lock(shared.mutex());
    name = shared.trace().file();
  }
  lua_pushlstring(L, name.data(), name.size());
  return 1;
}

int format(lua_State* L) {
  SharedTrace& shared = shared_of(L, "format");
  std::string name;
  {
    Lock lock(shared.mutex());
    name = shared.trace().format();
  }
  lua_pushlstring(L, name.data(), name.size());
  return 1;
}

int nrlocs(lua_State* L) {
  SharedTrace& shared = shared_of(L, "nrlocs");
  Location count;
  {
    Lock lock(shared.mutex());
    count = shared.trace().nrlocs();
  }
  lua_pushinteger(L, count);
  return 1;
}

int length(lua_State* L) {
  SharedTrace& shared = shared_of(L, "__len");
  Position size;
  {
    Lock lock(shared.mutex());
    size = shared.trace().size();
  }
  push_unsigned(L, size);
  return 1;
}

// The location's name, or the location number where the trace names none.
int locsym(lua_State* L) {
  SharedTrace& shared = shared_of(L, "locsym");
  Location loc = location_argument(L, 2, "EventTrace:locsym", "loc");
  std::optional<std::string> name;
  {
    Lock lock(shared.mutex());
    name = shared.trace().locsym(loc);
  }
  if (name)
    lua_pushlstring(L, name->data(), name->size());
  else
    lua_pushinteger(L, loc);
  return 1;
}

int groups(lua_State* L) {
  SharedTrace& shared = shared_of(L, "groups");
  std::vector<std::string> names;
  {
    Lock lock(shared.mutex());
    names = shared.trace().groups();
  }
  push_strings(L, names);
  return 1;
}

int group(lua_State* L) {
  SharedTrace& shared = shared_of(L, "group");
  const char* region = string_argument(L, 2, "EventTrace:group", "region");
  std::string name;
  {
    Lock lock(shared.mutex());
    name = shared.trace().group(region);
  }
  lua_pushlstring(L, name.data(), name.size());
  return 1;
}

// The locations `lookup` gives for the integer at index 2, as a 1-based sequence.
template <class Lookup>
int push_locations(lua_State* L, const char* method, const char* where, const char* name, const Lookup& lookup) {
  SharedTrace& shared = shared_of(L, method);
  const lua_Integer id = integer_argument(L, 2, where, name);
  std::vector<Location> locations;
  {
    Lock lock(shared.mutex());
    locations = lookup(shared.trace(), id);
  }
  lua_createtable(L, static_cast<int>(locations.size()), 0);
  for (std::size_t i = 0; i < locations.size(); ++i) {
    lua_pushinteger(L, locations[i]);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i) + 1);
  }
  return 1;
}

// The locations of a process group in rank order.
int members(lua_State* L) {
  return push_locations(L, "members", "EventTrace:members", "group",
                        [](EventTrace& trace, lua_Integer id) { return trace.members(id); });
}

// The locations of a communicator in rank order (rank r at r + 1).
int ranks(lua_State* L) {
  return push_locations(L, "ranks", "EventTrace:ranks", "com",
                        [](EventTrace& trace, lua_Integer id) { return trace.ranks(id); });
}

// The counters the trace defines: a sequence of tables with trace/metric_fields.h's fields.
int metrics(lua_State* L) {
  SharedTrace& shared = shared_of(L, "metrics");
  std::vector<MetricDefinition> defined;
  {
    Lock lock(shared.mutex());
    defined = shared.trace().metrics();
  }
  lua_createtable(L, static_cast<int>(defined.size()), 0);
  for (std::size_t i = 0; i < defined.size(); ++i) {
    const std::vector<MetricField> fields = metric_fields(defined[i]);
    lua_createtable(L, 0, static_cast<int>(fields.size()));
    for (const MetricField& field : fields) {
      if (const auto* text = std::get_if<std::string>(&field.value)) lua_pushlstring(L, text->data(), text->size());
      else if (const auto* number = std::get_if<std::int64_t>(&field.value)) lua_pushinteger(L, *number);
      else lua_pushboolean(L, std::get<bool>(field.value));
      lua_setfield(L, -2, field.name);
    }
    lua_rawseti(L, -2, static_cast<lua_Integer>(i) + 1);
  }
  return 1;
}

int regions(lua_State* L) {
  SharedTrace& shared = shared_of(L, "regions");
  const char* group = lua_isnoneornil(L, 2) ? nullptr : string_argument(L, 2, "EventTrace:regions", "group");
  std::vector<std::string> names;
  {
    Lock lock(shared.mutex());
    names = group ? shared.trace().regions(std::string(group)) : shared.trace().regions();
  }
  push_strings(L, names);
  return 1;
}

int types(lua_State* L) {
  SharedTrace& shared = shared_of(L, "types");
  std::vector<std::string> names;
  {
    Lock lock(shared.mutex());
    names = shared.trace().types();
  }
  push_strings(L, names);
  return 1;
}

int problems(lua_State* L) {
  SharedTrace& shared = shared_of(L, "problems");
  Problems found;
  {
    Lock lock(shared.mutex());
    found = shared.trace().problems();
  }
  lua_createtable(L, 0, static_cast<int>(std::size(kProblemNames)));
  auto add = [L](const char* name, const ProblemKind& kind) {
    lua_createtable(L, 0, 2);
    push_unsigned(L, kind.count);
    lua_setfield(L, -2, "count");
    push_positions(L, kind.first);
    lua_setfield(L, -2, "first");
    lua_setfield(L, -2, name);
  };
  for (const ProblemName& kind : kProblemNames) add(kind.name, found.*kind.kind);
  if (found.damaged.empty()) return 1;
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
    lua_pushlstring(L, damage.message.data(), damage.message.size());
    lua_setfield(L, -2, "message");
    lua_rawseti(L, -2, ++index);
  }
  lua_setfield(L, -2, "locations");
  lua_pop(L, 1);
  return 1;
}

// ---------------------------------------------------------------- life cycle

// Closes the trace for every language holding it (as Python's close() does).
int close(lua_State* L) {
  SharedTrace& shared = shared_of(L, "close");
  Lock lock(shared.mutex());
  shared.close();
  return 0;
}

int closed(lua_State* L) {
  SharedTrace& shared = shared_of(L, "closed");
  lua_pushboolean(L, shared.closed());
  return 1;
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

int to_string(lua_State* L) {
  SharedTrace& shared = shared_of(L, "__tostring");
  std::string text;
  {
    Lock lock(shared.mutex());
    if (shared.closed()) {
      text = "EventTrace (closed)";
    } else {
      EventTrace& t = shared.trace();
      text = "EventTrace: " + t.file() + " (" + t.format() + ", " + std::to_string(t.size()) +
             " events, " + std::to_string(t.nrlocs()) + " locations)";
    }
  }
  lua_pushlstring(L, text.data(), text.size());
  return 1;
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
  string_argument(L, 2, "EventTrace", "file");
  for (const OpenOption& option : open_options()) {
    lua_getfield(L, 1, option.name);
    check_type(L, -1, option);
  }
  OpenArguments args;
  args.file = lua_tostring(L, 2);
  int idx = 3;
  for (const OpenOption& option : open_options())
    set_open_option(args.options, option, lua_value(L, idx++, option), option.name);
  return args;
}

// EventTrace(file, ...): after the file, the table's positional options in its order.
OpenArguments options_from_arguments(lua_State* L) {
  string_argument(L, 1, "EventTrace", "file");
  int idx = 2;
  for (const OpenOption& option : open_options())
    if (option.positional) check_type(L, idx++, option);
  OpenArguments args;
  args.file = lua_tostring(L, 1);
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

EARL_LUA_FUNCTION(l_event, event)
EARL_LUA_FUNCTION(l_attributes, attributes)
EARL_LUA_FUNCTION(l_values, values)
EARL_LUA_FUNCTION(l_stack, stack)
EARL_LUA_FUNCTION(l_queue, queue)
EARL_LUA_FUNCTION(l_next, next)
EARL_LUA_FUNCTION(l_prev, prev)
EARL_LUA_FUNCTION(l_jump, jump)
EARL_LUA_FUNCTION(l_reset, reset)
EARL_LUA_FUNCTION(l_iterator, iterator)
EARL_LUA_FUNCTION(l_file, file)
EARL_LUA_FUNCTION(l_format, format)
EARL_LUA_FUNCTION(l_nrlocs, nrlocs)
EARL_LUA_FUNCTION(l_length, length)
EARL_LUA_FUNCTION(l_locsym, locsym)
EARL_LUA_FUNCTION(l_groups, groups)
EARL_LUA_FUNCTION(l_group, group)
EARL_LUA_FUNCTION(l_members, members)
EARL_LUA_FUNCTION(l_ranks, ranks)
EARL_LUA_FUNCTION(l_metrics, metrics)
EARL_LUA_FUNCTION(l_regions, regions)
EARL_LUA_FUNCTION(l_types, types)
EARL_LUA_FUNCTION(l_problems, problems)
EARL_LUA_FUNCTION(l_close, close)
EARL_LUA_FUNCTION(l_closed, closed)
EARL_LUA_FUNCTION(l_collect, collect)
EARL_LUA_FUNCTION(l_to_string, to_string)
EARL_LUA_FUNCTION(l_open, open)
EARL_LUA_FUNCTION(l_adopt, adopt)

const luaL_Reg kMethods[] = {
    {"event", l_event},       {"attributes", l_attributes}, {"values", l_values},
    {"stack", l_stack},       {"queue", l_queue},           {"next", l_next},
    {"prev", l_prev},         {"jump", l_jump},             {"reset", l_reset},
    {"iterator", l_iterator}, {"file", l_file},             {"format", l_format},
    {"nrlocs", l_nrlocs},     {"locsym", l_locsym},         {"groups", l_groups},
    {"group", l_group},       {"regions", l_regions},       {"types", l_types},
    {"eventTypes", l_types},  {"problems", l_problems},     {"close", l_close},
    {"closed", l_closed},     {"members", l_members},
    {"ranks", l_ranks},       {"metrics", l_metrics},       {nullptr, nullptr}};

}  // namespace

// Pushes the two upvalues every method gets; the metatable is at the top of the stack.
void push_upvalues(lua_State* L) {
  lua_pushvalue(L, -1);
  int count = static_cast<int>(Attribute::Count_);
  lua_createtable(L, count, 0);
  for (int i = 0; i < count; ++i) {
    lua_pushstring(L, attribute_name(static_cast<Attribute>(i)));
    lua_rawseti(L, -2, i + 1);
  }
}

void register_event_trace(lua_State* L) {
  luaL_newmetatable(L, kMeta);
  lua_newtable(L);  // the methods
  lua_pushvalue(L, -2);
  push_upvalues(L);
  lua_remove(L, -3);
  luaL_setfuncs(L, kMethods, 2);
  lua_setfield(L, -2, "__index");
  const luaL_Reg meta[] = {{"__gc", l_collect},
                           {"__close", l_close},
                           {"__tostring", l_to_string},
                           {"__len", l_length},
                           {nullptr, nullptr}};
  push_upvalues(L);
  luaL_setfuncs(L, meta, 2);
  lua_pop(L, 1);
}

int open_event_trace(lua_State* L) { return l_open(L); }
int adopt_event_trace(lua_State* L) { return l_adopt(L); }

}  // namespace earl::lua
