#include "convert/merge_offsets.h"

#include <algorithm>
#include <cmath>
#include <limits>

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
  constexpr double inf = std::numeric_limits<double>::infinity();
  // d[i][j]: the least upper bound on offset_j - offset_i that the bounds imply, over every
  // chain of inputs (difference constraints; Floyd-Warshall), so that messages 0 -> 1 -> 2
  // -> 0 bound every offset both ways although each pair exchanges messages one way.
  std::vector<std::vector<double>> d(n, std::vector<double>(n, inf));
  for (std::size_t i = 0; i < n; ++i) d[i][i] = 0;
  std::vector<std::uint64_t> messages(n, 0);
  for (const auto& [key, bounds] : pairs) {
    const auto [a, b] = key;
    if (bounds.has_low) d[b][a] = std::min(d[b][a], -bounds.low);
    if (bounds.has_high) d[a][b] = std::min(d[a][b], bounds.high);
    messages[a] += bounds.messages;
    messages[b] += bounds.messages;
  }
  std::size_t reference = n;
  for (std::size_t i = 0; i < n && reference == n; ++i)
    if (inputs[i].how == "given") reference = i;
  if (reference == n) {
    reference = 0;
    inputs[0].how = "reference";
    inputs[0].offset = 0;
  }
  // Fixing offset_k - offset_ref = v adds two edges; every bound through them tightens.
  auto fix = [&](std::size_t k, double v) {
    d[reference][k] = std::min(d[reference][k], v);
    d[k][reference] = std::min(d[k][reference], -v);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        d[i][j] = std::min({d[i][j], d[i][reference] + v + d[k][j], d[i][k] - v + d[reference][j]});
  };
  const std::vector<std::vector<double>> direct = d;
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        if (d[i][k] + d[k][j] < d[i][j]) d[i][j] = d[i][k] + d[k][j];
  // Bounds that contradict each other (drifting clocks: a cycle of negative length) make
  // every closed bound meaningless: then each pair's own bounds are used, as measured.
  for (std::size_t i = 0; i < n; ++i)
    if (d[i][i] < 0) {
      d = direct;
      break;
    }
  for (std::size_t k = 0; k < n; ++k)
    if (k != reference && inputs[k].how == "given") fix(k, inputs[k].offset - inputs[reference].offset);
  // Each input's interval: what the messages and the given offsets allow.
  std::vector<double> allowed_low(n), allowed_high(n);
  for (std::size_t k = 0; k < n; ++k) {
    allowed_low[k] = -d[k][reference];
    allowed_high[k] = d[reference][k];
  }
  // The others in input order, each at the midpoint of what the ones estimated before it
  // leave: every estimate stays within what all the bounds allow together, so that (where
  // the bounds agree) no message of the merged trace is received before it was sent.
  for (std::size_t k = 0; k < n; ++k) {
    if (k == reference || inputs[k].how == "given") continue;
    const double low = -d[k][reference], high = d[reference][k];
    InputOffset& out = inputs[k];
    const double base = inputs[reference].offset;
    double v = 0;
    if (std::isfinite(low) && std::isfinite(high)) {
      v = (low + high) / 2;
      out.how = "estimated";
    } else if (std::isfinite(low) || std::isfinite(high)) {
      v = std::isfinite(low) ? low : high;
      out.how = "bound";
    } else {
      out.how = "unlinked";
    }
    if (std::isfinite(allowed_low[k])) out.low = base + allowed_low[k];
    if (std::isfinite(allowed_high[k])) out.high = base + allowed_high[k];
    // Applied in whole microseconds (merge.cpp): fixed as applied, so the inputs after it
    // are estimated against the offset it really gets.
    v = std::nearbyint((base + v) * 1e6) / 1e6 - base;
    out.offset = base + v;
    out.messages = messages[k];
    if (out.how != "unlinked") {
      out.linked_to = static_cast<std::int64_t>(reference);
      fix(k, v);
    }
  }
}

}  // namespace earl::convert
