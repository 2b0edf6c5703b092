"""Lua loop against Python loop over the same trace, in the same run; prints events/s.

usage: measure_lua.py [TRACE] [--events N] [--locations N] [--repeat N]

Without TRACE, writes a generated OTF2 archive (`earl gen X.otf2 -f otf2 -n 16 -e N`,
default 10^7 events) to a temporary directory. The trace is opened once in Python and
shared with Lua (earl.lua.share), so both loops read the same C++ trace and its cache:

    Python:  while e.next(): e.event()
    Lua:     while e:next() do local ev = e:event() end        (lupa, in this process)

and, where `lua5.4` is installed, the Lua loop in a standalone interpreter (which opens
the trace itself; only its loop is timed, with os.clock). Each loop runs --repeat times;
the median is reported.
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

import earl
import earl.lua
import language_loops

LUA_LOOP = "local n = 0; e:reset(); while e:next() do local ev = e:event(); n = n + 1 end; return n"
# What the Ctrl-C hook costs (bindings/lua/lua_interrupt.h: a count hook makes Lua 5.4 trap
# every instruction): the loops above and an arithmetic loop, each also without the hook
# (removed for the run, then set again as earl.lua sets it).
ARITHMETIC = "local s = 0; for i = 1, 3 * 10^7 do s = s + i % 7 end; return 3 * 10^7"
UNHOOKED = "debug.sethook(); local ok, n = pcall(function() {loop} end); earl_rehook(); return n"

STANDALONE = """
require "earl"
local e = EventTrace(arg[1])
-- an untimed first pass: the event cache is still being filled on a second thread, whose
-- CPU time os.clock() would count
while e:next() do end
e:reset()
for _ = 1, tonumber(arg[2]) do
  local start = os.clock()
  local n = 0
  while e:next() do local ev = e:event(); n = n + 1 end
  print(n, os.clock() - start)
  e:reset()
end
"""


def standalone(path, repeat):
    lua = shutil.which("lua5.4")
    if lua is None:
        return None
    env = dict(os.environ, LUA_CPATH=earl.lua.cpath() + ";;")
    out = subprocess.run([lua, "-", path, str(repeat)], input=STANDALONE, text=True,
                         capture_output=True, env=env, check=True).stdout
    runs = [line.split("\t") for line in out.splitlines()]
    return int(runs[0][0]), statistics.median(float(s) for _, s in runs)


def main():
    parser = language_loops.parser(__doc__.splitlines()[0])
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="earl-bench-lua-") as tmp:
        path, e = language_loops.open_trace(args, tmp)

        lua = earl.lua.runtime()
        lua.globals().e = earl.lua.share(e, lua)
        rehook = lua.eval("package.loaded.earl._interruptible")
        lua.globals().earl_rehook = lambda: rehook(earl.lua._poll)
        results = [("Python  while e.next(): e.event()", *language_loops.timed(language_loops.python_loop(e), args.repeat)),
                   ("Lua     while e:next() do local ev = e:event() end  (lupa)",
                    *language_loops.timed(lambda: lua.execute(LUA_LOOP), args.repeat)),
                   ("Lua     the same loop without the Ctrl-C hook  (lupa)",
                    *language_loops.timed(lambda: lua.execute(UNHOOKED.format(loop=LUA_LOOP)), args.repeat)),
                   ("Lua     for i = 1, 3*10^7 do s = s + i % 7 end  (lupa)",
                    *language_loops.timed(lambda: lua.execute(ARITHMETIC), args.repeat)),
                   ("Lua     the same, without the Ctrl-C hook  (lupa)",
                    *language_loops.timed(lambda: lua.execute(UNHOOKED.format(loop=ARITHMETIC)), args.repeat))]
        e.close()
        alone = standalone(path, args.repeat)
        if alone:
            results.append(("Lua     the same loop in standalone lua5.4 (os.clock)", *alone))

    language_loops.print_table(results)
    python_rate = results[0][1] / results[0][2]
    lua_rate = results[1][1] / results[1][2]
    print(f"Lua (lupa) / Python: {lua_rate / python_rate:.2f}x  (load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    sys.exit(main())
