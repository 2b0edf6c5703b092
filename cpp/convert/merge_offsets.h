#pragma once
// earl merge's clock-offset estimate (convert/merge.h): from the bounds the messages
// between two inputs put on the difference of their offsets, each input's offset relative
// to the reference (difference constraints, closed over chains of inputs).
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "convert/merge.h"

namespace earl::convert {

// What the messages between inputs a < b say about d = offset_b - offset_a (seconds):
// d >= low (a message a -> b: send - recv), d <= high (b -> a: recv - send).
struct PairBounds {
  bool has_low = false, has_high = false;
  double low = 0, high = 0;
  std::uint64_t messages = 0;
  void message_from_a(double send, double recv);  // a -> b
  void message_from_b(double send, double recv);  // b -> a
};

using PairKey = std::pair<std::size_t, std::size_t>;  // (a, b), a < b

// Fills offset, how, low, high, messages and linked_to of every input whose offset is not
// given; inputs[i].how == "given" marks a given one (its offset set). The reference is the
// first input with a given offset, else input 0 (offset 0). Each bound counts along every
// chain of inputs that messages link. low/high: the interval the messages and the given
// offsets allow; the inputs are estimated in input order, each at the midpoint of what that
// interval keeps once the inputs estimated before it are fixed (within low..high).
void estimate_offsets(const std::map<PairKey, PairBounds>& pairs, std::vector<InputOffset>& inputs);

}  // namespace earl::convert
