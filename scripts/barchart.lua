-- Helper of data_received: writes a bar chart as a PNG file (not run on its own).
--
-- In plain Lua 5.4, for scripts/data_received.lua, drawn like scripts/barchart.tcl's:
-- gray bars with black edges on white, a title, the unit over the y axis, each bar's
-- value above it and its label below it (turned to read downwards when they are wider
-- than the bars). Text is drawn in the 5x7 bitmap font of font5x7.txt beside this file,
-- since plain Lua has no font renderer. The PNG holds uncompressed (stored) deflate
-- blocks, which every PNG reader accepts, so no zlib is needed.
--
--     local barchart = require "barchart"
--     barchart.write("chart.png", {1.5, 0, 4}, {labels = {"a", "b", "c"}, title = "Data",
--                    unit = "KBytes", format = "%.1f"})
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

-- The font: character -> 7 rows of 5 pixels ("X" ink); see font5x7.txt.
local here = (debug.getinfo(1, "S").source:match("^@(.*)[/\\]") or ".")
local glyphs = {}
for line in io.lines(here .. "/font5x7.txt") do
  if #line == 43 and line:sub(2, 2) == " " and line:sub(3):match("^[.X]+[ .X]*$") then
    local rows = {}
    for row in line:sub(3):gmatch("[.X]+") do rows[#rows + 1] = row end
    if #rows == 7 then glyphs[line:sub(1, 1)] = rows end
  end
end

-- The layout, in pixels: the same numbers as barchart.tcl's.
local GLYPH_W, GLYPH_H, ADVANCE = 5, 7, 6      -- a glyph, and glyph plus one pixel of space
local MARGIN, GAP, PLOT_HEIGHT, MIN_WIDTH, MIN_SLOT, TITLE_SCALE = 40, 4, 300, 640, 12, 2

-- The characters of text: UTF-8 ones where it is valid UTF-8 (as Tcl sees them), else bytes.
local function characters(text)
  local chars = {}
  if utf8.len(text) then
    for _, code in utf8.codes(text) do chars[#chars + 1] = utf8.char(code) end
  else
    for k = 1, #text do chars[k] = text:sub(k, k) end
  end
  return chars
end

local function text_width(text, scale) return (#characters(text) * ADVANCE - 1) * (scale or 1) end

-- Draws text into pixels with its top left corner at (x, y) (0-based); turned: rotated a
-- quarter turn clockwise, so that it reads downwards. A character the font lacks is "?".
local function draw_text(pixels, text, x, y, scale, turned)
  scale = scale or 1
  local height = GLYPH_H * scale
  for k, char in ipairs(characters(text)) do
    local glyph = glyphs[char] or glyphs["?"]
    for gy = 1, GLYPH_H do
      for gx = 1, GLYPH_W do
        if glyph[gy]:sub(gx, gx) == "X" then
          for dy = 0, scale - 1 do
            for dx = 0, scale - 1 do
              local tx = ((k - 1) * ADVANCE + gx - 1) * scale + dx  -- in the upright text
              local ty = (gy - 1) * scale + dy
              local px, py = x + tx, y + ty
              if turned then px, py = x + height - 1 - ty, y + tx end
              local row = pixels[py + 1]
              if row and px >= 0 and px < #row then row[px + 1] = 0 end
            end
          end
        end
      end
    end
  end
end

-- Writes values (a sequence of nonnegative numbers) as bars; options: labels (a sequence
-- of strings, one per bar; default the bar's number from 0), title, unit, format (of the
-- values written above the bars, default "%g"). Returns true or nil, message.
function barchart.write(path, values, options)
  options = options or {}
  local n = math.max(#values, 1)
  local title, unit = options.title or "", options.unit or ""
  local labels, texts = {}, {}
  for i, v in ipairs(values) do
    labels[i] = tostring(options.labels and options.labels[i] or (i - 1))
    texts[i] = (options.format or "%g"):format(v)
  end
  local width = math.max(MIN_WIDTH, 2 * MARGIN + MIN_SLOT * n,
                         text_width(title, TITLE_SCALE) + 2 * GAP)
  local slot = (width - 2 * MARGIN) / n
  local function extent(words)  -- turned?, and the height the words take
    local widest, turned = 0, false
    for _, word in ipairs(words) do
      widest = math.max(widest, text_width(word))
      if text_width(word) > slot - 4 then turned = true end  -- 4 pixels apart
    end
    return turned, turned and widest or GLYPH_H
  end
  local labels_turned, label_extent = extent(labels)
  local values_turned, value_extent = extent(texts)
  local title_y = 2 * GAP
  local unit_y = title_y + GLYPH_H * TITLE_SCALE + 2 * GAP
  local top = unit_y + GLYPH_H + 2 * GAP + value_extent
  local base = top + PLOT_HEIGHT
  local label_y = base + GAP + 2
  local height = label_y + label_extent + 2 * GAP
  local peak = 0
  for _, v in ipairs(values) do peak = math.max(peak, v) end

  local pixels = {}
  for y = 0, height - 1 do
    local row = {}
    for x = 0, width - 1 do row[x + 1] = 255 end
    if y >= top and y <= base then row[MARGIN + 1] = 0 end                       -- y axis
    if y == base then
      for x = MARGIN, width - MARGIN do row[x + 1] = 0 end                       -- x axis
    end
    pixels[y + 1] = row
  end
  for i, v in ipairs(values) do
    local bar_top = base - math.floor(PLOT_HEIGHT * (peak > 0 and v / peak or 0))
    local left = math.floor(MARGIN + (i - 1) * slot + slot * 0.15)
    local right = math.max(left, math.floor(MARGIN + i * slot - slot * 0.15))
    for y = bar_top, base - 1 do
      for x = left, right do
        pixels[y + 1][x + 1] = (x == left or x == right or y == bar_top) and 0 or 160
      end
    end
    local centre = math.floor(MARGIN + (i - 0.5) * slot)
    local value_width, label_width = text_width(texts[i]), text_width(labels[i])
    if values_turned then
      draw_text(pixels, texts[i], centre - GLYPH_H // 2, bar_top - GAP - value_width, 1, true)
    else
      draw_text(pixels, texts[i], centre - value_width // 2, bar_top - GAP - GLYPH_H)
    end
    if labels_turned then
      draw_text(pixels, labels[i], centre - GLYPH_H // 2, label_y, 1, true)
    else
      draw_text(pixels, labels[i], centre - label_width // 2, label_y)
    end
  end
  draw_text(pixels, title, (width - text_width(title, TITLE_SCALE)) // 2, title_y, TITLE_SCALE)
  draw_text(pixels, unit, GAP, unit_y)
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
