-- Late Sender and Late Sender, wrong order (Scalasca 2.6's definitions).
--
-- The Lua twin of late_sender.py (same definitions, same output: metric, location, call
-- path, seconds, instances).
--   earl run scripts/patterns/late_sender.lua TRACE
local RECEIVING = {MPI_Recv = true, MPI_Sendrecv = true, MPI_Wait = true, MPI_Waitany = true}
local MANY = {MPI_Waitall = true, MPI_Waitsome = true}

local function path_of(e, enter)
  local names = {}
  for _, p in ipairs(e:stack(enter.loc, enter.pos)) do names[#names + 1] = e:event(p).region end
  return table.concat(names, "/")
end

local function add(out, metric, loc, path, seconds)
  out[metric] = out[metric] or {}
  local key = loc .. " " .. path
  local cell = out[metric][key] or {0.0, 0}
  cell[1], cell[2] = cell[1] + seconds, cell[2] + 1
  out[metric][key] = cell
end

local function find(e, out)
  local received, kept = {}, {}
  e:reset()
  while e:next() do
    local ev = e:event()
    if ev.type == "recv" and ev.sendptr ~= 0 then
      local send = e:event(ev.sendptr)
      local list = received[ev.enterptr] or {}
      list[#list + 1] = {t = e:event(send.enterptr).time, send = send}
      received[ev.enterptr] = list
    elseif ev.type == "exit" and received[ev.enterptr] then
      local call, msgs = e:event(ev.enterptr), received[ev.enterptr]
      received[ev.enterptr] = nil
      local lates = kept[ev.loc] or {}
      kept[ev.loc] = lates
      for _, m in ipairs(msgs) do                  -- wrong order: an older message came later
        local i = 1
        while i <= #lates do
          local late = lates[i]
          if m.send.time < late.send.time then
            local kind = late.send.loc == m.send.loc and "mpi_lswo_same" or "mpi_lswo_different"
            add(out, "mpi_latesender_wo", ev.loc, late.path, late.idle)
            add(out, kind, ev.loc, late.path, late.idle)
            table.remove(lates, i)
          else
            i = i + 1
          end
        end
      end
      local idles = {}
      for _, m in ipairs(msgs) do
        local idle = math.min(m.t, ev.time) - call.time
        if idle > 0 then idles[#idles + 1] = {idle = idle, send = m.send} end
      end
      if MANY[call.region] and #idles > 0 then
        local worst = idles[1]
        for _, i in ipairs(idles) do if i.idle > worst.idle then worst = i end end
        idles = {worst}
      end
      if RECEIVING[call.region] or MANY[call.region] then
        for _, i in ipairs(idles) do
          local path = path_of(e, call)
          add(out, "mpi_latesender", ev.loc, path, i.idle)
          lates[#lates + 1] = {send = i.send, path = path, idle = i.idle}
          if #lates > 100 then table.remove(lates, 1) end
        end
      end
    end
  end
  return out
end

local function print_all(out)
  for metric, cells in pairs(out) do
    for key, cell in pairs(cells) do
      print(string.format("%s %s %.9f %d", metric, key, cell[1], cell[2]))
    end
  end
end

print_all(find(EventTrace(arg[1]), {}))
