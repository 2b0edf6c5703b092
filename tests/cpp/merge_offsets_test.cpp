// earl merge's offset estimate (convert/merge_offsets.h) on bounds worked out by hand:
// given offsets as the reference, bounds combined along chains, one-way bounds, inputs no
// message links, and bounds that contradict each other.
#include <map>
#include <vector>

#include <doctest/doctest.h>

#include "convert/merge_offsets.h"

using namespace earl::convert;

namespace {

std::vector<InputOffset> inputs(std::size_t n) { return std::vector<InputOffset>(n); }

}  // namespace

TEST_CASE("a given offset is the reference; the other input takes the midpoint") {
  // o1 - o0 in [-1, 3] (a message 0 -> 1 sent at 5, received at 6; 1 -> 0 sent 2, received 5)
  std::map<PairKey, PairBounds> pairs;
  pairs[{0, 1}].message_from_a(5, 6);
  pairs[{0, 1}].message_from_b(2, 5);
  auto in = inputs(2);
  in[1].how = "given";
  in[1].offset = 0.5;
  estimate_offsets(pairs, in);
  // o0 in [o1 - 3, o1 + 1] = [-2.5, 1.5]: midpoint -0.5
  CHECK(in[0].how == "estimated");
  CHECK(*in[0].low == doctest::Approx(-2.5));
  CHECK(*in[0].high == doctest::Approx(1.5));
  CHECK(in[0].offset == doctest::Approx(-0.5));
  CHECK(in[0].linked_to == 1);
  CHECK(in[0].messages == 2);
  CHECK(in[1].offset == 0.5);
}

TEST_CASE("one-way bounds along a chain, and an input no message links") {
  std::map<PairKey, PairBounds> pairs;
  pairs[{0, 1}].message_from_a(0.010, 0.004);  // o1 - o0 >= 0.006
  pairs[{1, 2}].message_from_a(0.020, 0.021);  // o2 - o1 >= -0.001
  auto in = inputs(4);
  estimate_offsets(pairs, in);
  CHECK(in[0].how == "reference");
  CHECK(in[1].how == "bound");
  CHECK(in[1].offset == doctest::Approx(0.006));
  CHECK(!in[1].high);
  // o2 >= o1 - 0.001 >= 0.005, and with o1 fixed at 0.006 the bound is 0.005 too
  CHECK(in[2].how == "bound");
  CHECK(in[2].offset == doctest::Approx(0.005));
  CHECK(in[3].how == "unlinked");
  CHECK(in[3].offset == 0);
  CHECK(in[3].linked_to == -1);
}

TEST_CASE("bounds that contradict each other still give their midpoint, low above high") {
  std::map<PairKey, PairBounds> pairs;
  pairs[{0, 1}].message_from_a(0.000010, 0.000008);  // o1 - o0 >= 2 us
  pairs[{0, 1}].message_from_b(0.000009, 0.000010);  // o1 - o0 <= 1 us
  auto in = inputs(2);
  estimate_offsets(pairs, in);
  CHECK(in[1].how == "estimated");
  CHECK(*in[1].low == doctest::Approx(2e-6));   // as measured, not closed over the cycle
  CHECK(*in[1].high == doctest::Approx(1e-6));
  CHECK(in[1].offset >= 1e-6 - 1e-12);
  CHECK(in[1].offset <= 2e-6 + 1e-12);
}
