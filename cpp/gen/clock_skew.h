#pragma once
// Clocks that disagree, for testing clock correction: each MPI process (all its threads)
// records time with its own clock, offset (uniform in [0, clock_offset] seconds, whole
// microseconds) and drifting (uniform in [-clock_drift, clock_drift] ppm) against the true
// time of the run:  recorded = true + offset + round(drift * true).  The true times stay
// the ground truth (the truth collector sees them); only the written trace is skewed.
// Draws come from a stream of their own, so the program, and with it every true time,
// is the same as without skew.
#include <cstdint>
#include <vector>

#include "format_interface/trace_writer.h"
#include "gen/generator.h"

namespace earl::gen {

struct ClockSkew {
  std::int64_t offset_us = 0;
  double drift = 0.0;  // relative (ppm * 1e-6)
  std::int64_t recorded(std::int64_t true_us) const;
};

// One clock per MPI process; empty when the options ask for none.
std::vector<ClockSkew> draw_clock_skews(const GenOptions& options);

// Passes events to `target` with each location's clock applied, re-sorted in the output
// order (time, location, sequence) of the recorded times. Rounds may then overlap in time
// (ALOG readers sort such files; OTF2 is written per location).
class SkewedWriter : public TraceWriter {
 public:
  SkewedWriter(TraceWriter& target, std::vector<ClockSkew> skews, int threads)
      : target_(target), skews_(std::move(skews)), threads_(threads) {}
  void begin(const TraceHeader& header) override { target_.begin(header); }
  void write(const WriterEvent* events, std::size_t count) override;
  void finish() override { target_.finish(); }
  void commit() override { target_.commit(); }
  void discard() override { target_.discard(); }

 private:
  TraceWriter& target_;
  std::vector<ClockSkew> skews_;
  int threads_;
  std::vector<WriterEvent> batch_;
};

}  // namespace earl::gen
