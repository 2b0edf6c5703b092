-- Wait states in collectives (Scalasca 2.6's definitions).
--
-- The Lua twin of collectives.py (same definitions).
--   earl run scripts/patterns/collectives.lua TRACE
local SYNC = {MPI_Barrier = {"mpi_barrier_wait", "mpi_barrier_completion"},
              MPI_Finalize = {"mpi_finalize_wait"},
              MPI_Init = {false, "mpi_init_completion"}, MPI_Init_thread = {false, "mpi_init_completion"}}
for _, f in ipairs({"MPI_Allgather", "MPI_Allgatherv", "MPI_Alltoall", "MPI_Allreduce",
                    "MPI_Reduce_scatter", "MPI_Reduce_scatter_block"}) do
  SYNC[f] = {"mpi_wait_nxn", "mpi_nxn_completion"}
end
local OVERLAP = {MPI_Win_fence = "mpi_rma_wait_at_fence", MPI_Win_create = "mpi_rma_wait_at_create",
                 MPI_Win_allocate = "mpi_rma_wait_at_create", MPI_Win_free = "mpi_rma_wait_at_free"}
local ONE_TO_N = {MPI_Bcast = true, MPI_Scatter = true, MPI_Scatterv = true}
local N_TO_ONE = {MPI_Reduce = true, MPI_Gather = true, MPI_Gatherv = true}
local SCAN = {MPI_Scan = true, MPI_Exscan = true}
local RMA_OPS = {put_1ts = true, get_1to = true}

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

-- ends[target] = the later of it and `time`.
local function latest(ends, target, time)
  if not ends[target] or ends[target] < time then ends[target] = time end
end

-- Members in rank order: the communicator's (rank_of[loc]) where the trace names it (OTF2),
-- else location order (ALOG).
local function judge(ms, ops_to, rank_of)
  local function rank(m) return rank_of[m.loc] or math.huge end
  table.sort(ms, function(a, b)
    if rank(a) ~= rank(b) then return rank(a) < rank(b) end
    return a.loc < b.loc
  end)
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
      if SYNC[name][1] then add(SYNC[name][1], m, lc - m.begin) end
      if SYNC[name][2] then add(SYNC[name][2], m, m["end"] - math.max(E, lc)) end
    elseif OVERLAP[name] then
      if E > L then add(OVERLAP[name], m, L - m.begin) end
      local last = ops_to[m.loc]
      if name == "MPI_Win_fence" and E > L and L > m.begin and last and m.begin < last and last <= m["end"] then
        add("mpi_rma_early_fence", m, math.min(last, L) - m.begin)
      end
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
-- Early Fence: the (window, target) of the RMA operations each call issued (by its
-- enter's position), per location and window the end of its last operation to each
-- target since its last fence (an MPI_Win_complete takes its window's out), per fence
-- instance the same over all its members.
local issued, since_fence, fence_ops = {}, {}, {}
local synced, starts = {}, {}  -- the window a call's rma_group_sync names; open MPI_Win_start windows
local function note_op(loc, window, target, time)
  since_fence[loc] = since_fence[loc] or {}
  since_fence[loc][window] = since_fence[loc][window] or {}
  latest(since_fence[loc][window], target, time)
end
-- The window of the epoch an MPI_Win_complete closes, as collectives.py's closed_window.
local function closed_window(open, window)
  for _, w in ipairs({window, -1}) do
    if open[w] then open[w] = nil; return window end
  end
  local only, count = nil, 0
  for w in pairs(open) do only, count = w, count + 1 end
  if window < 0 and count == 1 then open[only] = nil; return only end
  return window
end
while e:next() do
  local ev = e:event()
  if ev.type == "rma_group_sync" and ev.enterptr ~= 0 then synced[ev.enterptr] = ev.data2 end
  if RMA_OPS[ev.type] then
    if ev.enterptr ~= 0 then
      issued[ev.enterptr] = issued[ev.enterptr] or {}
      table.insert(issued[ev.enterptr], {ev.win, ev.peer})
    else
      note_op(ev.loc, ev.win, ev.peer, ev.time)
    end
  elseif ev.type == "exit" and ev.enterptr ~= 0 then
    for _, op in ipairs(issued[ev.enterptr] or {}) do note_op(ev.loc, op[1], op[2], ev.time) end
    issued[ev.enterptr] = nil
    local enter = e:event(ev.enterptr)
    local name = enter.region
    local window = synced[ev.enterptr] or -1
    synced[ev.enterptr] = nil
    starts[ev.loc] = starts[ev.loc] or {}
    if name == "MPI_Win_start" then
      starts[ev.loc][window] = true
    elseif name == "MPI_Win_complete" then
      window = closed_window(starts[ev.loc], window)
      if window >= 0 and since_fence[ev.loc] then since_fence[ev.loc][window] = nil end
    end
    if SYNC[name] or OVERLAP[name] or ONE_TO_N[name] or N_TO_ONE[name] or SCAN[name] then
      local key = (ev.com and ev.com >= 0) and ("com " .. ev.com) or name
      local s = (seq[ev.loc .. "|" .. key] or -1) + 1
      seq[ev.loc .. "|" .. key] = s
      local id = key .. "|" .. s
      if not instances[id] then
        instances[id] = {}
        order[#order + 1] = {id, key, (ev.com and ev.com >= 0) and ev.com or nil}
      end
      if name == "MPI_Win_fence" then
        fence_ops[id] = fence_ops[id] or {}
        for _, targets in pairs(since_fence[ev.loc] or {}) do
          for target, time in pairs(targets) do latest(fence_ops[id], target, time) end
        end
        since_fence[ev.loc] = nil
      end
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
local rank_maps = {}
local function ranks_of(com)
  if com == nil then return {} end
  if not rank_maps[com] then
    local named, ranks = pcall(e.ranks, e, com)
    local map = {}
    if named then for r, loc in ipairs(ranks) do map[loc] = r end end
    rank_maps[com] = map
  end
  return rank_maps[com]
end
for _, entry in ipairs(order) do
  local ms, size = instances[entry[1]], 0
  for _ in pairs(members[entry[2]]) do size = size + 1 end
  local same = true
  for _, m in ipairs(ms) do same = same and m.name == ms[1].name end
  if #ms >= size and #ms >= 2 and same then judge(ms, fence_ops[entry[1]] or {}, ranks_of(entry[3])) end
end
for key, cell in pairs(out) do print(string.format("%s %.9f %d", key, cell[1], cell[2])) end
