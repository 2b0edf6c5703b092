#include "cache/event_cache.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "cache/event_codec.h"
#include "model/error.h"

namespace earl {

namespace {

// Blocks shrink with many locations so that the open blocks (one per location, on each
// side) stay near 32 MiB; a block holds a few thousand events at most.
std::size_t block_size_for(std::size_t locations) {
  std::size_t size = (std::size_t(32) << 20) / std::max<std::size_t>(locations, 1);
  return std::clamp<std::size_t>(size, 4096, 65536);
}

std::string cache_directory(const std::string& directory) {
  if (!directory.empty()) return directory;
  const char* tmp = std::getenv("TMPDIR");
  return (tmp && *tmp) ? tmp : "/tmp";
}

}  // namespace

EventCache::EventCache(std::size_t locations, const std::string& directory, std::size_t block_size)
    : directory_(cache_directory(directory)),
      block_size_(block_size ? std::max(block_size, kMaxEncodedEvent) : block_size_for(locations)),
      writing_(locations),
      blocks_(locations),
      finished_(locations, false) {
  std::string name = directory_ + "/earl-cache-XXXXXX";
  fd_ = ::mkstemp(&name[0]);
  if (fd_ < 0) file_error("cannot be created");
  ::unlink(name.c_str());  // nothing is left behind, whatever ends the process
}

EventCache::EventCache(int fd, std::uint64_t base, std::vector<std::vector<Block>> blocks,
                       std::size_t block_size)
    : directory_("the persisted index"),
      fd_(fd),
      base_(base),
      block_size_(std::max(block_size, kMaxEncodedEvent)),
      blocks_(std::move(blocks)),
      finished_(blocks_.size(), true) {
  for (const auto& location : blocks_)
    for (const Block& block : location) file_end_ = std::max(file_end_, block.offset + block.bytes);
}

std::vector<std::vector<EventCache::Block>> EventCache::blocks() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return blocks_;
}

EventCache::~EventCache() {
  if (fd_ >= 0) ::close(fd_);
}

void EventCache::file_error(const std::string& what) const {
  throw EarlError("EARL's event cache in " + directory_ + " " + what + ": " +
                  std::strerror(errno) +
                  " (set TMPDIR to a directory with room, or turn the cache off: cache=False, EARL_CACHE=0 or `earl info --no-cache`)");
}

void EventCache::append(Location loc, const Event& event, std::uint64_t tick) {
  Writing& w = writing_[static_cast<std::size_t>(loc)];
  if (w.block.empty()) w.block.resize(block_size_);
  if (w.used + kMaxEncodedEvent > block_size_) flush(loc);
  w.used += static_cast<std::uint32_t>(encode_event(event, tick, w.last_tick, &w.block[w.used]));
  w.last_tick = tick;
}

void EventCache::flush(Location loc) {
  Writing& w = writing_[static_cast<std::size_t>(loc)];
  if (w.used == 0) return;
  std::size_t done = 0;
  while (done < w.used) {
    ssize_t n = ::pwrite(fd_, w.block.data() + done, w.used - done,
                         static_cast<off_t>(file_end_ + done));
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) errno = ENOSPC;
    if (n <= 0) file_error("cannot be written");
    done += static_cast<std::size_t>(n);
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    blocks_[static_cast<std::size_t>(loc)].push_back(Block{file_end_, w.used});
  }
  written_.notify_all();
  file_end_ += w.used;
  w.used = 0;
}

void EventCache::finish(Location loc) {
  flush(loc);
  writing_[static_cast<std::size_t>(loc)].block = std::vector<std::uint8_t>();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    finished_[static_cast<std::size_t>(loc)] = true;
  }
  written_.notify_all();
}

void EventCache::fail(const std::string& message) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (failure_.empty()) failure_ = message;
  }
  written_.notify_all();
}

bool EventCache::block(Location loc, std::size_t k, Block& block) {
  std::size_t at = static_cast<std::size_t>(loc);
  std::unique_lock<std::mutex> lock(mutex_);
  written_.wait(lock, [&] { return blocks_[at].size() > k || finished_[at] || !failure_.empty(); });
  if (blocks_[at].size() > k) {
    block = blocks_[at][k];
    return true;
  }
  if (finished_[at]) return false;
  throw EarlError(failure_);
}

std::size_t EventCache::read(const Block& block, std::uint32_t from, std::uint8_t* out,
                             std::size_t capacity) const {
  std::size_t wanted = std::min<std::size_t>(from < block.bytes ? block.bytes - from : 0, capacity);
  std::size_t done = 0;
  while (done < wanted) {
    ssize_t n = ::pread(fd_, out + done, wanted - done,
                        static_cast<off_t>(base_ + block.offset + from + done));
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) errno = EIO;  // shorter than written: someone truncated it
    if (n <= 0) file_error("cannot be read back");
    done += static_cast<std::size_t>(n);
  }
  return wanted;
}

}  // namespace earl
