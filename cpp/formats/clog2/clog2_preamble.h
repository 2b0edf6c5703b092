#pragma once
// The 1024-byte preamble that opens every CLOG2 file: NUL-terminated strings, the version
// first, then "title=" and value strings (clog_preamble.c; the commtable_fptr title has
// three values: gigabytes, the unit 2^30 and the rest).
#include <cstdint>
#include <string>
#include <string_view>

namespace earl::clog2 {

struct Preamble {
  std::string version;          // "CLOG-02.44"
  bool big_endian = true;
  bool finalized = true;
  std::uint64_t block_size = 0;
  std::uint64_t buffered_blocks = 0;
  std::int64_t world_size = 0;  // max_comm_world_size
  std::int64_t thread_count = 1;  // max_thread_count
  std::int64_t user_state_count = 0;
  std::uint64_t commtable_offset = 0;  // 0: none
};

// True when `head` starts like a CLOG2 preamble (the version string "CLOG-02.").
bool looks_like_preamble(std::string_view head);

// Reads the preamble from the first kPreambleSize bytes of `bytes`; throws EarlError
// naming `path` and the field that is missing or wrong.
Preamble parse_preamble(std::string_view bytes, const std::string& path);

// The kPreambleSize bytes MPE's merger would write for `preamble`.
std::string format_preamble(const Preamble& preamble);

}  // namespace earl::clog2
