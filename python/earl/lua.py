"""EARL's Lua mapping, run inside this Python process through lupa.

    import earl.lua
    lua = earl.lua.runtime()                 # a lupa LuaRuntime with EventTrace, P2Statistic
    lua.execute('e = EventTrace("run.otf2"); while e:next() do ... end')
    earl.lua.run("scripts/wasted_time.lua", ["run.otf2"])
    lt = earl.lua.share(trace, lua)          # the same C++ trace (one iterator) in Lua

The Lua side is a native Lua 5.4 module (bindings/lua, installed as earl/lua54/earl.so):
every call from Lua goes straight to the C++ core, never through Python. The same file
loads into a standalone Lua 5.4:

    LUA_CPATH="$(python -m earl.lua --cpath);;" lua5.4 script.lua TRACE
"""
import ctypes
import functools
import os
import sys

from earl import EarlError

__all__ = ["runtime", "run", "share", "module_path", "cpath"]


def module_path():
    """The file of the Lua module (earl.so), or EarlError saying how to get it."""
    import earl

    for base in earl.__path__:
        candidate = os.path.join(base, "lua54", "earl.so")
        if os.path.isfile(candidate):
            return candidate
    raise EarlError("the EARL Lua module (earl/lua54/earl.so) is not built: install the Lua 5.4 "
                    "headers (Debian/Ubuntu: apt-get install liblua5.4-dev) and rebuild EARL "
                    "(make setup)")


def cpath():
    """A package.cpath / LUA_CPATH entry under which `require "earl"` finds the module."""
    return os.path.join(os.path.dirname(module_path()), "?.so")


@functools.lru_cache(maxsize=None)
def _lua54():
    try:
        import lupa.lua54 as lua54
    except ImportError as error:
        raise EarlError(f"earl.lua needs lupa with its Lua 5.4 runtime (pip install lupa): {error}")
    # Python loads extension modules with their symbols private. The EARL module is not
    # linked to liblua (a second Lua runtime in the process would corrupt the first), so
    # the lua_* functions it calls must come from lupa's runtime: make them global.
    ctypes.CDLL(lua54.__file__, mode=os.RTLD_NOW | os.RTLD_GLOBAL | getattr(os, "RTLD_NOLOAD", 4))
    return lua54


# Runs once in each new runtime: loads the module as `require "earl"` would, and routes
# print/io.write/io.stdout/io.stderr to Python's sys.stdout/sys.stderr (Lua's own would
# write to the C streams, past Python's buffers and redirections). os.exit stops the
# script rather than the Python process.
_SETUP = r"""
local path, write_out, write_err, poll = ...
local open, message = package.loadlib(path, "luaopen_earl")
if not open then error("cannot load the EARL Lua module " .. path .. ": " .. tostring(message), 0) end
package.loaded.earl = open()

-- Text for Python: lupa decodes Lua strings as strict UTF-8, and names in traces may hold
-- any bytes. A string that is not UTF-8 goes as a table of its bytes, which Python's
-- _text() decodes with surrogate escapes (what earl.EventTrace gives for the same name).
local byte, concat, utf8len = string.byte, table.concat, utf8.len
local function host_text(text)
  if utf8len(text) then return text end
  local bytes = {}
  for first = 1, #text, 4096 do  -- in slices: string.byte returns them on the stack
    local slice = {byte(text, first, math.min(first + 4095, #text))}
    table.move(slice, 1, #slice, first, bytes)
  end
  return bytes
end
debug.getregistry()["earl.host_text"] = host_text

-- The text with each byte that is not part of UTF-8 shown as \xNN, as earl's messages
-- show them: for text shown where raw bytes have no place (the REPL).
local function escaped(text)
  local parts, from = {}, 1
  while true do
    local ok, bad = utf8len(text, from)
    if ok then parts[#parts + 1] = text:sub(from) break end
    parts[#parts + 1] = text:sub(from, bad - 1)
    parts[#parts + 1] = ("\\x%02x"):format(byte(text, bad))
    from = bad + 1
  end
  return concat(parts)
end
debug.getregistry()["earl.escaped"] = escaped

-- An error object's message, never failing: a string or number as it is, else what
-- __tostring makes of it if that works and gives a string, else the object's type
-- (lua.c's rule).
local function message_of(err)
  if type(err) == "string" or type(err) == "number" then return tostring(err) end
  local meta = getmetatable(err)
  if type(meta) == "table" and rawget(meta, "__tostring") ~= nil then
    local ok, text = pcall(tostring, err)
    if ok and type(text) == "string" then return text end
    return ("(error object is a %s value; its __tostring failed: %s)"):format(
      type(err), ok and ("it returned a " .. type(text)) or message_of(text))
  end
  return ("(error object is a %s value)"):format(type(err))
end
debug.getregistry()["earl.message_of"] = message_of

local function joined(...)
  local parts = {}
  for i = 1, select("#", ...) do
    local value = select(i, ...)
    if type(value) ~= "string" and type(value) ~= "number" then
      error(("bad argument #%d to 'write' (string expected, got %s)"):format(i, type(value)), 3)
    end
    parts[i] = tostring(value)
  end
  return table.concat(parts)
end

local function stream(write)
  local methods = {}
  function methods:write(...) write(host_text(joined(...))) return self end
  function methods:flush() return self end
  function methods:setvbuf() return true end
  return setmetatable({}, {__index = methods, __name = "FILE*"})
end

io.stdout = stream(write_out)
io.stderr = stream(write_err)
function io.write(...) write_out(host_text(joined(...))) return io.stdout end
function print(...)
  local parts = {}
  for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
  write_out(host_text(table.concat(parts, "\t") .. "\n"))
end

local exit = {}
function os.exit(code) error(setmetatable({code = code}, exit), 0) end

-- Ctrl-C: a count hook calls poll, which raises KeyboardInterrupt (bindings/lua/lua_interrupt.h).
package.loaded.earl._interruptible(poll)

-- Runs a script file as the standalone interpreter does: arg[0] is the script, arg[1..]
-- and the chunk's ... are its arguments. Returns "ok", "exit", code or "error", message;
-- the message starts with the script's file and line. Kept in the registry, out of the
-- scripts' way.
debug.getregistry()["earl.run"] = function(script, ...)
  local chunk, problem = loadfile(script)
  if not chunk then return "error", problem end
  arg = {[0] = script, ...}
  local ok, err = pcall(chunk, ...)
  if ok then return "ok" end
  if getmetatable(err) == exit then return "exit", err.code end
  return "error", host_text(message_of(err))
end
"""


