-- Helper of data_received: writes a bar chart as a PNG file (not run on its own).
--
-- In plain Lua 5.4, for scripts/data_received.lua: gray bars
-- with black edges on white, with axes, each bar numbered below (from 0, as locations
-- are) and the peak value written at the top of the y axis, in a 3x5 pixel digit font
-- drawn here, since plain Lua has no font renderer. The PNG holds uncompressed (stored) deflate blocks,
-- which every PNG reader accepts, so no zlib is needed.
local barchart = {}

local crc_table = {}
for n = 0, 255 do
  local c = n
  for _ = 1, 8 do c = (c & 1 ~= 0) and (0xEDB88320 ~ (c >> 1)) or (c >> 1) end
  crc_table[n] = c
end

local function crc32(data)
  local c = 0xFFFFFFFF
  for i = 1, #data do c = crc_table[(c ~ data:byte(i)) & 0xFF] ~ (c >> 8) end
  return c ~ 0xFFFFFFFF
end

local function adler32(data)
  local a, b = 1, 0
  for i = 1, #data do
    a = (a + data:byte(i)) % 65521
    b = (b + a) % 65521
  end
  return (b << 16) | a
end

local function chunk(kind, body)
  return (">I4"):pack(#body) .. kind .. body .. (">I4"):pack(crc32(kind .. body))
end

-- zlib stream of stored blocks (at most 65535 bytes each).
local function zlib_stored(data)
  local parts, pos = {"\x78\x01"}, 1
  repeat
    local block = data:sub(pos, pos + 65534)
    pos = pos + #block
    local final = pos > #data and 1 or 0
    parts[#parts + 1] = ("<BI2I2"):pack(final, #block, (~#block) & 0xFFFF) .. block
  until pos > #data
  parts[#parts + 1] = (">I4"):pack(adler32(data))
  return table.concat(parts)
end

-- Digits 0-9 and the decimal point, 3 pixels wide and 5 high: "#" is ink.
local glyphs = {
  ["0"] = {"###", "# #", "# #", "# #", "###"}, ["1"] = {" # ", "## ", " # ", " # ", "###"},
  ["2"] = {"###", "  #", "###", "#  ", "###"}, ["3"] = {"###", "  #", "###", "  #", "###"},
  ["4"] = {"# #", "# #", "###", "  #", "  #"}, ["5"] = {"###", "#  ", "###", "  #", "###"},
  ["6"] = {"###", "#  ", "###", "# #", "###"}, ["7"] = {"###", "  #", "  #", "  #", "  #"},
  ["8"] = {"###", "# #", "###", "# #", "###"}, ["9"] = {"###", "# #", "###", "  #", "###"},
  ["."] = {"   ", "   ", "   ", "   ", " # "},
}
local SCALE = 2                                   -- each font pixel is SCALE x SCALE
local ADVANCE = 4 * SCALE                         -- glyph width plus one pixel of space

local function text_width(text) return #text * ADVANCE - SCALE end

-- Draws text (digits and ".") into pixels with its top left corner at (x, y).
local function draw_text(pixels, text, x, y)
  for k = 1, #text do
    local glyph = glyphs[text:sub(k, k)]
    for gy = 1, 5 do
      for gx = 1, 3 do
        if glyph and glyph[gy]:sub(gx, gx) == "#" then
          for dy = 0, SCALE - 1 do
            local row = pixels[y + (gy - 1) * SCALE + dy + 1]
            for dx = 0, SCALE - 1 do
              local px = x + (k - 1) * ADVANCE + (gx - 1) * SCALE + dx + 1
              if row and px >= 1 and px <= #row then row[px] = 0 end
            end
          end
        end
      end
    end
  end
end

-- Writes values (a sequence of nonnegative numbers) as bars; returns true or nil, message.
function barchart.write(path, values, width, height)
  width, height = width or 640, height or 400
  local margin, top = 40, 20
  local peak = 0
  for _, v in ipairs(values) do peak = math.max(peak, v) end
  local pixels = {}
  local slot = (width - 2 * margin) / math.max(#values, 1)
  for y = 0, height - 1 do
    local row = {}
    for x = 0, width - 1 do row[x + 1] = 255 end
    if y >= top and y <= height - margin then row[margin + 1] = 0 end            -- y axis
    if y == height - margin then
      for x = margin, width - margin do row[x + 1] = 0 end                       -- x axis
    end
    for i, v in ipairs(values) do
      local bar_top = height - margin - math.floor((height - margin - top) * (peak > 0 and v / peak or 0))
      local left = math.floor(margin + (i - 1) * slot + slot * 0.15)
      local right = math.floor(margin + i * slot - slot * 0.15)
      if y >= bar_top and y < height - margin then
        for x = left, right do
          local edge = x == left or x == right or y == bar_top
          row[x + 1] = edge and 0 or 160
        end
      end
    end
    pixels[y + 1] = row
  end
  -- Labels where they fit: skip every other one when the bars are too narrow for them.
  local every = 1
  while every * slot < text_width(tostring(#values - 1)) + 2 do every = every + 1 end
  for i = 1, #values, every do
    local label = tostring(i - 1)
    local centre = math.floor(margin + (i - 0.5) * slot)
    draw_text(pixels, label, centre - text_width(label) // 2, height - margin + 6)
  end
  draw_text(pixels, (peak >= 100 and "%.0f" or "%.2f"):format(peak), 2, top - 5 * SCALE - 4 > 0 and top - 5 * SCALE - 4 or 0)
  local rows = {}
  for y = 1, height do rows[y] = "\0" .. string.char(table.unpack(pixels[y])) end  -- filter 0, gray
  local png = "\x89PNG\r\n\x1a\n" ..
      chunk("IHDR", (">I4I4BBBBB"):pack(width, height, 8, 0, 0, 0, 0)) ..
      chunk("IDAT", zlib_stored(table.concat(rows))) .. chunk("IEND", "")
  local file, problem = io.open(path, "wb")
  if not file then return nil, problem end
  local ok, write_problem = file:write(png)
  file:close()
  if not ok then return nil, write_problem end
  return true
end

return barchart
