#include "stats/p2_statistic.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <sstream>
#include <string>

#include "model/error.h"

namespace earl {

namespace {

// Quantiles of the five markers (equiprobable cells, 4 cells).
constexpr double kMarkerP[P2Statistic::kMarkers] = {0.0, 0.25, 0.5, 0.75, 1.0};

const char* const kStateNames[P2Statistic::kStateSize] = {
    "count", "q0", "q1", "q2", "q3", "q4", "n0", "n1", "n2", "n3", "n4", "sum", "m2"};

std::string format_number(double v) {
  std::ostringstream out;
  out.precision(17);
  out << v;
  return out.str();
}

[[noreturn]] void bad_state(const std::string& what) {
  throw EarlError("P2Statistic: bad state: " + what);
}

std::string state_field(std::size_t i) {
  return "state[" + std::to_string(i) + "] (" + kStateNames[i] + ")";
}

}  // namespace

P2Statistic::P2Statistic(const std::vector<double>& state) {
  validate_and_load(state.data(), state.size());
}

P2Statistic::P2Statistic(const double* state, std::size_t size) {
  validate_and_load(state, size);
}

void P2Statistic::reset() noexcept {
  count_ = 0;
  for (int i = 0; i < kMarkers; ++i) {
    q_[i] = 0.0;
    n_[i] = i + 1;
  }
  sum_ = 0.0;
  m2_ = 0.0;
}

std::array<double, P2Statistic::kStateSize> P2Statistic::state() const noexcept {
  std::array<double, kStateSize> s{};
  s[0] = static_cast<double>(count_);
  for (int i = 0; i < kMarkers; ++i) {
    s[1 + i] = q_[i];
    s[6 + i] = static_cast<double>(n_[i]);
  }
  s[11] = sum_;
  s[12] = m2_;
  return s;
}

std::vector<double> P2Statistic::state_vector() const {
  const auto s = state();
  return std::vector<double>(s.begin(), s.end());
}

void P2Statistic::validate_and_load(const double* s, std::size_t size) {
  if (size != kStateSize) {
    bad_state("expected " + std::to_string(kStateSize) + " numbers (count, q0..q4, n0..n4, sum, m2), got " +
              std::to_string(size));
  }
  for (std::size_t i = 0; i < kStateSize; ++i) {
    if (!std::isfinite(s[i])) bad_state(state_field(i) + " is not a finite number");
  }
  const double c = s[0];
  if (c < 0 || c != std::floor(c) || c > static_cast<double>(kMaxCount)) {
    bad_state(state_field(0) + " must be a nonnegative integer, got " + format_number(c));
  }
  const auto count = static_cast<std::uint64_t>(c);
  const double* q = s + 1;
  const double* n = s + 6;
  const double sum = s[11];
  const double m2 = s[12];

  if (count < static_cast<std::uint64_t>(kMarkers)) {
    for (int i = 0; i < kMarkers; ++i) {
      if (n[i] != i + 1) {
        bad_state("with count < 5 the positions n0..n4 must be 1 2 3 4 5, but " + state_field(6 + i) + " is " +
                  format_number(n[i]));
      }
    }
    for (int i = static_cast<int>(count); i < kMarkers; ++i) {
      if (q[i] != 0.0) {
        bad_state("with count " + std::to_string(count) + " the unused height " + state_field(1 + i) +
                  " must be 0, got " + format_number(q[i]));
      }
    }
  } else {
    for (int i = 0; i < kMarkers; ++i) {
      if (n[i] != std::floor(n[i])) {
        bad_state(state_field(6 + i) + " must be an integer, got " + format_number(n[i]));
      }
    }
    if (n[0] != 1) bad_state(state_field(6) + " must be 1, got " + format_number(n[0]));
    if (n[4] != c) bad_state(state_field(10) + " must equal count " + format_number(c) + ", got " + format_number(n[4]));
    for (int i = 1; i < kMarkers; ++i) {
      if (!(n[i - 1] < n[i])) {
        bad_state("positions must increase strictly, but " + state_field(5 + i) + " = " + format_number(n[i - 1]) +
                  " and " + state_field(6 + i) + " = " + format_number(n[i]));
      }
    }
  }
  const int filled = static_cast<int>(std::min<std::uint64_t>(count, kMarkers));
  for (int i = 1; i < filled; ++i) {
    if (!(q[i - 1] <= q[i])) {
      bad_state("heights must not decrease, but " + state_field(i) + " = " + format_number(q[i - 1]) + " > " +
                state_field(1 + i) + " = " + format_number(q[i]));
    }
  }
  if (m2 < 0) bad_state(state_field(12) + " must not be negative, got " + format_number(m2));
  if (count == 0) {
    if (sum != 0.0 || m2 != 0.0) bad_state("with count 0, sum and m2 must be 0");
  } else if (count == 1) {
    if (m2 != 0.0) bad_state("with count 1, m2 must be 0, got " + format_number(m2));
    if (sum != q[0]) bad_state("with count 1, sum must equal q0, got " + format_number(sum));
  } else {
    // sum/count must lie within [min, max] up to the worst-case rounding of a running sum
    // (|error of sum| <= (count-1) u sum|x|, so the mean is off by at most about count*eps*M).
    const double lo = q[0];
    const double hi = q[filled - 1];
    const double mean = sum / c;
    const double tol = (c + 1.0) * DBL_EPSILON * std::max(std::fabs(lo), std::fabs(hi));
    if (mean < lo - tol || mean > hi + tol) {
      bad_state("the mean sum/count = " + format_number(mean) + " lies outside [min, max] = [" + format_number(lo) +
                ", " + format_number(hi) + "]");
    }
  }

  count_ = count;
  for (int i = 0; i < kMarkers; ++i) {
    q_[i] = q[i];
    n_[i] = static_cast<std::int64_t>(n[i]);
  }
  sum_ = sum;
  m2_ = m2;
}

void P2Statistic::add(double x) {
  if (!std::isfinite(x)) {
    throw EarlError("P2Statistic.add: value " + format_number(x) + " is not a finite number");
  }
  if (count_ >= kMaxCount) throw EarlError("P2Statistic.add: count would exceed 2^53");

  // Moments first: computed tentatively, so that an overflow leaves the object unchanged.
  double new_sum;
  double new_m2;
  if (count_ == 0) {
    new_sum = x;
    new_m2 = 0.0;
  } else {
    const double old_mean = sum_ / static_cast<double>(count_);
    new_sum = sum_ + x;
    const double new_mean = new_sum / static_cast<double>(count_ + 1);
    double delta = (x - old_mean) * (x - new_mean);
    // Mathematically delta >= 0 (new_mean lies between old_mean and x); rounding of a mean
    // very close to x may make it a tiny negative number.
    if (delta < 0) delta = 0.0;
    new_m2 = m2_ + delta;
  }
  if (!std::isfinite(new_sum)) {
    throw EarlError("P2Statistic.add: value " + format_number(x) + " makes the running sum overflow");
  }
  if (!std::isfinite(new_m2)) {
    throw EarlError("P2Statistic.add: value " + format_number(x) + " makes the sum of squared deviations overflow");
  }
  // (A finite m2 bounds every |x_i - mean| by sqrt(DBL_MAX), so all height differences
  // and the P^2 formulas below stay finite.)
  sum_ = new_sum;
  m2_ = new_m2;

  if (count_ < static_cast<std::uint64_t>(kMarkers)) {
    // Initialisation: keep the first five values sorted in the heights (positions stay
    // 1 2 3 4 5). Insert after equal values.
    int i = static_cast<int>(count_);
    while (i > 0 && q_[i - 1] > x) {
      q_[i] = q_[i - 1];
      --i;
    }
    q_[i] = x;
    ++count_;
    return;
  }

  // P^2 step B1: find the cell k (0..3) with q_k <= x < q_{k+1}, extending min/max.
  int k;
  if (x < q_[0]) {
    q_[0] = x;
    k = 0;
  } else if (x < q_[1]) {
    k = 0;
  } else if (x < q_[2]) {
    k = 1;
  } else if (x < q_[3]) {
    k = 2;
  } else if (x <= q_[4]) {
    k = 3;
  } else {
    q_[4] = x;
    k = 3;
  }
  // B2: markers above the cell move up one position; desired positions follow from count.
  for (int i = k + 1; i < kMarkers; ++i) ++n_[i];
  ++count_;

  // B3: move the three inner markers towards their desired positions if they are off by
  // one or more and the neighbour leaves room, with the piecewise-parabolic (P^2) formula,
  // or linearly where the parabola would leave (q_{i-1}, q_{i+1}).
  const double last = static_cast<double>(count_ - 1);
  for (int i = 1; i <= 3; ++i) {
    const double desired = 1.0 + last * kMarkerP[i];
    const double dn = desired - static_cast<double>(n_[i]);
    if ((dn >= 1.0 && n_[i + 1] - n_[i] > 1) || (dn <= -1.0 && n_[i - 1] - n_[i] < -1)) {
      const int d = dn >= 0 ? 1 : -1;
      const double dd = d;
      const double ni = static_cast<double>(n_[i]);
      const double nm = static_cast<double>(n_[i - 1]);
      const double np = static_cast<double>(n_[i + 1]);
      double qn = q_[i] + dd / (np - nm) *
                              ((ni - nm + dd) * (q_[i + 1] - q_[i]) / (np - ni) +
                               (np - ni - dd) * (q_[i] - q_[i - 1]) / (ni - nm));
      if (!(q_[i - 1] < qn && qn < q_[i + 1])) {
        qn = q_[i] + dd * (q_[i + d] - q_[i]) / static_cast<double>(n_[i + d] - n_[i]);
      }
      q_[i] = qn;
      n_[i] += d;
    }
  }
}

void P2Statistic::add_many(const double* values, std::size_t n) {
  P2Statistic work = *this;
  for (std::size_t i = 0; i < n; ++i) {
    try {
      work.add(values[i]);
    } catch (const EarlError& error) {
      throw EarlError(std::string("P2Statistic.add_many: value at index ") + std::to_string(i) + ": " +
                      error.what());
    }
  }
  *this = work;
}

void P2Statistic::check_at_least(std::uint64_t needed, const char* what) const {
  if (count_ < needed) {
    throw EarlError(std::string("P2Statistic.") + what + " needs at least " + std::to_string(needed) +
                    (needed == 1 ? " value" : " values") + ", has " + std::to_string(count_));
  }
}

double P2Statistic::q25() const {
  check_at_least(5, "q25");
  return q_[1];
}

double P2Statistic::med() const {
  check_at_least(5, "med");
  return q_[2];
}

double P2Statistic::q75() const {
  check_at_least(5, "q75");
  return q_[3];
}

double P2Statistic::min() const {
  check_at_least(1, "min");
  return q_[0];
}

double P2Statistic::max() const {
  check_at_least(1, "max");
  return count_ < static_cast<std::uint64_t>(kMarkers) ? q_[count_ - 1] : q_[4];
}

double P2Statistic::mean() const {
  check_at_least(1, "mean");
  return sum_ / static_cast<double>(count_);
}

double P2Statistic::sum() const {
  check_at_least(1, "sum");
  return sum_;
}

double P2Statistic::var() const {
  check_at_least(1, "var");
  if (count_ == 1) return 0.0;
  return m2_ / static_cast<double>(count_ - 1);
}

double P2Statistic::variance_strict() const {
  check_at_least(2, "var");
  return m2_ / static_cast<double>(count_ - 1);
}

}  // namespace earl
