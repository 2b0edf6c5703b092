-- Data received per location, as a bar chart (EARL thesis, section 7.4).
--
-- The Lua twin of scripts/data_received.py: same analysis, same output; the chart is a
-- PNG drawn by scripts/barchart.lua (bars, axes, title, location names and values).
--
--     earl run scripts/data_received.lua TRACE [OUTPUT.png]
--     LUA_CPATH="$(python -m earl.lua --cpath);;" lua5.4 scripts/data_received.lua TRACE --output OUTPUT.png
-- The chart goes to data_received.png in the current directory by default.
require "earl"

-- barchart.lua sits beside this script, wherever the script is run from.
local here = (arg and arg[0] or ""):match("^(.*)[/\\]") or "."
package.path = here .. "/?.lua;" .. package.path
local barchart = require "barchart"

-- Returns the bytes received, a sequence indexed by location + 1.
local function data_received(e)
  local received = {}
  for loc = 1, e:nrlocs() do received[loc] = 0 end
  e:reset()
  while e:next() do
    local curr = e:event()
    if curr.type == "recv" then received[curr.loc + 1] = received[curr.loc + 1] + curr.len end
  end
  return received
end

local function usage(problem)
  io.stderr:write("usage: data_received.lua TRACE [OUTPUT] [--output OUTPUT]\n",
                  "data_received.lua: error: ", problem, "\n")
  os.exit(2)
end

local function parse(args)
  local positional, output_option = {}, nil
  local i = 1
  while i <= #args do
    if args[i] == "--output" then
      if not args[i + 1] then usage("argument --output: expected one argument") end
      output_option, i = args[i + 1], i + 2
    else
      positional[#positional + 1], i = args[i], i + 1
    end
  end
  if #positional < 1 then usage("the following arguments are required: trace") end
  if #positional > 2 then usage("unrecognized arguments: " .. positional[3]) end
  return positional[1], output_option or positional[2] or "data_received.png"
end

local function main(args)
  local trace, output = parse(args)
  local ok, e = pcall(EventTrace, trace)
  if not ok then
    io.stderr:write("data_received.lua: ", tostring(e), "\n")
    os.exit(1)
  end
  local received = data_received(e)
  local labels, width = {}, 20
  for loc = 0, #received - 1 do
    local name = e:locsym(loc)
    labels[loc + 1] = name == loc and tostring(loc) or ("%d (%s)"):format(loc, name)
    width = math.max(width, #labels[loc + 1])
  end
  print(("%-" .. width .. "s %14s %12s"):format("location", "bytes", "KBytes"))
  local total = 0
  for i, count in ipairs(received) do
    print(("%-" .. width .. "s %14d %12.1f"):format(labels[i], count, count / 1024))
    total = total + count
  end
  print(("%s: %d bytes received in total."):format(e:file(), total))
  local kbytes, names = {}, {}
  for loc = 0, #received - 1 do
    kbytes[loc + 1], names[loc + 1] = received[loc + 1] / 1024, tostring(e:locsym(loc))
  end
  local written, problem = barchart.write(output, kbytes, {
    labels = names, unit = "data [KBytes]", format = "%.1f",
    title = "Data received per location: " .. (e:file():match("([^/\\]+)[/\\]*$") or e:file())})
  if not written then
    io.stderr:write(("data_received.lua: cannot write %s: %s\n"):format(output, problem))
    os.exit(1)
  end
  print("bar chart: " .. output)
  e:close()
end

main(arg)
