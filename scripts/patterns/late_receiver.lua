-- Late Receiver (Scalasca 2.6's definition), for blocking sends.
--
-- The Lua twin of late_receiver.py (blocking sends only, as it explains).
--   earl run scripts/patterns/late_receiver.lua TRACE
local SENDING = {MPI_Send = true, MPI_Ssend = true}
local POSTING = {MPI_Recv = true, MPI_Sendrecv = true}

local function path_of(e, enter)
  local names = {}
  for _, p in ipairs(e:stack(enter.loc, enter.pos)) do names[#names + 1] = e:event(p).region end
  return table.concat(names, "/")
end

local function leave_of(e, enter)
  local pos = enter.pos
  while true do
    pos = pos + 1
    local ev = e:event(pos)
    if ev.loc == enter.loc and ev.type == "exit" and ev.enterptr == enter.pos then return ev end
  end
end

local out, e = {}, EventTrace(arg[1])
while e:next() do
  local ev = e:event()
  if ev.type == "recv" and ev.sendptr ~= 0 then
    local send = e:event(ev.sendptr)
    local sc, rc = e:event(send.enterptr), e:event(ev.enterptr)
    if SENDING[sc.region] and POSTING[rc.region] and leave_of(e, sc).time > rc.time
        and rc.time > sc.time then
      local key = sc.loc .. " " .. path_of(e, sc)
      local cell = out[key] or {0.0, 0}
      cell[1], cell[2] = cell[1] + rc.time - sc.time, cell[2] + 1
      out[key] = cell
    end
  end
end
for key, cell in pairs(out) do
  print(string.format("mpi_latereceiver %s %.9f %d", key, cell[1], cell[2]))
end
