#pragma once
#include <cstddef>
#include <cstdint>

#include "model/event.h"

namespace earl {

// A point-to-point channel: (source, destination, tag, communicator). MPI's
// non-overtaking rule makes the k-th send of a channel the partner of its k-th receive;
// the time checks, the clock correction and the analysis all key on it.
struct MessageChannel {
  Location src, dest;
  std::int64_t tag, com;
  bool operator==(const MessageChannel& o) const {
    return src == o.src && dest == o.dest && tag == o.tag && com == o.com;
  }
};

struct MessageChannelHash {
  std::size_t operator()(const MessageChannel& c) const {
    std::uint64_t h = static_cast<std::uint32_t>(c.src);
    h = h * 0x9E3779B97F4A7C15ULL ^ static_cast<std::uint32_t>(c.dest);
    h = h * 0x9E3779B97F4A7C15ULL ^ static_cast<std::uint64_t>(c.tag);
    h = h * 0x9E3779B97F4A7C15ULL ^ static_cast<std::uint64_t>(c.com);
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};

}  // namespace earl
