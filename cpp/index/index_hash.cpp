#include "index/index_hash.h"

#include <algorithm>
#include <cstring>

namespace earl {

namespace {

// Odd constants with well mixed bits (from the fractional parts of sqrt(2), sqrt(3),
// sqrt(5)); any odd multiplier keeps each step a bijection of the lane.
constexpr std::uint64_t kMulA = 0x6A09E667F3BCC909ULL;
constexpr std::uint64_t kMulB = 0xBB67AE8584CAA73BULL;
constexpr std::uint64_t kMulC = 0x3C6EF372FE94F82BULL | 1;

std::uint64_t rotl(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

std::uint64_t load64(const unsigned char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;  // little-endian hosts only: the index header records the byte order
}

std::uint64_t mix(std::uint64_t lane, std::uint64_t word) {
  return rotl(lane + word * kMulB, 29) * kMulA;
}

std::uint64_t finish(std::uint64_t h) {
  h ^= h >> 31;
  h *= kMulC;
  h ^= h >> 29;
  h *= kMulB;
  h ^= h >> 32;
  return h;
}

}  // namespace

IndexHash::IndexHash(std::uint64_t seed)
    : lanes_{seed + kMulA + kMulB, seed + kMulB, seed, seed - kMulA} {}

void IndexHash::stripe(const unsigned char* bytes) {
  for (int i = 0; i < 4; ++i) lanes_[i] = mix(lanes_[i], load64(bytes + 8 * i));
}

void IndexHash::update(const void* data, std::size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  total_ += size;
  if (pending_size_ > 0) {
    std::size_t take = std::min(size, sizeof pending_ - pending_size_);
    std::memcpy(pending_ + pending_size_, bytes, take);
    pending_size_ += take;
    bytes += take;
    size -= take;
    if (pending_size_ < sizeof pending_) return;
    stripe(pending_);
    pending_size_ = 0;
  }
  for (; size >= sizeof pending_; bytes += sizeof pending_, size -= sizeof pending_) stripe(bytes);
  std::memcpy(pending_, bytes, size);
  pending_size_ = size;
}

std::uint64_t IndexHash::value() const {
  std::uint64_t h = rotl(lanes_[0], 1) + rotl(lanes_[1], 7) + rotl(lanes_[2], 12) + rotl(lanes_[3], 18);
  for (int i = 0; i < 4; ++i) h = (h ^ mix(0, lanes_[i])) * kMulA + kMulC;
  h += total_;
  std::size_t i = 0;
  for (; i + 8 <= pending_size_; i += 8) h = rotl(h ^ mix(0, load64(pending_ + i)), 27) * kMulA + kMulB;
  for (; i < pending_size_; ++i) h = rotl(h ^ (pending_[i] * kMulC), 11) * kMulA;
  return finish(h);
}

std::uint64_t index_hash(const void* data, std::size_t size, std::uint64_t seed) {
  IndexHash hash(seed);
  hash.update(data, size);
  return hash.value();
}

}  // namespace earl
