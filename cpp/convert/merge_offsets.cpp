#include "convert/merge_offsets.h"

#include <algorithm>
#include <deque>

namespace earl::convert {

void PairBounds::message_from_a(double send, double recv) {
  const double bound = send - recv;
  low = has_low ? std::max(low, bound) : bound;
  has_low = true;
  ++messages;
}

void PairBounds::message_from_b(double send, double recv) {
  const double bound = recv - send;
  high = has_high ? std::min(high, bound) : bound;
  has_high = true;
  ++messages;
}

void estimate_offsets(const std::map<PairKey, PairBounds>& pairs, std::vector<InputOffset>& inputs) {
  const std::size_t n = inputs.size();
  if (n == 0) return;
  std::vector<char> fixed(n, 0);
  std::size_t reference = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (inputs[i].how == "given") {
      fixed[i] = 1;
      if (!fixed[reference]) reference = i;
    }
  if (!fixed[reference]) {
    inputs[reference].how = "reference";
    inputs[reference].offset = 0;
    fixed[reference] = 1;
  }
  // Breadth first from every fixed input: the reference first, so that an input is
  // estimated from the nearest fixed one.
  std::deque<std::size_t> queue{reference};
  for (std::size_t i = 0; i < n; ++i)
    if (fixed[i] && i != reference) queue.push_back(i);
  while (!queue.empty()) {
    const std::size_t from = queue.front();
    queue.pop_front();
    for (const auto& [key, bounds] : pairs) {
      if (key.first != from && key.second != from) continue;
      const std::size_t to = key.first == from ? key.second : key.first;
      if (fixed[to] || (!bounds.has_low && !bounds.has_high)) continue;
      // Bounds on offset_to - offset_from: as stored for (from, to), negated and swapped
      // for (to, from).
      const bool forward = key.first == from;
      const bool has_low = forward ? bounds.has_low : bounds.has_high;
      const bool has_high = forward ? bounds.has_high : bounds.has_low;
      const double low = forward ? bounds.low : -bounds.high;
      const double high = forward ? bounds.high : -bounds.low;
      InputOffset& out = inputs[to];
      const double base = inputs[from].offset;
      if (has_low) out.low = base + low;
      if (has_high) out.high = base + high;
      if (has_low && has_high) {
        out.offset = base + (low + high) / 2;
        out.how = "estimated";
      } else {
        out.offset = base + (has_low ? low : high);
        out.how = "bound";
      }
      out.messages = bounds.messages;
      out.linked_to = static_cast<std::int64_t>(from);
      fixed[to] = 1;
      queue.push_back(to);
    }
  }
  for (std::size_t i = 0; i < n; ++i)
    if (!fixed[i]) {
      inputs[i].how = "unlinked";
      inputs[i].offset = 0;
    }
}

}  // namespace earl::convert
