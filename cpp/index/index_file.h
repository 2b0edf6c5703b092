#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace earl {

// The file of a persisted index:
//   header (kHeaderBytes): magic "EARLIDX\0", format version, byte-order mark, the lengths
//     of the key, the payload and the data, the checksum of key and payload, the checksum
//     of the data, and the checksum of the header before it;
//   key: what the index is for (the trace's identity and the options it was built with);
//   payload: the bookmarks, problems and decoder state;
//   data: the decoder's file (the event cache), byte for byte.
// Any byte changed anywhere fails a checksum, a length or the magic: the reader then says
// why and the trace is scanned again.
// Version 2: the bookmarks of OTF2 read without the cache hold a digest of each
// location's record (formats/otf2/otf2_decoder.cpp); an index of version 1 is rebuilt.
// Version 3: a delta's removed enters hold their depth in the stack (state/trace_state.h).
// Version 4: OTF2's rma_group_sync events have a kind of their own (EventKind::RmaGroupSync).
// Version 5: OTF2's metric events have a kind of their own (EventKind::Metric) and the
// definitions hold the trace's metrics (Definitions::metrics).
constexpr std::uint32_t kIndexVersion = 5;
constexpr std::size_t kHeaderBytes = 72;

struct IndexContents {
  std::string key;
  std::string payload;
  int data_fd = -1;  // writing: copied from (not owned); reading: the index file, owned
  std::uint64_t data_bytes = 0;
  std::uint64_t data_offset = 0;  // where the data starts in data_fd
};

// Writes `contents` to a temporary file beside `path`, flushed to disk, then renames it
// into place: readers see the old index or the whole new one, never a part. Concurrent
// writers each write their own temporary file; the last rename wins, every one is whole.
// EarlError naming the file when it cannot be written (no room, no permission).
void write_index_file(const std::string& path, const IndexContents& contents);

// Reads and checks the index at `path`. Returns "" and fills `contents` (its data_fd is
// the open index file, which the caller then owns) when it is whole; otherwise why not
// ("none", or what is wrong: truncated, damaged, another version).
std::string read_index_file(const std::string& path, IndexContents& contents);

// Temporary files writers left behind (a writer killed while writing): those of
// processes of this host that no longer run, or all of them with `all`. Returns them.
std::vector<std::string> stale_temporary_files(const std::string& path, bool all);

}  // namespace earl
