"""Lua in the REPL (Lua 5.4 through lupa, EARL's native Lua module): a bare expression
shows its values as Lua's own REPL does (`return` is tried first), tables shown one level
deep (an event's attributes in model order)."""
import earl.lua
from earl.repl.languages import EvaluationError

# Runs once in the runtime with the shared trace and a Python no-op: what the evaluator
# needs, kept in a local table rather than in the user's globals.
_SETUP = r"""
local trace = ...
local pack, concat = table.pack, table.concat
local repl = {}

local function scalar(value)
  if type(value) == "string" then return ("%q"):format(value) end
  return tostring(value)
end

local show
local function show_table(t, depth)
  if depth > 2 then return tostring(t) end
  local keys, seen = {}, {}
  for i = 1, #t do keys[#keys + 1] = i; seen[i] = true end
  -- an event: its attributes in the model's order (the trace knows them)
  if math.type(rawget(t, "pos")) == "integer" and type(rawget(t, "type")) == "string" then
    local ok, names = pcall(trace.attributes, trace, t.pos)
    if ok then
      for _, name in ipairs(names) do
        if rawget(t, name) ~= nil and not seen[name] then keys[#keys + 1] = name; seen[name] = true end
      end
    end
  end
  local rest = {}
  for key in pairs(t) do if not seen[key] then rest[#rest + 1] = key end end
  table.sort(rest, function(a, b) return tostring(a) < tostring(b) end)
  for _, key in ipairs(rest) do keys[#keys + 1] = key end
  local parts = {}
  for index, key in ipairs(keys) do
    if index > 50 then parts[#parts + 1] = ("... (%d more)"):format(#keys - 50); break end
    local value = show(rawget(t, key), depth + 1)
    if math.type(key) == "integer" and key <= #t then
      parts[#parts + 1] = value
    elseif type(key) == "string" and key:match("^[%a_][%w_]*$") then
      parts[#parts + 1] = key .. " = " .. value
    else
      parts[#parts + 1] = "[" .. scalar(key) .. "] = " .. value
    end
  end
  return "{" .. concat(parts, ", ") .. "}"
end

function show(value, depth)
  if type(value) == "table" and not getmetatable(value) then return show_table(value, depth) end
  return depth == 0 and tostring(value) or scalar(value)
end

function repl.set_event()
  if trace:iterator() > 0 then ev = trace:event() else ev = nil end
end

-- the chunk of `source`: as an expression first (lua.c's rule), then as statements
function repl.compile(source, name)
  local chunk = load("return " .. source, name, "t")
  if chunk then return chunk end
  local problem
  chunk, problem = load(source, name, "t")
  if chunk then return chunk end
  return nil, problem
end

function repl.complete(source)
  if load("return " .. source, "=input", "t") then return true end
  local chunk, problem = load(source, "=input", "t")
  return chunk ~= nil or not problem:find("<eof>$")
end

-- Runs a compiled chunk; returns its results shown and separated by tabs, or nil.
-- Results and messages as text Python can always take (lupa decodes strictly as UTF-8, and
-- names may hold any bytes: \xNN); an error object that is no string becomes its message,
-- whatever its __tostring does. Python's exceptions (Ctrl-C) go on as themselves.
local registry = debug.getregistry()
local escaped, message_of = registry["earl.escaped"], registry["earl.message_of"]
function repl.run(chunk)
  local results = pack(pcall(chunk))
  if not results[1] then
    local problem = results[2]
    if type(problem) == "userdata" then error(problem, 0) end
    error(escaped(message_of(problem)), 0)
  end
  if results.n == 1 then return nil end
  local parts = {}
  for i = 2, results.n do parts[i - 1] = show(results[i], 0) end
  return escaped(concat(parts, "\t"))
end

-- os.exit typed at the prompt stops the chunk as it stops a script (earl.lua's os.exit)
-- and notes the code, with which the shell ends the session (docs/repl.md)
local stop = os.exit
function os.exit(code)
  repl.exit_code = code == nil and 0 or code
  return stop(code)
end

-- A filter's ev: a field its event lacks reads nil (as anywhere in Lua); an error that
-- nil causes (nil > 1000) means "no match" for that event. A global the filter names
-- that does not exist is an error at once (a misspelt name is not a missing field).
local missed, unknown = false, false
local lacking = {__index = function() missed = true end}
local strict = setmetatable({}, {
  __index = function(_, name)
    local value = _G[name]
    if value == nil then
      unknown = true
      error(("unknown variable '%s'"):format(tostring(name)), 2)
    end
    return value
  end,
  __newindex = _G})

local function nil_failure(problem)
  return not unknown and type(problem) == "string" and problem:find("nil", 1, true) ~= nil
end

function repl.searcher(expression)
  local predicate, problem = load("local ev = ...; return " .. expression, "=<find>", "t", strict)
  if not predicate then return nil, problem end
  -- one pcall a chunk, not one an event: after a failure that was no match, the scan
  -- goes on from the next event
  local function scan(first, last, step)
    for pos = first, last, step do
      repl.at, missed = pos, false
      if predicate(setmetatable(trace:event(pos), lacking)) then return pos end
    end
    return 0
  end
  return function(first, last, step)
    local pos = first
    while (last - pos) * step >= 0 do
      unknown = false
      local ok, found = pcall(scan, pos, last, step)
      if ok then return found end
      -- Python's errors (Ctrl-C) are userdata: never a nil failure
      if not (missed and nil_failure(found)) then
        if type(found) ~= "userdata" then found = escaped(message_of(found)) end  -- as repl.run
        error(found, 0)
      end
      pos = repl.at + step
    end
    return 0
  end
end

function repl.methods()
  local names, index = {}, getmetatable(trace).__index
  if type(index) == "table" then
    for name in pairs(index) do if type(name) == "string" and not name:find("^_") then names[#names + 1] = name end end
  end
  table.sort(names)
  return names
end

function repl.globals()
  local names = {}
  for name in pairs(_G) do if type(name) == "string" then names[#names + 1] = escaped(name) end end
  table.sort(names)
  return names
end

return repl
"""


