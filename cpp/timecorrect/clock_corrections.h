#pragma once
// The controlled logical clock (Rabenseifner 1997; Becker, Rabenseifner, Wolf, Linford
// 2009).
//
// Forward amortisation. With O the recorded and F the forward-corrected time of a
// location's events e_1, e_2, ... and 0 < gamma <= 1:
//
//   F(e_i) = max( O(e_i),  F(e_{i-1}) + gamma * (O(e_i) - O(e_{i-1})),  bound(e_i) )
//
// bound: for a receive, F(its send) + min_latency; for the exit of an N-to-N collective,
// the latest F of the instance's enters; otherwise none. An event whose bound wins is a
// *jump*, of shift S_J = F - O. Between jumps the shift decays by d = 1 - gamma per second
// of recorded time until F meets O again. For a location whose recorded times never go
// backwards the recurrence equals
//
//   F(e_i) = O(e_i) + max(0, S_J - d * (O(e_i) - O(e_J)))      e_J: latest jump <= e_i
//
// Backward amortisation (with `backward`): the events before a jump are moved towards it
// too, along a ramp of the same slope, so that the interval up to the jump does not take
// the whole jump:
//
//   C(e) = O(e) + max(0, forward shift, max over later jumps J of (H_J - d * (O(e_J) - O(e))))
//
// with H_J <= S_J chosen as large as the sends and N-to-N collective enters under the ramp
// allow: none of them may move past what its receive (minus min_latency) or the earliest
// exit of its instance has, so every bound the forward pass met still holds. Each interval
// of a location thus stays within [gamma, 2 - gamma] times its recorded length (a jump's
// own interval only grows). This is the CLC's amortisation with a linear ramp, limited
// by the constraints as a whole rather than Becker et al.'s piecewise-linear one.
//
// What is stored: the jumps per location (ordinal in the decoder's stream, O, S, H), so
// an event's corrected time depends only on its location, its number in the stream and its
// recorded time, never on the path by which a reader reached it. Wild timestamps
// (Definitions::outside_declared_span) keep their time and bound nothing.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <limits>
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
  bool backward = true;  // backward amortisation

  // EarlError naming the option outside its range.
  void validate() const;
};

struct ClockJump {
  std::uint64_t ordinal;  // 1-based number of the event in the decoder's stream
  double time;            // its recorded time
  double shift;           // forward: corrected - recorded, > 0
  double back;            // backward: the ramp's height at the jump, 0 <= back <= shift
  double ramp = 0.0;      // max over this and later jumps of (back - d * time), by finish()
};

class ClockCorrections {
 public:
  explicit ClockCorrections(const ClockCorrectionOptions& options)
      : options_(options), decay_(1.0 - options.gamma) {}

  const ClockCorrectionOptions& options() const { return options_; }
  double decay() const { return decay_; }

  // The forward-corrected time of an event recorded at `time`, given its location's
  // latest jump at or before it (nullptr: none).
  double forward(const ClockJump* latest, double time) const {
    if (!latest) return time;
    const double shift = latest->shift - decay_ * (time - latest->time);
    return shift > 0.0 ? time + shift : time;
  }

  // The corrected time (after finish()): `latest` as for forward(), `next` the location's
  // first jump after the event (nullptr: none).
  double corrected(const ClockJump* latest, const ClockJump* next, double time) const {
    double shift = latest ? latest->shift - decay_ * (time - latest->time) : 0.0;
    if (next) shift = std::max(shift, next->ramp + decay_ * time);
    return shift > 0.0 ? time + shift : time;
  }

  // Records a jump of event `ordinal` (later than every jump of `loc` so far) so that its
  // corrected time is at least `bound`; returns that corrected time. Its ramp starts at
  // the full shift (or 0 without backward amortisation); the pass lowers it.
  double add_jump(Location loc, std::uint64_t ordinal, double time, double bound);

  // Computes the ramps; no jumps may be added afterwards.
  void finish();

  const std::vector<ClockJump>& jumps(Location loc) const;
  std::vector<ClockJump>& jumps_of(Location loc) { return jumps_.at(static_cast<std::size_t>(loc)); }
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

// Finds the jumps around an ordinal, remembering per location where it found the last
// ones: a forward scan costs a compare per event, a jump back a binary search.
class JumpCursor {
 public:
  // The location's latest jump at or before `ordinal` and its first after it.
  std::pair<const ClockJump*, const ClockJump*> find(const ClockCorrections& corrections,
                                                     Location loc, std::uint64_t ordinal);

 private:
  std::vector<std::size_t> next_;  // per location: index of the first jump after the last answer
};

}  // namespace earl
