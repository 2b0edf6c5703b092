#pragma once
// The controlled logical clock (Rabenseifner 1997; Becker, Rabenseifner, Wolf, Linford
// 2009), its forward amortisation. With O the recorded and C the corrected time of a
// location's events e_1, e_2, ... and 0 < gamma <= 1:
//
//   C(e_i) = max( O(e_i),  C(e_{i-1}) + gamma * (O(e_i) - O(e_{i-1})),  bound(e_i) )
//
// bound: for a receive, C(its send) + min_latency; for the exit of an N-to-N collective,
// the latest C of the instance's enters; otherwise none. An event whose bound wins is a
// *jump*. Between jumps the shift S = C - O decays by (1 - gamma) per second of recorded
// time until C meets O again, so no local interval shrinks below gamma times its length
// and a location whose clock lags is pulled forward at each message and otherwise left
// alone. For a location whose recorded times never go backwards the recurrence equals
//
//   C(e_i) = O(e_i) + max(0, S_J - (1 - gamma) * (O(e_i) - O(e_J)))
//
// with e_J the location's latest jump at or before e_i (C = O before the first one): what
// this file stores and evaluates, so that an event's corrected time depends only on its
// location, its number in the stream and its recorded time, never on the path by which
// a reader reached it. Wild timestamps (Definitions::outside_declared_span) keep their
// time and bound nothing.
#include <cstdint>
#include <vector>

#include "model/event.h"

namespace earl {

struct ClockCorrectionOptions {
  // Smallest time a message takes, seconds: a corrected receive is at least this much
  // after its send. 0 by default: a receive is never before its send, and a trace
  // without violations stays exactly as it is.
  double min_latency = 0.0;
  // The least fraction of a local interval kept after a jump (1: a jump shifts the rest
  // of the location; smaller: the shift decays back to the recorded clock faster).
  double gamma = 0.99;

  // EarlError naming the option outside its range.
  void validate() const;
};

struct ClockJump {
  std::uint64_t ordinal;  // 1-based number of the event in the decoder's stream
  double time;            // its recorded time
  double shift;           // corrected - recorded, > 0
};

class ClockCorrections {
 public:
  explicit ClockCorrections(const ClockCorrectionOptions& options)
      : options_(options), decay_(1.0 - options.gamma) {}

  const ClockCorrectionOptions& options() const { return options_; }

  // The corrected time of an event of `loc` recorded at `time`, given the location's
  // latest jump at or before it (nullptr: none).
  double apply(const ClockJump* latest, double time) const {
    if (!latest) return time;
    const double shift = latest->shift - decay_ * (time - latest->time);
    return shift > 0.0 ? time + shift : time;
  }

  // Records a jump of event `ordinal` (later than every jump of `loc` so far) so that its
  // corrected time is at least `bound`; returns that corrected time.
  double add_jump(Location loc, std::uint64_t ordinal, double time, double bound);

  const std::vector<ClockJump>& jumps(Location loc) const;
  const ClockJump* latest(Location loc) const {
    if (static_cast<std::size_t>(loc) >= jumps_.size() || jumps_[loc].empty()) return nullptr;
    return &jumps_[loc].back();
  }

  std::uint64_t jump_count() const { return jump_count_; }
  double max_shift() const { return max_shift_; }
  std::size_t memory() const;

 private:
  ClockCorrectionOptions options_;
  double decay_;
  std::vector<std::vector<ClockJump>> jumps_;  // per location, by ordinal
  std::uint64_t jump_count_ = 0;
  double max_shift_ = 0.0;
};

// Finds the latest jump at or before an ordinal, remembering per location where it found
// the last one: a forward scan costs a compare per event, a jump back a binary search.
class JumpCursor {
 public:
  const ClockJump* find(const ClockCorrections& corrections, Location loc, std::uint64_t ordinal);

 private:
  std::vector<std::size_t> next_;  // per location: index of the first jump after the last answer
};

}  // namespace earl