def runtime():
    """A new lupa LuaRuntime (Lua 5.4) with the EARL module loaded: the globals EventTrace
    and P2Statistic, `require "earl"` returning the module, print writing to sys.stdout."""
    lua54 = _lua54()
    path = module_path()
    lua = lua54.LuaRuntime()
    # sys.stdout is looked up at each write: tests and tools replace it.
    try:
        lua.execute(_SETUP, path, lambda text: _write(sys.stdout, text),
                    lambda text: _write(sys.stderr, text), _poll)
    except lua54.LuaError as error:
        raise EarlError(_first_line(error)) from None
    return lua


def run(path, args=(), runtime=None):
    """Runs the Lua script file `path` with `arg` set as standalone Lua does. A Lua error
    raises EarlError("path:line: message"); os.exit(n) with n other than 0 raises
    SystemExit(n). Runs in `runtime` if given (its globals stay afterwards), else in a new
    one."""
    lua = globals()["runtime"]() if runtime is None else runtime
    runner = lua.eval('debug.getregistry()["earl.run"]')
    if runner is None:
        raise EarlError("run: the runtime was not made by earl.lua.runtime()")
    path = os.fspath(path)
    outcome = runner(path, *[str(a) for a in args])
    kind, value = (outcome, None) if isinstance(outcome, str) else (outcome[0], outcome[1])
    if kind == "error":
        raise EarlError(_with_full_path(_text(value, "backslashreplace"), path))  # as messages show bytes
    if kind == "exit":
        code = 0 if value is None or value is True else 1 if value is False else value
        if code != 0:
            raise SystemExit(code)


def _text(value, errors="surrogateescape"):
    """A Lua string as Python text: as it is, or (host_text's table of bytes: not UTF-8)
    decoded with `errors`."""
    if isinstance(value, str) or value is None:
        return value
    return bytes(value.values()).decode("utf-8", errors)


def _write(stream, text):
    """print and io.write: bytes that are not UTF-8 as they are where the stream writes
    surrogate escapes so (`earl`'s stdout), as \\xNN elsewhere (stderr, as messages)."""
    if not isinstance(text, str):
        text = _text(text)
        if getattr(stream, "errors", None) != "surrogateescape":
            text = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    stream.write(text)


# Runs Python's pending signal handlers (Ctrl-C's KeyboardInterrupt raises here); called
# from the runtime's count hook. A no-op outside the main thread, as in Python itself.
_poll = ctypes.pythonapi.PyErr_CheckSignals


@functools.lru_cache(maxsize=None)
def _default_runtime():
    return runtime()


def share(trace, runtime=None):
    """Hands a Python earl.EventTrace to Lua as the same C++ trace: one iterator, one
    lock; moving it in either language moves it in both, and closing it closes it for
    both. Returns the Lua trace object (a lupa value) living in `runtime` (by default one
    runtime kept by this module)."""
    ticket = getattr(trace, "_ticket", None)
    if ticket is None:
        raise EarlError(f"share: trace must be an earl.EventTrace, got {type(trace).__name__}")
    lua = _default_runtime() if runtime is None else runtime
    adopt = lua.eval("package.loaded.earl._adopt")
    try:
        return adopt(ticket())
    except _lua54().LuaError as error:
        raise EarlError(_first_line(error)) from None


def _with_full_path(message, path):
    """Lua shortens a long chunk name to "...tail" (LUA_IDSIZE); the user gave the whole
    path, so an error in the script itself names it whole."""
    if message.startswith("..."):
        head, colon, rest = message[3:].partition(":")
        if colon and path.endswith(head):
            return f"{path}:{rest}"
    return message


def _first_line(error):
    """lupa appends a Lua traceback to an error's message; EARL's messages are one line."""
    return str(error).split("\nstack traceback:", 1)[0]


if __name__ == "__main__":
    if sys.argv[1:] == ["--cpath"]:
        print(cpath())
    elif sys.argv[1:] == ["--module"]:
        print(module_path())
    else:
        sys.exit("usage: python -m earl.lua --cpath | --module")
