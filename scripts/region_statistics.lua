-- Region statistics (EARL 2.0 reference, Part III, section 9).
--
-- The Lua twin of scripts/region_statistics.py: same analysis, same output.
--
-- Time spent in each region on each location, inclusive and exclusive of the region
-- instances nested in it. At every exit, the time since its enter (enterptr) is added to
-- the region's inclusive and exclusive time and taken off the exclusive time of the
-- enclosing instance (the enter's own enterptr). Prints one table, by location, the most
-- expensive regions first.
--
--     earl run scripts/region_statistics.lua TRACE
--     LUA_CPATH="$(python -m earl.lua --cpath);;" lua5.4 scripts/region_statistics.lua TRACE
require "earl"

-- Returns a sequence of rows {loc, region, instances, inclusive s, exclusive s}.
local function region_statistics(e)
  local rows, by_key = {}, {}
  local function row(loc, region)
    local key = loc .. "\0" .. region
    if not by_key[key] then
      by_key[key] = {loc, region, 0, 0.0, 0.0}
      rows[#rows + 1] = by_key[key]
    end
    return by_key[key]
  end
  e:reset()
  while e:next() do
    local curr = e:event()
    if curr.type == "exit" and curr.enterptr ~= 0 then   -- an exit with something open
      local enter = e:event(curr.enterptr)
      local diff = curr.time - enter.time
      -- the instance closed is the enter's (an exit naming another region still pops it)
      local r = row(curr.loc, enter.region)
      r[3] = r[3] + 1
      r[4] = r[4] + diff
      r[5] = r[5] + diff
      if enter.enterptr ~= 0 then
        local encl = e:event(enter.enterptr)
        local outer = row(curr.loc, encl.region)
        outer[5] = outer[5] - diff
      end
    end
  end
  return rows
end

local function main(args)
  if #args ~= 1 then
    io.stderr:write("usage: region_statistics.lua TRACE\n")
    os.exit(1)
  end
  local ok, e = pcall(EventTrace, args[1])
  if not ok then
    io.stderr:write("region_statistics.lua: ", tostring(e), "\n")
    os.exit(1)
  end
  local rows = region_statistics(e)
  local width = #"region"
  for _, r in ipairs(rows) do width = math.max(width, #r[2]) end
  table.sort(rows, function(a, b)
    if a[1] ~= b[1] then return a[1] < b[1] end
    if a[4] ~= b[4] then return a[4] > b[4] end
    return a[2] < b[2]
  end)
  local line = "%4s  %-" .. width .. "s  %8s  %12s  %12s"
  print(line:format("loc", "region", "count", "incl [s]", "excl [s]"))
  for _, r in ipairs(rows) do
    print(("%4d  %-" .. width .. "s  %8d  %12.6f  %12.6f"):format(table.unpack(r)))
  end
  e:close()
end

main(arg)
