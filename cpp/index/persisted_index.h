#pragma once
#include <cstdint>
#include <string>

#include "access/random_access_trace.h"
#include "format_interface/trace_decoder.h"
#include "index/trace_identity.h"

namespace earl {

// What a trace's index did on opening: "built" (none was there: scanned and saved),
// "loaded", "rebuilt" (one was there but stale, damaged or for other options: scanned and
// saved again; `note` says why), or "off" (`note` says why: turned off, a small trace,
// a decoder that keeps no state, nowhere to write).
struct IndexInfo {
  std::string path;
  std::string state = "off";
  std::string note;
};

// What an index is for: the trace as it was, the decoder ("otf2+cache", "alog") and the
// options the bookmarks depend on.
struct IndexKey {
  TraceIdentity identity;
  std::string decoder;
  std::uint64_t bdist = 0;
  std::uint64_t memory = 0;
};

struct LoadedIndex {
  RandomAccessTrace::ScanResult scan;
  DecoderState decoder;  // restored_fd and data_offset set where it has data
  // False when the index was made with other bookmark options (bdist, memory): the
  // decoder's state still serves a new scan (for OTF2, from the persisted event cache).
  bool bookmarks_usable = true;
};

// Loads the index at `path` when it is whole and for `key`'s trace and decoder; otherwise
// returns false with `why` ("none" when there is no index; never throws for what is in
// the file). When only the bookmark options differ it returns true with
// bookmarks_usable false and `why` saying so.
bool load_index(const std::string& path, const IndexKey& key, LoadedIndex& out, std::string& why);

// Saves what the scan of `access` found and the decoder's state. EarlError when it
// cannot be written.
void save_index(const std::string& path, const IndexKey& key, const RandomAccessTrace& access,
                const DecoderState& decoder);

}  // namespace earl
