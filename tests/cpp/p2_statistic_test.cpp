// Unit tests of earl::P2Statistic: hand-computed P^2 steps, exact moments, state round
// trip, errors.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "model/error.h"
#include "stats/p2_statistic.h"

using earl::EarlError;
using earl::P2Statistic;

namespace {

// Relative tolerance for values like 14/3 that are not exact in binary.
bool near(double a, double b) { return std::fabs(a - b) <= 1e-12 * (1.0 + std::fabs(b)); }
#define CHECK_NEAR(a, b) CHECK_MESSAGE(near((a), (b)), (#a " ~= " #b " (" + std::to_string(a) + ")"))

// The call throws EarlError whose message contains `needle`.
#define CHECK_THROWS_MENTIONING(expr, needle) \
  CHECK_THROWS_WITH_AS((void)(expr), doctest::Contains(needle), EarlError)

P2Statistic make(const std::vector<double>& values) {
  P2Statistic p;
  for (double v : values) p.add(v);
  return p;
}

// Element-wise comparison with a relative tolerance (for m2, whose Welford updates use
// means like 10/3 that are not exact in binary).
bool near_state(const P2Statistic& p, const std::vector<double>& expected) {
  const auto s = p.state();
  if (expected.size() != s.size()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (!(std::fabs(s[i] - expected[i]) <= 1e-12 * (1.0 + std::fabs(expected[i])))) return false;
  }
  return true;
}
#define CHECK_STATE(p, ...) \
  CHECK_MESSAGE(near_state((p), std::vector<double>__VA_ARGS__), "state of " #p " == " #__VA_ARGS__)

bool same_state(const P2Statistic& a, const P2Statistic& b) {
  const auto sa = a.state();
  const auto sb = b.state();
  for (std::size_t i = 0; i < sa.size(); ++i) {
    // Bitwise equality of finite doubles (no NaN can occur in a state).
    if (!(sa[i] == sb[i]) || std::signbit(sa[i]) != std::signbit(sb[i])) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------

TEST_CASE("empty") {
  P2Statistic p;
  CHECK(p.count() == 0);
  const std::vector<double> expected = {0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 0, 0};
  CHECK(p.state_vector() == expected);
  CHECK_THROWS_MENTIONING(p.min(), "needs at least 1 value");
  CHECK_THROWS_MENTIONING(p.max(), "needs at least 1 value");
  CHECK_THROWS_MENTIONING(p.mean(), "needs at least 1 value");
  CHECK_THROWS_MENTIONING(p.sum(), "needs at least 1 value");
  CHECK_THROWS_MENTIONING(p.var(), "needs at least 1 value");
  CHECK_THROWS_MENTIONING(p.variance_strict(), "needs at least 2 values");
  CHECK_THROWS_MENTIONING(p.q25(), "needs at least 5 values");
  CHECK_THROWS_MENTIONING(p.med(), "needs at least 5 values");
  CHECK_THROWS_MENTIONING(p.q75(), "needs at least 5 values");
}

// Before five values the heights hold the values seen so far, sorted; unused heights are 0;
// positions stay 1 2 3 4 5.
TEST_CASE("first values sorted") {
  P2Statistic p;
  p.add(4);
  CHECK((p.state_vector() == std::vector<double>{1, 4, 0, 0, 0, 0, 1, 2, 3, 4, 5, 4, 0}));
  CHECK((p.min() == 4 && p.max() == 4 && p.mean() == 4 && p.sum() == 4));
  CHECK(p.var() == 0.0);                                      // EARL 2.0: one value -> 0.0
  CHECK_THROWS_MENTIONING(p.variance_strict(), "needs at least 2 values");  // 1998 Tcl dialect
  p.add(-2);
  p.add(7);
  // values 4 -2 7: mean 3, m2 = 1 + 25 + 16 = 42
  CHECK((p.state_vector() == std::vector<double>{3, -2, 4, 7, 0, 0, 1, 2, 3, 4, 5, 9, 42}));
  CHECK((p.min() == -2 && p.max() == 7 && p.mean() == 3 && p.sum() == 9));
  CHECK((p.var() == 21.0 && p.variance_strict() == 21.0));
  CHECK_THROWS_MENTIONING(p.med(), "needs at least 5 values");
  p.add(4);  // a tie is inserted after the equal value
  p.add(0);
  // values 4 -2 7 4 0: sum 13, mean 2.6, m2 = 1.96 + 21.16 + 19.36 + 1.96 + 6.76 = 51.2
  const auto s = p.state();
  CHECK(s[0] == 5);
  CHECK((s[1] == -2 && s[2] == 0 && s[3] == 4 && s[4] == 4 && s[5] == 7));
  CHECK((s[6] == 1 && s[7] == 2 && s[8] == 3 && s[9] == 4 && s[10] == 5));
  CHECK(s[11] == 13);
  CHECK_NEAR(s[12], 51.2);
  CHECK((p.q25() == 0 && p.med() == 4 && p.q75() == 4));
  CHECK((p.min() == -2 && p.max() == 7));
  CHECK_NEAR(p.var(), 12.8);
}

// Values 5 1 4 2 3 6 7 8. After five: q = 1 2 3 4 5, n = 1 2 3 4 5.
//  x=6 > q4: q4 = 6, cell k = 3, n4 -> 6. count 6, desired n' = 1 + 5p = 1 2.25 3.5 4.75 6:
//       n' - n = .25 .5 .75 for the inner markers, all < 1: no adjustment.
//       q = 1 2 3 4 6, n = 1 2 3 4 6.
//  x=7 > q4: q4 = 7, n4 -> 7. desired 1 2.5 4 5.5 7.
//       i=1: .5 no. i=2: n'-n = 1 but n3 - n2 = 1 (no room): no.
//       i=3: 1.5 >= 1, n4 - n3 = 3 > 1: d = +1, parabolic
//            q3 + d/(n4-n2) [ (n3-n2+d)(q4-q3)/(n4-n3) + (n4-n3-d)(q3-q2)/(n3-n2) ]
//          = 4 + 1/4 [ 2*3/3 + 2*1/1 ] = 5, inside (3, 7): q3 = 5, n3 = 5.
//       q = 1 2 3 5 7, n = 1 2 3 5 7.
//  x=8 > q4: q4 = 8, n4 -> 8. desired 1 2.75 4.5 6.25 8.
//       i=2: 1.5, n3 - n2 = 2: d = +1: 3 + 1/(5-2) [ 2*(5-3)/2 + 1*(3-2)/1 ] = 4; n2 = 4.
//       i=3: 1.25, n4 - n3 = 3: d = +1: 5 + 1/(8-4) [ 2*(8-5)/3 + 2*(5-4)/1 ] = 6; n3 = 6.
//       q = 1 2 4 6 8, n = 1 2 4 6 8 (on linear data the parabola is exact).
TEST_CASE("p2 hand increasing") {
  P2Statistic p = make({5, 1, 4, 2, 3});
  CHECK_STATE(p, {5, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 15, 10});
  p.add(6);
  CHECK_STATE(p, {6, 1, 2, 3, 4, 6, 1, 2, 3, 4, 6, 21, 17.5});
  CHECK((p.q25() == 2 && p.med() == 3 && p.q75() == 4 && p.max() == 6));
  p.add(7);
  CHECK_STATE(p, {7, 1, 2, 3, 5, 7, 1, 2, 3, 5, 7, 28, 28});
  p.add(8);
  CHECK_STATE(p, {8, 1, 2, 4, 6, 8, 1, 2, 4, 6, 8, 36, 42});
  CHECK((p.q25() == 2 && p.med() == 4 && p.q75() == 6 && p.min() == 1 && p.max() == 8));
  CHECK((p.mean() == 4.5 && p.sum() == 36));
  CHECK_NEAR(p.var(), 6.0);
}

// Values 1 2 3 4 5 5 5 5: the last step falls back to the linear formula.
//  x=5: 4 <= 5 <= q4: k = 3, n4 -> 6; desired 1 2.25 3.5 4.75 6: no adjustment.
//  x=5: k = 3, n4 -> 7; desired 1 2.5 4 5.5 7. i=3: 1.5, room: parabolic
//       4 + 1/(7-3) [ 2*(5-4)/(7-4) + 2*(4-3)/1 ] = 4 + 1/4 * 8/3 = 14/3; n3 = 5.
//       q = 1 2 3 14/3 5, n = 1 2 3 5 7.
//  x=5: k = 3, n4 -> 8; desired 1 2.75 4.5 6.25 8.
//       i=2: 1.5, n3 - n2 = 2: 3 + 1/(5-2) [ 2*(14/3-3)/2 + 1*(3-2)/1 ] = 3 + 8/9 = 35/9,
//            inside (2, 14/3): q2 = 35/9, n2 = 4.
//       i=3: 1.25, n4 - n3 = 3: 14/3 + 1/(8-4) [ 2*(5-14/3)/3 + 2*(14/3-35/9)/1 ]
//            = 14/3 + 1/4 * 16/9 = 46/9 > q4 = 5: linear instead:
//            q3 + (q4 - q3)/(n4 - n3) = 14/3 + (1/3)/3 = 43/9; n3 = 6.
//       q = 1 2 35/9 43/9 5, n = 1 2 4 6 8.
//  Moments: sum 30, mean 3.75, m2 = 2.75^2 + 1.75^2 + .75^2 + .25^2 + 4 * 1.25^2 = 17.5.
TEST_CASE("p2 hand linear fallback up") {
  P2Statistic p = make({1, 2, 3, 4, 5, 5, 5});
  auto s = p.state();
  CHECK((s[1] == 1 && s[2] == 2 && s[3] == 3 && s[5] == 5));
  CHECK_NEAR(s[4], 14.0 / 3.0);
  CHECK((s[6] == 1 && s[7] == 2 && s[8] == 3 && s[9] == 5 && s[10] == 7));
  p.add(5);
  s = p.state();
  CHECK(s[0] == 8);
  CHECK((s[1] == 1 && s[2] == 2 && s[5] == 5));
  CHECK_NEAR(s[3], 35.0 / 9.0);
  CHECK_NEAR(s[4], 43.0 / 9.0);
  CHECK((s[6] == 1 && s[7] == 2 && s[8] == 4 && s[9] == 6 && s[10] == 8));
  CHECK(s[11] == 30);
  CHECK_NEAR(s[12], 17.5);
  CHECK_NEAR(p.var(), 2.5);
  CHECK_NEAR(p.med(), 35.0 / 9.0);
}

// Values 1 2 3 4 5 1 1 1: markers move down (d = -1), the last step linearly.
//  x=1: q0 <= 1 < q1: k = 0, n1..n4 += 1: n = 1 3 4 5 6; desired 1 2.25 3.5 4.75 6: -.75
//       -.5 -.25: no adjustment.
//  x=1: k = 0: n = 1 4 5 6 7; desired 1 2.5 4 5.5 7.
//       i=1: -1.5, n0 - n1 = -3: d = -1:
//            2 - 1/(5-1) [ (4-1-1)(3-2)/(5-4) + (5-4+1)(2-1)/(4-1) ] = 2 - 2/3 = 4/3; n1 = 3.
//       i=2: -1, n1 - n2 = -2: d = -1:
//            3 - 1/(6-3) [ (5-3-1)(4-3)/(6-5) + (6-5+1)(3-4/3)/(5-3) ] = 3 - 8/9 = 19/9; n2 = 4.
//       i=3: -.5: no.   q = 1 4/3 19/9 4 5, n = 1 3 4 6 7.
//  x=1: 1 < q1: k = 0: n = 1 4 5 7 8; desired 1 2.75 4.5 6.25 8.
//       i=1: -1.25, d = -1: 4/3 - 1/4 [ 2*(19/9-4/3)/1 + 2*(4/3-1)/3 ] = 4/3 - 4/9 = 8/9 < q0:
//            linear: q1 - (q0 - q1)/(n0 - n1) = 4/3 - (-1/3)/(-3) = 11/9; n1 = 3.
//       i=2: -.5, i=3: -.75: no.   q = 1 11/9 19/9 4 5, n = 1 3 5 7 8.
TEST_CASE("p2 hand linear fallback down") {
  P2Statistic p = make({1, 2, 3, 4, 5, 1});
  auto s = p.state();
  CHECK((s[6] == 1 && s[7] == 3 && s[8] == 4 && s[9] == 5 && s[10] == 6));
  CHECK((s[1] == 1 && s[2] == 2 && s[3] == 3 && s[4] == 4 && s[5] == 5));
  p.add(1);
  s = p.state();
  CHECK_NEAR(s[2], 4.0 / 3.0);
  CHECK_NEAR(s[3], 19.0 / 9.0);
  CHECK((s[1] == 1 && s[4] == 4 && s[5] == 5));
  CHECK((s[6] == 1 && s[7] == 3 && s[8] == 4 && s[9] == 6 && s[10] == 7));
  p.add(1);
  s = p.state();
  CHECK_NEAR(s[2], 11.0 / 9.0);
  CHECK_NEAR(s[3], 19.0 / 9.0);
  CHECK((s[1] == 1 && s[4] == 4 && s[5] == 5));
  CHECK((s[6] == 1 && s[7] == 3 && s[8] == 5 && s[9] == 7 && s[10] == 8));
  // values 1 2 3 4 5 1 1 1: sum 18, mean 2.25, m2 = 4 * 1.25^2 + .25^2 + .75^2 + 1.75^2 + 2.75^2 = 17.5
  CHECK(s[11] == 18);
  CHECK_NEAR(s[12], 17.5);
  CHECK((p.min() == 1 && p.max() == 5 && p.mean() == 2.25));
}

TEST_CASE("new min and max are exact") {
  P2Statistic p = make({10, 20, 30, 40, 50});
  p.add(-5);
  CHECK((p.min() == -5 && p.max() == 50));
  p.add(1e6);
  CHECK((p.min() == -5 && p.max() == 1e6));
  for (int i = 0; i < 1000; ++i) p.add(25 + (i % 7));
  CHECK((p.min() == -5 && p.max() == 1e6));
  CHECK(p.count() == 1007);
}

// A simple deterministic generator (no <random> distribution differences across libraries).
double lcg_uniform(unsigned long long& s) {
  s = s * 6364136223846793005ULL + 1442695040888963407ULL;
  return static_cast<double>(s >> 11) * (1.0 / 9007199254740992.0);
}

TEST_CASE("uniform estimates") {
  P2Statistic p;
  unsigned long long seed = 42;
  double sum = 0;
  const int n = 100000;
  std::vector<double> xs;
  for (int i = 0; i < n; ++i) {
    const double x = lcg_uniform(seed);
    xs.push_back(x);
    sum += x;
  }
  p.add_many(xs.data(), xs.size());
  CHECK(p.count() == static_cast<std::uint64_t>(n));
  CHECK(std::fabs(p.q25() - 0.25) < 0.01);
  CHECK(std::fabs(p.med() - 0.5) < 0.01);
  CHECK(std::fabs(p.q75() - 0.75) < 0.01);
  CHECK(std::fabs(p.var() - 1.0 / 12.0) < 0.002);
  CHECK(p.sum() == sum);  // same order of additions
  // add_many == repeated add, bit for bit
  P2Statistic r;
  for (double x : xs) r.add(x);
  CHECK(same_state(p, r));
}

TEST_CASE("state round trip") {
  unsigned long long seed = 7;
  for (int stop : {0, 1, 3, 5, 6, 50, 1000}) {
    P2Statistic p;
    for (int i = 0; i < stop; ++i) p.add(lcg_uniform(seed) * 100 - 30);
    P2Statistic q(p.state_vector());
    CHECK(same_state(p, q));
    const auto arr = p.state();
    P2Statistic r(arr.data(), arr.size());
    CHECK(same_state(p, r));
    for (int i = 0; i < 500; ++i) {
      const double x = lcg_uniform(seed) * 100 - 30;
      q.add(x);
      p.add(x);
      r.add(x);
    }
    CHECK(same_state(p, q));
    CHECK(same_state(p, r));
  }
}

TEST_CASE("reset") {
  P2Statistic p = make({1, 2, 3, 4, 5, 6, 7});
  p.reset();
  CHECK(same_state(p, P2Statistic()));
  CHECK(p.count() == 0);
  CHECK_THROWS_MENTIONING(p.mean(), "needs at least 1 value");
  p.add(3);
  CHECK(p.mean() == 3);
}

TEST_CASE("bad values") {
  P2Statistic p = make({1, 2, 3});
  const auto before = p.state_vector();
  CHECK_THROWS_MENTIONING(p.add(std::numeric_limits<double>::quiet_NaN()), "not a finite number");
  CHECK_THROWS_MENTIONING(p.add(std::numeric_limits<double>::infinity()), "not a finite number");
  CHECK_THROWS_MENTIONING(p.add(-std::numeric_limits<double>::infinity()), "not a finite number");
  CHECK(p.state_vector() == before);
  // Overflow of the moments is refused and leaves the object unchanged.
  CHECK_THROWS_MENTIONING(p.add(1e300), "overflow");
  CHECK(p.state_vector() == before);
  P2Statistic big = make({1.7e308});
  CHECK_THROWS_MENTIONING(big.add(1.7e308), "running sum overflow");
  CHECK(big.count() == 1);
  // add_many is all or nothing and names the index.
  const double xs[] = {4, 5, std::nan(""), 6};
  CHECK_THROWS_MENTIONING(p.add_many(xs, 4), "index 2");
  CHECK(p.state_vector() == before);
}

TEST_CASE("bad states") {
  using V = std::vector<double>;
  const double inf = std::numeric_limits<double>::infinity();
  CHECK_THROWS_MENTIONING(P2Statistic(V{}), "expected 13 numbers");
  CHECK_THROWS_MENTIONING(P2Statistic(V(12, 0.0)), "got 12");
  CHECK_THROWS_MENTIONING(P2Statistic(V(14, 0.0)), "got 14");
  CHECK_THROWS_MENTIONING(P2Statistic(V{-1, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 0, 0}), "count");
  CHECK_THROWS_MENTIONING(P2Statistic(V{2.5, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 0, 0}), "nonnegative integer");
  CHECK_THROWS_MENTIONING(P2Statistic(V{0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, inf, 0}), "state[11] (sum) is not a finite");
  CHECK_THROWS_MENTIONING(P2Statistic(V{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}), "1 2 3 4 5");
  CHECK_THROWS_MENTIONING(P2Statistic(V{0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 1, 0}), "sum and m2 must be 0");
  CHECK_THROWS_MENTIONING(P2Statistic(V{1, 2, 0, 0, 0, 0, 1, 2, 3, 4, 5, 3, 0}), "sum must equal q0");
  CHECK_THROWS_MENTIONING(P2Statistic(V{2, 2, 0, 0, 0, 0, 1, 2, 3, 4, 5, 2, 0}), "heights must not decrease");
  CHECK_THROWS_MENTIONING(P2Statistic(V{2, 0, 2, 0, 9, 0, 1, 2, 3, 4, 5, 2, 2}), "unused height state[4] (q3)");
  CHECK_THROWS_MENTIONING(P2Statistic(V{2, 0, 2, 0, 0, 0, 1, 2, 3, 4, 5, 2, -1}), "must not be negative");
  // count >= 5
  const V good = make({1, 2, 3, 4, 5, 6, 7}).state_vector();
  P2Statistic ok(good);
  CHECK_STATE(ok, {7, 1, 2, 3, 5, 7, 1, 2, 3, 5, 7, 28, 28});
  CHECK(ok.count() == 7);
  V bad = good;
  bad[10] = 8;
  CHECK_THROWS_MENTIONING(P2Statistic(bad), "must equal count");
  bad = good;
  bad[6] = 2;
  CHECK_THROWS_MENTIONING(P2Statistic(bad), "state[6] (n0) must be 1");
  bad = good;
  bad[8] = 5;
  CHECK_THROWS_MENTIONING(P2Statistic(bad), "positions must increase strictly");
  bad = good;
  bad[7] = 2.5;
  CHECK_THROWS_MENTIONING(P2Statistic(bad), "state[7] (n1) must be an integer");
  bad = good;
  bad[3] = 6;
  CHECK_THROWS_MENTIONING(P2Statistic(bad), "heights must not decrease");
  bad = good;
  bad[11] = 1000;
  CHECK_THROWS_MENTIONING(P2Statistic(bad), "outside [min, max]");
}

}  // namespace

