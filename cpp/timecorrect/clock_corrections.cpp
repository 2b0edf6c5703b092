#include "timecorrect/clock_corrections.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "model/error.h"

namespace earl {

void ClockCorrectionOptions::validate() const {
  if (!std::isfinite(min_latency) || min_latency < 0.0)
    throw EarlError("min_latency must be a finite number of seconds >= 0, got " + std::to_string(min_latency));
  if (!(gamma > 0.0 && gamma <= 1.0))
    throw EarlError("gamma must lie in (0, 1], got " + std::to_string(gamma));
}

double ClockCorrections::add_jump(Location loc, std::uint64_t ordinal, double time, double bound) {
  if (jumps_.size() <= static_cast<std::size_t>(loc)) jumps_.resize(static_cast<std::size_t>(loc) + 1);
  // time + (bound - time) may round below bound; the stored shift must not.
  double shift = bound - time;
  while (time + shift < bound) shift = std::nextafter(shift, std::numeric_limits<double>::infinity());
  jumps_[loc].push_back(ClockJump{ordinal, time, shift, options_.backward ? shift : 0.0});
  ++jump_count_;
  max_shift_ = std::max(max_shift_, shift);
  return time + shift;
}

void ClockCorrections::finish() {
  for (auto& list : jumps_) {
    double ramp = -std::numeric_limits<double>::infinity();
    for (auto j = list.rbegin(); j != list.rend(); ++j) {
      ramp = std::max(ramp, j->back - decay_ * j->time);
      j->ramp = ramp;
    }
  }
}

const std::vector<ClockJump>& ClockCorrections::jumps(Location loc) const {
  static const std::vector<ClockJump> none;
  if (loc < 0 || static_cast<std::size_t>(loc) >= jumps_.size()) return none;
  return jumps_[loc];
}

std::size_t ClockCorrections::memory() const {
  std::size_t bytes = jumps_.capacity() * sizeof(std::vector<ClockJump>);
  for (const auto& list : jumps_) bytes += list.capacity() * sizeof(ClockJump);
  return bytes;
}

std::pair<const ClockJump*, const ClockJump*> JumpCursor::find(const ClockCorrections& corrections,
                                                               Location loc, std::uint64_t ordinal) {
  const std::vector<ClockJump>& list = corrections.jumps(loc);
  if (list.empty()) return {nullptr, nullptr};
  if (next_.size() <= static_cast<std::size_t>(loc)) next_.resize(static_cast<std::size_t>(loc) + 1, 0);
  std::size_t& next = next_[loc];
  auto later = [&](std::size_t i) { return i >= list.size() || list[i].ordinal > ordinal; };
  // The usual case, a forward scan: the answer is where it was or one further.
  if (!(later(next) && (next == 0 || list[next - 1].ordinal <= ordinal))) {
    if (!later(next) && later(next + 1)) {
      ++next;
    } else {
      next = static_cast<std::size_t>(
          std::upper_bound(list.begin(), list.end(), ordinal,
                           [](std::uint64_t o, const ClockJump& j) { return o < j.ordinal; }) -
          list.begin());
    }
  }
  return {next == 0 ? nullptr : &list[next - 1], next < list.size() ? &list[next] : nullptr};
}

}  // namespace earl
