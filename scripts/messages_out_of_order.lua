-- Messages passed out of order (EARL 2.0 reference, Part III, section 8).
--
-- The Lua twin of scripts/messages_out_of_order.py: same analysis, same output.
--
-- At every receive, the message queue from the sender to the receiver is checked for
-- messages sent before the one just received: positions follow time, so a queued send
-- with a smaller position than the receive's sendptr is older. Each such receive is
-- reported with the tags of the older messages it overtook.
--
--     earl run scripts/messages_out_of_order.lua TRACE
--     LUA_CPATH="$(python -m earl.lua --cpath);;" lua5.4 scripts/messages_out_of_order.lua TRACE
require "earl"

-- Returns a sequence of {pos, time, src, dest, tag, {tags of older queued messages}}.
local function messages_out_of_order(e)
  local findings = {}
  e:reset()
  while e:next() do
    local curr = e:event()
    if curr.type == "recv" then
      local older = {}
      for _, send in ipairs(e:queue(curr.src, curr.loc)) do
        if send < curr.sendptr then older[#older + 1] = e:event(send).tag end
      end
      if #older > 0 then
        findings[#findings + 1] = {curr.pos, curr.time, curr.src, curr.loc, curr.tag, older}
      end
    end
  end
  return findings
end

local function main(args)
  if #args ~= 1 then
    io.stderr:write("usage: messages_out_of_order.lua TRACE\n")
    os.exit(1)
  end
  local ok, e = pcall(EventTrace, args[1])
  if not ok then
    io.stderr:write("messages_out_of_order.lua: ", tostring(e), "\n")
    os.exit(1)
  end
  local findings = messages_out_of_order(e)
  local overtaken = 0
  for _, f in ipairs(findings) do
    local pos, time, src, dest, tag, older = table.unpack(f)
    print(("event %d at %.6f s: location %d received tag %d from location %d before older tag(s) %s")
          :format(pos, time, dest, tag, src, table.concat(older, ", ")))
    overtaken = overtaken + #older
  end
  print(("%s: %d messages received out of order (%d older messages overtaken).")
        :format(e:file(), #findings, overtaken))
  e:close()
end

main(arg)
