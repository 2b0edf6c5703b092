"""atheris target: EARL's Lua module (bindings/lua) as lupa runs it, with random call
sequences on small traces (fuzz/script_api_calls.py): EventTrace methods with hostile
arguments (64-bit extremes, NaN, strings with NUL or bytes that are not UTF-8, tables,
nil, the trace itself), called with `:` and with `.`, before and after close(); the
constructor with hostile options; P2Statistic from hostile states. Every call runs inside
Lua's pcall and must return or raise a Lua error whose object is a one-line-or-more
string that is not "unexpected C++ exception". A crash, a sanitizer report, a hang, a
C++ exception escaping, an error of another type, or lupa failing to take the answer back
is a finding. The C++ core is not instrumented: the search is random over call
sequences rather than guided into the core (the libFuzzer targets cover the decoders).

Run: python fuzz/lua_api_fuzzer.py CORPUS_DIR -max_total_time=60 (`make fuzz` does it).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_api_calls import sequence, traces  # noqa: E402

VALUES = ["0", "1", "2", "-1", "3", "17", "40", "math.maxinteger", "math.mininteger", "2^63", "-2^63",
          "2^64", "1.5", "0/0", "1/0", "-1/0", "nil", "'x'", "''", "'a\\0b'", "'\\xff\\xfe'", "{}",
          "{1, 2}", "true", "e", "2147483648", "-2147483649", "'main'", "'MPI'", "'gen'"]
OPTIONS = ["bdist", "hsize", "cache", "memory", "index", "time_correct", "min_latency", "format", "strict", "junk"]

# Runs one call protected, on the trace (TRACE), the globals (P2Statistic) or a new
# P2Statistic, with arguments given as indexes into the values (made in Lua: lupa never
# converts a name); returns nothing, or a finding.
HARNESS = r"""
local source = ...
local values = load("local e = ... return {" .. source .. "}")
return function(e, target, method, dot, ...)
  local pool, picked = values(e), table.pack(...)
  local arguments = {n = picked.n}
  for i = 1, picked.n do arguments[i] = pool[picked[i]] end
  if target == "P2Statistic" then target = P2Statistic()
  elseif target == "globals" then target = _G
  else target = e end
  local ok, problem = pcall(function()
    if dot then return target[method](table.unpack(arguments, 1, arguments.n)) end
    return target[method](target, table.unpack(arguments, 1, arguments.n))
  end)
  if ok then return nil end
  if type(problem) ~= "string" then return "error object of type " .. type(problem) end
  if problem:find("unexpected C++ exception", 1, true) then return problem end
  return nil
end
"""

lua = None
harness = None
PATHS = []
METHODS = []


def check(data: bytes):
    import atheris

    fdp = atheris.FuzzedDataProvider(data)
    lua.globals().path = PATHS[fdp.ConsumeIntInRange(0, len(PATHS) - 1)]
    finding = lua.execute("e = EventTrace(path)")
    options = {OPTIONS[fdp.ConsumeIntInRange(0, len(OPTIONS) - 1)]: fdp.ConsumeIntInRange(0, len(VALUES) - 1)
               for _ in range(fdp.ConsumeIntInRange(0, 2))}
    if options:
        table = "{file = path, " + ", ".join(f"{k} = {VALUES[v]}" for k, v in options.items()) + "}"
        finding = lua.execute(f"local ok, p = pcall(EventTrace, {table}) "
                              "if not ok and type(p) ~= 'string' then return 'constructor: ' .. type(p) end")
        assert finding is None, finding
    e = lua.globals().e
    for method, arguments in sequence(fdp, METHODS, list(range(1, len(VALUES) + 1))):
        dot = method.startswith(".") or method == "P2Statistic"
        name = method.lstrip(".")
        target = "globals" if name == "P2Statistic" else "P2Statistic" if name.startswith("P2Statistic:") else "trace"
        finding = harness(e, target, name.split(":")[-1], dot, *arguments)
        assert finding is None, (method, [VALUES[a - 1] for a in arguments], finding)


def main():
    global lua, harness
    import atheris
    import earl.lua

    lua = earl.lua.runtime()
    harness = lua.execute(HARNESS, ", ".join(VALUES))
    PATHS.extend(traces())
    lua.globals().path = PATHS[0]
    names = sorted(lua.execute("local n = {} for k in pairs(getmetatable(EventTrace(path)).__index) do "
                               "n[#n + 1] = k end return n").values())
    METHODS.extend(names + ["." + n for n in names[:5]] + ["close"]
                   + ["P2Statistic", "P2Statistic:add", "P2Statistic:add_many", "P2Statistic:state",
                      "P2Statistic:q25", "P2Statistic:var"])
    atheris.Setup(sys.argv, atheris.instrument_func(check))
    atheris.Fuzz()


if __name__ == "__main__":
    main()
