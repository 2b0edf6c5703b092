#pragma once
#include <cstdint>

namespace earl {

// Every format's time in EARL is (tick - offset) / ticks per second, one IEEE division in
// double precision: the correctly rounded value (10 us is 1e-05 s; multiplying by 1e-6
// would give 9.999999999999999e-06). Readers, the event cache and the generator's ground
// truth all use these, so the same tick gives the same double whichever way it is read.
constexpr double kMicrosecondsPerSecond = 1e6;

inline double ticks_to_seconds(std::int64_t ticks, double ticks_per_second) {
  return static_cast<double>(ticks) / ticks_per_second;
}

// Unsigned ticks from an offset (OTF2's global offset): negative before it. The distance
// is taken in unsigned arithmetic on the side where it cannot wrap, so every pair of 64-bit
// ticks gives its true difference (a signed difference would turn 2^63 ticks after the
// offset into a negative time).
inline double ticks_to_seconds(std::uint64_t tick, std::uint64_t offset, double ticks_per_second) {
  if (tick >= offset) return static_cast<double>(tick - offset) / ticks_per_second;
  return -(static_cast<double>(offset - tick) / ticks_per_second);
}

}  // namespace earl
