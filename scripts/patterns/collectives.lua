-- Wait states in collectives: the Lua twin of collectives.py (same definitions).
--   earl run scripts/patterns/collectives.lua TRACE
local SYNC = {MPI_Barrier = {"mpi_barrier_wait", "mpi_barrier_completion"},
              MPI_Finalize = {"mpi_finalize_wait"}}
for _, f in ipairs({"MPI_Allgather", "MPI_Allgatherv", "MPI_Alltoall", "MPI_Allreduce",
                    "MPI_Reduce_scatter", "MPI_Reduce_scatter_block"}) do
  SYNC[f] = {"mpi_wait_nxn", "mpi_nxn_completion"}
end
local OVERLAP = {MPI_Win_fence = "mpi_rma_wait_at_fence", MPI_Win_create = "mpi_rma_wait_at_create",
                 MPI_Win_allocate = "mpi_rma_wait_at_create", MPI_Win_free = "mpi_rma_wait_at_free"}
local ONE_TO_N = {MPI_Bcast = true, MPI_Scatter = true, MPI_Scatterv = true}
local N_TO_ONE = {MPI_Reduce = true, MPI_Gather = true, MPI_Gatherv = true}
local SCAN = {MPI_Scan = true, MPI_Exscan = true}

local out = {}
local function add(metric, m, idle)
  if idle <= 0 then return end
  local key = metric .. " " .. m.loc .. " " .. m.path
  local cell = out[key] or {0.0, 0}
  cell[1], cell[2] = cell[1] + idle, cell[2] + 1
  out[key] = cell
end

local function path_of(e, enter)
  local names = {}
  for _, p in ipairs(e:stack(enter.loc, enter.pos)) do names[#names + 1] = e:event(p).region end
  return table.concat(names, "/")
end

local function judge(ms)
  table.sort(ms, function(a, b) return a.loc < b.loc end)
  local name, L, E = ms[1].name, -math.huge, math.huge
  for _, m in ipairs(ms) do L, E = math.max(L, m.begin), math.min(E, m["end"]) end
  local nxn = SYNC[name] and SYNC[name][1] == "mpi_wait_nxn"
  if nxn or SCAN[name] then
    local empty = true
    for _, m in ipairs(ms) do empty = empty and m.sizes and m.sent == 0 and m.recvd == 0 end
    if empty then return end
  end
  local root
  for _, m in ipairs(ms) do if m.loc == ms[1].root then root = m end end
  local lower = -math.huge
  for _, m in ipairs(ms) do
    if not m.sizes or m.sent > 0 then lower = math.max(lower, m.begin) end
    if SYNC[name] then
      local lc = math.min(L, m["end"])
      add(SYNC[name][1], m, lc - m.begin)
      if SYNC[name][2] then add(SYNC[name][2], m, m["end"] - math.max(E, lc)) end
    elseif OVERLAP[name] then
      if E > L then add(OVERLAP[name], m, L - m.begin) end
    elseif ONE_TO_N[name] and root and m ~= root and not (root.sizes and root.sent == 0) then
      add("mpi_latebroadcast", m, math.min(root.begin, m["end"]) - m.begin)
    elseif N_TO_ONE[name] and root == m and not (m.sizes and m.recvd == 0) then
      local others = -math.huge
      for _, o in ipairs(ms) do if o ~= m then others = math.max(others, o.begin) end end
      add("mpi_earlyreduce", m, math.min(others, m["end"]) - m.begin)
    elseif SCAN[name] then
      add("mpi_earlyscan", m, math.min(lower, m["end"]) - m.begin)
    end
  end
end

local e = EventTrace(arg[1])
local instances, order, seq, members = {}, {}, {}, {}
while e:next() do
  local ev = e:event()
  if ev.type == "exit" and ev.enterptr ~= 0 then
    local enter = e:event(ev.enterptr)
    local name = enter.region
    if SYNC[name] or OVERLAP[name] or ONE_TO_N[name] or N_TO_ONE[name] or SCAN[name] then
      local key = (ev.com and ev.com >= 0) and ("com " .. ev.com) or name
      local s = (seq[ev.loc .. "|" .. key] or -1) + 1
      seq[ev.loc .. "|" .. key] = s
      local id = key .. "|" .. s
      if not instances[id] then instances[id] = {}; order[#order + 1] = {id, key} end
      -- OTF2's MpiCollectiveBegin/End times where the trace has them
      table.insert(instances[id], {name = name, loc = ev.loc, begin = ev.collbegin or enter.time,
        ["end"] = ev.collend or ev.time,
        root = ev.root or -1, sizes = ev.sent ~= nil, sent = ev.sent or 0, recvd = ev.recvd or 0,
        path = path_of(e, enter)})
      members[key] = members[key] or {}
      members[key][ev.loc] = true
    end
  end
end
for _, entry in ipairs(order) do
  local ms, size = instances[entry[1]], 0
  for _ in pairs(members[entry[2]]) do size = size + 1 end
  local same = true
  for _, m in ipairs(ms) do same = same and m.name == ms[1].name end
  if #ms >= size and #ms >= 2 and same then judge(ms) end
end
for key, cell in pairs(out) do print(string.format("%s %.9f %d", key, cell[1], cell[2])) end
