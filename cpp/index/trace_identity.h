#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace earl {

// What makes a trace the same trace for its persisted index: for each of its files (the
// anchor first) the path relative to the anchor's directory, the size, the modification
// time (ns) and a hash of its first and last kHeadTailBytes. A change that keeps all of
// them (same size, same ends, the modification time set back) goes unseen; every other
// one makes the index stale.
struct FileIdentity {
  std::string path;
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::uint64_t head_tail = 0;
  bool operator==(const FileIdentity& o) const {
    return path == o.path && size == o.size && mtime_ns == o.mtime_ns && head_tail == o.head_tail;
  }
};

struct TraceIdentity {
  std::vector<FileIdentity> files;
  std::uint64_t bytes() const;
  // Why `saved` is not this identity, "" when it is.
  std::string difference(const TraceIdentity& saved) const;
};

// Small, so that identifying an archive of many files (one per location) reads little.
constexpr std::size_t kHeadTailBytes = 16 * 1024;

// EarlError naming the file when one cannot be read.
TraceIdentity identify_trace(const std::vector<std::string>& files);
// Size and modification time of each file, no byte read: cheap enough to ask before every
// re-read of an open trace (a trace changed since it was opened). Never fails: a file that
// is gone or no longer a regular file gets head_tail kGoneFile, which no read file has.
TraceIdentity stat_trace(const std::vector<std::string>& files);
constexpr std::uint64_t kGoneFile = ~std::uint64_t(0);
// The bytes the files hold (stat only: whether a trace is large enough for an index).
std::uint64_t trace_bytes(const std::vector<std::string>& files);

}  // namespace earl
