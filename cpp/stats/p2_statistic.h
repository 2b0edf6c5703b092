#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace earl {

// Streaming statistics of a sequence of floating point values in constant memory
// (EARL's P2Statistic, 1998 `earl stat`).
//
// Quantiles are estimated with the P^2 algorithm of R. Jain and I. Chlamtac ("The P^2
// Algorithm for Dynamic Calculation of Quantiles and Histograms Without Storing
// Observations", CACM 28(10), 1985) in its equiprobable-cells (histogram) form with 4 cells,
// i.e. 5 markers at the 0, .25, .5, .75 and 1 quantiles. The outer markers track the
// minimum and the maximum exactly; the inner three estimate q25, median and q75.
// count, sum, min, max, mean and var are exact (up to floating point rounding).
//
// State: exactly 13 numbers, in this order (kStateSize, state(), the state constructor;
// the same layout is used by the Python, Lua and Tcl mappings and by the 1998
// `earl stat obj v1 ... v13` / `$so print`):
//
//   [0]       count    number of values added (a nonnegative integer, at most 2^53)
//   [1..5]    q0..q4   marker heights
//   [6..10]   n0..n4   marker positions, 1-based as in the paper (integers)
//   [11]      sum      running sum of the values
//   [12]      m2       sum of squared deviations from the mean, updated Welford-style
//                      with mean = sum / count: m2 += (x - mean_before) * (x - mean_after)
//
// With count >= 5: q0 = min, q4 = max, q0 <= q1 <= ... <= q4, n0 = 1 < n1 < n2 < n3 <
// n4 = count. The desired positions are derived from count, 1 + (count - 1) * p_i with
// p = (0, .25, .5, .75, 1), and are not stored.
// With count < 5: q0..q(count-1) are the values seen so far, sorted ascending; the unused
// heights are 0; the positions are always 1 2 3 4 5 (the paper's initial positions, so the
// fifth value completes the paper's initialisation without touching them).
// The empty state is {0, 0 0 0 0 0, 1 2 3 4 5, 0, 0}.
//
// All 13 numbers are always finite: add() rejects non-finite values and values whose sum
// or squared deviation would overflow a double (which also keeps the P^2 arithmetic
// finite). A failed add() leaves the object unchanged.
class P2Statistic {
 public:
  static constexpr std::size_t kStateSize = 13;
  static constexpr int kMarkers = 5;
  // Largest count the state can hold exactly as a double.
  static constexpr std::uint64_t kMaxCount = std::uint64_t{1} << 53;

  P2Statistic() noexcept { reset(); }
  // Rebuilds an object from a state() list; throws EarlError naming what is wrong.
  explicit P2Statistic(const std::vector<double>& state);
  P2Statistic(const double* state, std::size_t size);

  // Adds one value; throws EarlError for nan/inf or overflow (object unchanged).
  void add(double x);
  // Adds values[0..n) in order. All or nothing: on error the object is unchanged and the
  // message names the index of the offending value.
  void add_many(const double* values, std::size_t n);

  std::uint64_t count() const noexcept { return count_; }
  void reset() noexcept;
  // The 13 numbers described above; P2Statistic(p.state()) continues exactly like p.
  std::array<double, kStateSize> state() const noexcept;
  std::vector<double> state_vector() const;

  // P^2 estimates of the 25%, 50% and 75% quantiles; need at least 5 values.
  double q25() const;
  double med() const;
  double q75() const;

  // Exact; need at least 1 value.
  double min() const;
  double max() const;
  double mean() const;
  double sum() const;

  // Sample variance m2 / (count - 1). EARL 2.0 mappings (Python, Lua, Tcl 2.0 commands):
  // one value gives 0.0, no values is an error (conformance B5 resolution).
  double var() const;
  // The 1998 Tcl dialect's `$so var`: needs at least 2 values, else EarlError (C29).
  double variance_strict() const;

 private:
  void check_at_least(std::uint64_t needed, const char* what) const;
  void validate_and_load(const double* state, std::size_t size);

  std::uint64_t count_;
  double q_[kMarkers];          // marker heights
  std::int64_t n_[kMarkers];    // marker positions, 1-based
  double sum_;
  double m2_;
};

}  // namespace earl
