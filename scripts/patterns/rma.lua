-- One-sided wait states of RMA epochs and locks (Scalasca 2.6's MPI_RMA patterns).
--
-- The Lua twin of rma.py (same definitions): active-target epochs and passive-target locks.
--   earl run scripts/patterns/rma.lua TRACE
local ACCESS = {MPI_Win_start = "open", MPI_Win_complete = "close"}
local EXPOSURE = {MPI_Win_post = "open", MPI_Win_wait = "close"}
local RMA_OPS = {put_1ts = true, get_1to = true}
local RMA_CALLS = {}
for _, f in ipairs({"Put", "Get", "Accumulate", "Get_accumulate", "Fetch_and_op", "Compare_and_swap",
                    "Rput", "Rget", "Raccumulate", "Rget_accumulate"}) do
  RMA_CALLS["MPI_" .. f] = true
end
local WIN_MANAGEMENT = {MPI_Win_create = true, MPI_Win_allocate = true, MPI_Win_allocate_shared = true,
                        MPI_Win_create_dynamic = true, MPI_Win_free = true}
local NONE = -math.huge

local out = {}
local function add(metric, loc, path, idle)
  local key = metric .. " " .. loc .. " " .. path
  local cell = out[key] or {0.0, 0}
  cell[1], cell[2] = cell[1] + idle, cell[2] + 1
  out[key] = cell
end

local function path_of(e, enter)
  local names = {}
  for _, p in ipairs(e:stack(enter.loc, enter.pos)) do names[#names + 1] = e:event(p).region end
  return table.concat(names, "/")
end

local function key(...) return table.concat({...}, "|") end

-- The operation joins the access epoch open on its window, and is the last to its target.
local function op_ended(here, op, leave, path)
  local opened = here.open.access
  local epoch = opened[op.window] or opened[-1]
  if epoch then table.insert(epoch.ops, {issued = op.issued, leave = leave, path = path}) end
  if op.target >= 0 then
    local k = key(op.window, op.target)
    here.last_op[k] = math.max(here.last_op[k] or leave, leave)
  end
end

local function members(e, group)
  local ok, found = pcall(e.members, e, group)
  return ok and found or {}  -- a group the trace does not define: no peers
end

local function epoch(e, here, side, role, call, window, group, closed)
  local opened = here.open[side]
  if role == "open" then
    opened[window] = {call = call, window = window, group = group, ops = {}}
    return
  end
  -- the epoch open on this window, else on a window no record named, else the only one
  local found
  for _, w in ipairs({window, -1}) do
    if not found and opened[w] then found, opened[w] = opened[w], nil end
  end
  if not found and window < 0 then
    local only, count = nil, 0
    for w in pairs(opened) do only, count = w, count + 1 end
    if count == 1 then found, opened[only] = opened[only], nil end
  end
  found = found or {window = -1, group = -1, ops = {}}
  if group < 0 then group = found.group end
  if window < 0 then window = found.window end
  if group < 0 or window < 0 then return end
  local since = found.call and found.call.enter or NONE
  local peers = {}
  for _, peer in ipairs(members(e, group)) do
    if peer >= 0 then
      local last = side == "access" and here.last_op[key(window, peer)] or NONE
      local k = key(side, window, peer)
      here.seq[k] = (here.seq[k] or -1) + 1
      peers[#peers + 1] = {peer = peer, n = here.seq[k], last = last >= since and last or NONE}
    end
  end
  table.insert(closed, {loc = call.loc, window = window, open = found.call, close = call, peers = peers,
                        ops = found.ops})
end

local function active_target(accesses, exposures)
  local access_of, exposure_of = {}, {}
  for _, a in ipairs(accesses) do
    for _, t in ipairs(a.peers) do access_of[key(a.loc, t.peer, a.window, t.n)] = {a, t.last} end
  end
  for _, x in ipairs(exposures) do
    for _, o in ipairs(x.peers) do exposure_of[key(o.peer, x.loc, x.window, o.n)] = x end
  end
  for _, x in ipairs(exposures) do
    local c, last = NONE, NONE
    for _, o in ipairs(x.peers) do
      local found = access_of[key(o.peer, x.loc, x.window, o.n)]
      if found then c, last = math.max(c, found[1].close.enter), math.max(last, found[2]) end
    end
    local wait = x.close
    local until_ = math.min(c, wait.leave)
    if c > NONE and until_ - wait.enter > 0 then
      add("mpi_rma_early_wait", wait.loc, wait.path, until_ - wait.enter)
      local late = until_ - math.max(last, wait.enter)
      if last > NONE and late > 0 then add("mpi_rma_late_complete", wait.loc, wait.path, late) end
    end
  end
  for _, a in ipairs(accesses) do
    local p = NONE
    for _, t in ipairs(a.peers) do
      local x = exposure_of[key(a.loc, t.peer, a.window, t.n)]
      if x and x.open then p = math.max(p, x.open.enter) end
    end
    local start, complete = a.open, a.close
    if p == NONE then
      -- no post: nothing to judge
    elseif complete.enter < p and p < complete.leave then
      add("mpi_rma_sync_late_post", a.loc, complete.path, p - complete.enter)
    elseif start and start.enter < p and p < start.leave then
      add("mpi_rma_sync_late_post", a.loc, start.path, p - start.enter)
    else
      for _, op in ipairs(a.ops) do
        if op.issued < p and p < op.leave then add("mpi_rma_comm_late_post", a.loc, op.path, p - op.issued) end
      end
    end
  end
end

local function lock_competition(locks)
  table.sort(locks, function(a, b)
    if a.window ~= b.window then return a.window < b.window end
    if a.target ~= b.target then return a.target < b.target end
    if a.acquired ~= b.acquired then return a.acquired < b.acquired end
    return a.loc < b.loc
  end)
  local released = {}  -- (window, target) -> latest release of any epoch so far, of an exclusive one
  for _, lock in ipairs(locks) do
    local k = key(lock.window, lock.target)
    local before = released[k] or {NONE, NONE}
    released[k] = before
    local blocker = lock.exclusive == 1 and before[1] or before[2]
    local idle = math.min(blocker, lock.acquired) - lock.requested
    local region = lock.region or ""
    local metric = RMA_CALLS[region] and "mpi_rma_comm_lock_competition"
        or (region:sub(1, 8) == "MPI_Win_" and not WIN_MANAGEMENT[region]) and "mpi_rma_sync_lock_competition"
        or nil
    if metric and blocker > NONE and idle > 0 then add(metric, lock.loc, lock.path, idle) end
    before[1] = math.max(before[1], lock.released)
    if lock.exclusive == 1 then before[2] = math.max(before[2], lock.released) end
  end
end

local e = EventTrace(arg[1])
local synced, issued, state = {}, {}, {}
local accesses, exposures, locks = {}, {}, {}
while e:next() do
  local ev = e:event()
  local here = state[ev.loc]
  if not here then
    here = {open = {access = {}, exposure = {}}, seq = {}, last_op = {}, held = {}}
    state[ev.loc] = here
  end
  local at = ev.enterptr
  if ev.type == "rma_group_sync" and at ~= 0 then
    synced[at] = {ev.data2, ev.group}
  elseif RMA_OPS[ev.type] then
    local op = {window = ev.win, target = ev.peer, issued = ev.time}
    if at ~= 0 then
      issued[at] = issued[at] or {}
      table.insert(issued[at], op)
    else
      op_ended(here, op, ev.time, nil)
    end
  elseif ev.type == "wlock" and ev.request == 0 then
    local call = at ~= 0 and e:event(at) or nil
    here.held[key(ev.win, ev.peer)] = {window = ev.win, target = ev.peer, exclusive = ev.exclusive,
      loc = ev.loc, requested = call and call.time or ev.time, acquired = ev.time,
      region = call and call.region, path = call and path_of(e, call)}
  elseif ev.type == "wunlock" and here.held[key(ev.win, ev.peer)] then
    local lock = here.held[key(ev.win, ev.peer)]
    here.held[key(ev.win, ev.peer)] = nil
    lock.released = ev.time
    locks[#locks + 1] = lock
  elseif ev.type == "exit" and at ~= 0 then
    local enter = e:event(at)
    local call = {enter = enter.time, leave = ev.time, loc = ev.loc, path = path_of(e, enter)}
    for _, op in ipairs(issued[at] or {}) do op_ended(here, op, ev.time, call.path) end
    issued[at] = nil
    local sync = synced[at] or {-1, -1}
    synced[at] = nil
    local region = enter.region
    if ACCESS[region] then
      epoch(e, here, "access", ACCESS[region], call, sync[1], sync[2], accesses)
    elseif EXPOSURE[region] then
      epoch(e, here, "exposure", EXPOSURE[region], call, sync[1], sync[2], exposures)
    end
  end
end
active_target(accesses, exposures)
lock_competition(locks)
for k, cell in pairs(out) do print(string.format("%s %.9f %d", k, cell[1], cell[2])) end
