-- Wasted time of MPI_Recv (EARL 2.0 reference, Part III, section 7).
--
-- The Lua twin of scripts/wasted_time.py: same analysis, same output.
--
-- A receive posted before its matching send was started waits at least
-- (enter time of MPI_Send) - (enter time of MPI_Recv). This script sums that time over
-- all receives made inside MPI_Recv whose message was sent inside MPI_Send, and breaks
-- it down by receiving location.
--
--     earl run scripts/wasted_time.lua TRACE
--     LUA_CPATH="$(python -m earl.lua --cpath);;" lua5.4 scripts/wasted_time.lua TRACE
require "earl"

-- Returns the total seconds and {[receiving loc] = {late receives, seconds}}.
local function wasted_time(e)
  local total, per_loc = 0.0, {}
  e:reset()
  while e:next() do
    local curr = e:event()
    -- no enclosing region or no matching send: 0 is true in Lua, so compare with 0
    if curr.type == "recv" and curr.enterptr ~= 0 and curr.sendptr ~= 0 then
      local recv_start = e:event(curr.enterptr)
      local send = e:event(curr.sendptr)
      -- e.g. received inside MPI_Bcast, or sent outside any region
      if recv_start.region == "MPI_Recv" and send.enterptr ~= 0 then
        local send_start = e:event(send.enterptr)
        local wasted = send_start.time - recv_start.time
        if send_start.region == "MPI_Send" and wasted > 0 then
          total = total + wasted
          local late = per_loc[curr.loc] or {0, 0.0}
          late[1] = late[1] + 1
          late[2] = late[2] + wasted
          per_loc[curr.loc] = late
        end
      end
    end
  end
  return total, per_loc
end

local function main(args)
  if #args ~= 1 then
    io.stderr:write("usage: wasted_time.lua TRACE\n")
    os.exit(1)
  end
  local ok, e = pcall(EventTrace, args[1])
  if not ok then
    io.stderr:write("wasted_time.lua: ", tostring(e), "\n")
    os.exit(1)
  end
  local total, per_loc = wasted_time(e)
  print(("%s: %.6f sec wasted."):format(e:file(), total))
  local locs = {}
  for loc in pairs(per_loc) do locs[#locs + 1] = loc end
  table.sort(locs)
  local labels, width = {}, 20
  for _, loc in ipairs(locs) do
    local name = e:locsym(loc)
    labels[loc] = name == loc and tostring(loc) or ("%d (%s)"):format(loc, name)
    width = math.max(width, #labels[loc])
  end
  if #locs > 0 then
    print(("  %-" .. width .. "s %10s %12s"):format("receiver", "late recvs", "wasted [s]"))
  end
  for _, loc in ipairs(locs) do
    print(("  %-" .. width .. "s %10d %12.6f"):format(labels[loc], per_loc[loc][1], per_loc[loc][2]))
  end
  e:close()
end

main(arg)
