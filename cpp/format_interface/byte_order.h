#pragma once
// Fixed-width numbers in either byte order, as the binary formats' records hold them
// (CLOG2's preamble says which, EPILOG's header byte says which).
#include <cstdint>
#include <cstring>

namespace earl {

// The unsigned number of sizeof(T) bytes at `p`, most significant first when `big`.
template <typename T>
T load_uint(const unsigned char* p, bool big) {
  T v = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) v |= T(p[big ? sizeof(T) - 1 - i : i]) << (8 * i);
  return v;
}

template <typename T>
void store_uint(unsigned char* p, T v, bool big) {
  for (std::size_t i = 0; i < sizeof(T); ++i) p[big ? sizeof(T) - 1 - i : i] = static_cast<unsigned char>(v >> (8 * i));
}

// An IEEE double stored as its 64 bits in the given byte order.
inline double load_f64(const unsigned char* p, bool big) {
  const std::uint64_t bits = load_uint<std::uint64_t>(p, big);
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

inline void store_f64(unsigned char* p, double v, bool big) {
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  store_uint(p, bits, big);
}

}  // namespace earl
