#pragma once
// The generator's own random numbers: xoshiro256** seeded through splitmix64, with
// transforms that use integer arithmetic only (plus single, exactly specified IEEE
// operations), so that a seed gives the same trace on every platform and compiler.
// (std::uniform_*_distribution and std::log are implementation-defined; not used here.)
#include <cstdint>

namespace earl::gen {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) {
    std::uint64_t x = seed;
    for (auto& word : s_) word = splitmix64(x);
  }

  // 64 uniformly random bits.
  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform integer in [lo, hi] (inclusive; hi < lo gives lo), without modulo bias.
  std::int64_t uniform(std::int64_t lo, std::int64_t hi) {
    if (hi <= lo) return lo;
    const std::uint64_t range = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
    if (range == UINT64_MAX) return static_cast<std::int64_t>(next());
    const std::uint64_t span = range + 1;
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % span;  // reject the biased tail
    std::uint64_t r;
    do r = next(); while (r >= limit);
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + r % span);
  }

  // True with probability p (p <= 0 never, p >= 1 always); exact integer comparison.
  bool bernoulli(double p) {
    if (p <= 0.0) return false;
    if (p >= 1.0) { next(); return true; }
    const std::uint64_t threshold = static_cast<std::uint64_t>(p * 9007199254740992.0);  // p * 2^53
    return (next() >> 11) < threshold;
  }

  // Exponentially distributed integer with the given mean (rounded to nearest), computed
  // as mean * -ln(U) with U in (0, 1] and a fixed-point binary logarithm.
  std::int64_t exponential(std::int64_t mean) {
    if (mean <= 0) return 0;
    const std::uint64_t u = (next() >> 11) + 1;  // 1 .. 2^53, U = u / 2^53
    const std::uint64_t minus_log2_q32 = (std::uint64_t{53} << 32) - log2_q32(u);
    // ln 2 / 2^32: a compile-time constant; the two products below are single IEEE
    // multiplications (no additions, so no fused multiply-add can change them).
    constexpr double kLn2Over2p32 = 0.69314718055994530942 / 4294967296.0;
    const double minus_ln = static_cast<double>(minus_log2_q32) * kLn2Over2p32;
    const double value = static_cast<double>(mean) * minus_ln;
    return round_half_up(value);
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  static std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  // log2(u) for u >= 1 in unsigned Q32 fixed point (integer part << 32 | 32 fraction bits).
  static std::uint64_t log2_q32(std::uint64_t u) {
    int msb = 63;
    while (!(u >> msb)) --msb;
    // Normalise to x in [1, 2) as Q31 in a 64-bit word (x < 2^32, so x * x < 2^64).
    std::uint64_t x = msb >= 31 ? (u >> (msb - 31)) : (u << (31 - msb));
    std::uint64_t fraction = 0;
    for (int bit = 31; bit >= 0; --bit) {
      x = (x * x) >> 31;
      if (x >= (std::uint64_t{2} << 31)) {
        x >>= 1;
        fraction |= std::uint64_t{1} << bit;
      }
    }
    return (static_cast<std::uint64_t>(msb) << 32) | fraction;
  }

  // Rounds a non-negative double to the nearest integer without a floating-point addition.
  static std::int64_t round_half_up(double v) {
    if (!(v > 0.0)) return 0;
    if (v >= 9.0e18) return INT64_MAX / 4;
    const std::int64_t whole = static_cast<std::int64_t>(v);  // truncation, exact
    // whole + 0.5 is exact below 2^52; a comparison cannot be fused with the product.
    return whole + (v >= static_cast<double>(whole) + 0.5 ? 1 : 0);
  }

  std::uint64_t s_[4];
};

}  // namespace earl::gen
