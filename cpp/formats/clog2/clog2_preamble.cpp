#include "formats/clog2/clog2_preamble.h"

#include <charconv>
#include <vector>

#include "formats/clog2/clog2_layout.h"
#include "model/error.h"

namespace earl::clog2 {

namespace {

constexpr std::uint64_t kGiga = std::uint64_t(1) << 30;

[[noreturn]] void bad(const std::string& path, const std::string& what) {
  throw EarlError("'" + path + "' is not a readable CLOG2 file: preamble " + what);
}

std::int64_t number(const std::string& path, const std::string& title, std::string_view text) {
  std::int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty())
    bad(path, "field " + title + " is not a number: '" + std::string(text.substr(0, 32)) + "'");
  return value;
}

}  // namespace

bool looks_like_preamble(std::string_view head) {
  return head.substr(0, sizeof kVersionPrefix - 1) == kVersionPrefix;
}

Preamble parse_preamble(std::string_view bytes, const std::string& path) {
  if (bytes.size() < kPreambleSize)
    bad(path, "cut short: " + std::to_string(bytes.size()) + " of " + std::to_string(kPreambleSize) + " bytes");
  bytes = bytes.substr(0, kPreambleSize);
  std::vector<std::string_view> strings;
  for (std::size_t at = 0; at < bytes.size();) {
    std::size_t end = bytes.find('\0', at);
    if (end == std::string_view::npos) break;
    if (end == at) break;  // the zero padding after the last string
    strings.push_back(bytes.substr(at, end - at));
    at = end + 1;
  }
  if (strings.empty() || !looks_like_preamble(strings[0]) || strings[0].size() >= kVersionLength)
    bad(path, "does not start with a version 'CLOG-02.xx' (CLOG version 1 and other files are not read)");
  Preamble p;
  p.version = std::string(strings[0]);
  bool have_block = false, have_order = false;
  for (std::size_t i = 1; i < strings.size();) {
    const std::string title(strings[i]);
    if (title.empty() || title.back() != '=') bad(path, "has '" + title.substr(0, 32) + "' where a title is due");
    const std::size_t values = title == "commtable_fptr=" ? 3 : 1;
    if (i + values >= strings.size())
      bad(path, "field " + title + " has no value");
    std::string_view value = strings[i + 1];
    if (title == "is_big_endian=") {
      p.big_endian = value == "TRUE ";
      have_order = true;
    } else if (title == "is_finalzed=" || title == "is_finalized=") {
      p.finalized = value == "TRUE ";
    } else if (title == "block_size=") {
      std::int64_t v = number(path, title, value);
      if (v < std::int64_t(kHeaderSize) * 2 || std::uint64_t(v) > kGiga)
        bad(path, "block size " + std::to_string(v) + " is absurd (48 bytes .. 1 GiB)");
      p.block_size = std::uint64_t(v);
      have_block = true;
    } else if (title == "num_buffered_blocks=") {
      const std::int64_t v = number(path, title, value);
      p.buffered_blocks = v < 0 ? 0 : std::uint64_t(v);
    } else if (title == "max_comm_world_size=") {
      p.world_size = number(path, title, value);
    } else if (title == "max_thread_count=") {
      p.thread_count = number(path, title, value);
    } else if (title == "user_stateID_count=") {
      p.user_state_count = number(path, title, value);
    } else if (title == "commtable_fptr=") {
      const std::int64_t giga = number(path, title, value);
      const std::int64_t unit = number(path, title, strings[i + 2]);
      const std::int64_t rest = number(path, title, strings[i + 3]);
      if (giga < 0 || rest < 0 || unit <= 0 || giga > (std::int64_t(1) << 30))
        bad(path, "commtable_fptr " + std::to_string(giga) + " " + std::to_string(unit) + " " +
                      std::to_string(rest) + " is absurd");
      p.commtable_offset = std::uint64_t(giga) * std::uint64_t(unit) + std::uint64_t(rest);
    }
    // Other titles (event id ranges and counts) say nothing the events do not.
    i += 1 + values;
  }
  if (!have_order) bad(path, "has no is_big_endian=");
  if (!have_block) bad(path, "has no block_size=");
  if (p.world_size < 0 || p.world_size > (std::int64_t(1) << 24))
    bad(path, "max_comm_world_size " + std::to_string(p.world_size) + " is absurd");
  if (p.thread_count < 0 || p.thread_count > (std::int64_t(1) << 16))
    bad(path, "max_thread_count " + std::to_string(p.thread_count) + " is absurd");
  if (p.thread_count == 0) p.thread_count = 1;
  return p;
}

std::string format_preamble(const Preamble& p) {
  std::string out;
  auto put = [&out](const std::string& text) {
    out += text;
    out += '\0';
  };
  put(p.version);
  put("is_big_endian=");
  put(p.big_endian ? "TRUE " : "FALSE");
  put("is_finalzed=");  // sic: MPE's spelling, which its reader skips by position
  put(p.finalized ? "TRUE " : "FALSE");
  put("block_size=");
  put(std::to_string(p.block_size));
  put("num_buffered_blocks=");
  put(std::to_string(p.buffered_blocks));
  put("max_comm_world_size=");
  put(std::to_string(p.world_size));
  put("max_thread_count=");
  put(std::to_string(p.thread_count));
  put("known_eventID_start=");
  put(std::to_string(kKnownEventIdStart));
  put("user_eventID_start=");
  put(std::to_string(kUserEventIdStart));
  put("known_solo_eventID_start=");
  put(std::to_string(kKnownSoloEventIdStart));
  put("user_solo_eventID_start=");
  put(std::to_string(kUserSoloEventIdStart));
  put("known_stateID_count=");
  put(std::to_string(kUserStateIdStart));
  put("user_stateID_count=");
  put(std::to_string(p.user_state_count));
  put("known_solo_eventID_count=");
  put("10");
  put("user_solo_eventID_count=");
  put("100");
  put("commtable_fptr=");
  put(std::to_string(p.commtable_offset / kGiga));
  put(std::to_string(kGiga));
  put(std::to_string(p.commtable_offset % kGiga));
  out.resize(kPreambleSize, '\0');
  return out;
}

}  // namespace earl::clog2
