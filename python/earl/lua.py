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
  function methods:write(...) write(joined(...)) return self end
  function methods:flush() return self end
  function methods:setvbuf() return true end
  return setmetatable({}, {__index = methods, __name = "FILE*"})
end

io.stdout = stream(write_out)
io.stderr = stream(write_err)
function io.write(...) write_out(joined(...)) return io.stdout end
function print(...)
  local parts = {}
  for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
  write_out(table.concat(parts, "\t") .. "\n")
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
  return "error", tostring(err)
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
        lua.execute(_SETUP, path, lambda text: sys.stdout.write(text),
                    lambda text: sys.stderr.write(text), _poll)
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
        raise EarlError(_with_full_path(value, path))
    if kind == "exit":
        code = 0 if value is None or value is True else 1 if value is False else value
        if code != 0:
            raise SystemExit(code)


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
