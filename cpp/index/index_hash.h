#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace earl {

// A 64-bit hash of a byte stream for the persisted index's checksums and the trace
// identity: four independent multiply-rotate lanes over 32-byte stripes, so it runs at
// memory speed over the event cache (a checksum, not a defence against forgery). Feeding
// the same bytes in any split gives the same value.
class IndexHash {
 public:
  explicit IndexHash(std::uint64_t seed = 0);
  void update(const void* data, std::size_t size);
  void update(const std::string& bytes) { update(bytes.data(), bytes.size()); }
  std::uint64_t value() const;

 private:
  void stripe(const unsigned char* bytes);
  std::uint64_t lanes_[4];
  unsigned char pending_[32];
  std::size_t pending_size_ = 0;
  std::uint64_t total_ = 0;
};

std::uint64_t index_hash(const void* data, std::size_t size, std::uint64_t seed = 0);

}  // namespace earl