class Evaluator:
    name = "lua"

    def __init__(self, trace):
        self.lua = earl.lua.runtime()
        self.lua.globals().e = earl.lua.share(trace, self.lua)
        # Ctrl-C stops long loops through the runtime's own hook (earl.lua.runtime).
        self._repl = self.lua.execute(_SETUP, earl.lua.share(trace, self.lua))
        self._error = earl.lua._lua54().LuaError

    def set_event(self, event):
        self._repl.set_event()

    def is_complete(self, source):
        return bool(self._repl.complete(source))

    def evaluate(self, source, origin=("<input>", 1)):
        filename, first_line = origin
        chunk = self._checked(self._repl.compile, "\n" * (first_line - 1) + source, "=" + filename)
        return self._call(self._repl.run, chunk)

    def searcher(self, expression):
        search = self._checked(self._repl.searcher, expression)

        def run(first, last, step):
            try:
                return self._call(search, first, last, step)
            except EvaluationError as error:
                raise EvaluationError(f"{error} (at event {self.last_searched()})") from None

        return run

    def last_searched(self):
        return self._repl.at or 0

    def run_script(self, path, args):
        """Runs the script in a runtime of its own, as `earl run` does: its globals cannot
        clash with the session's e and ev."""
        try:
            earl.lua.run(path, args)
        except earl.EarlError as error:
            raise EvaluationError(str(error)) from None

    def method_names(self):
        return list(self._repl.methods().values())

    def global_names(self):
        return list(self._repl.globals().values())

    def _checked(self, compile, *args):
        """The function `compile` made, or EvaluationError with the message it returned."""
        outcome = compile(*args)
        if isinstance(outcome, tuple):
            raise EvaluationError(outcome[1])
        return outcome

    def _call(self, function, *args):
        self._repl.exit_code = None
        try:
            return function(*args)
        except self._error as error:
            code = self._repl.exit_code
            if code is not None:
                raise SystemExit(0 if code is True else 1 if code is False else code) from None
            raise EvaluationError(earl.lua._first_line(error)) from None
