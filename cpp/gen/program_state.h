#pragma once
// What every phase of the program model (gen/generator.h) shares: the options, the one
// random stream, each location's clock, the region ids, the summary and the events of the
// round being built. A seed gives the same trace because the phases draw from the stream
// in a fixed order; the draws below keep each one's exact form.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "format_interface/trace_writer.h"
#include "gen/generator.h"
#include "gen/program_regions.h"
#include "gen/rng.h"
#include "gen/round_events.h"

namespace earl::gen {

class ProgramState {
 public:
  ProgramState(const GenOptions& options, const ProgramRegions& regions);

  const GenOptions& options;
  const ProgramRegions regions;
  Rng rng;
  const int processes;              // MPI processes
  const int threads;                // locations per process
  std::vector<std::int64_t> clock;  // per location: where its next event starts from
  GenSummary summary;

  // The master thread (the MPI rank's location) of process `process`.
  int master(int process) const { return process * threads; }
  // The neighbours of `process` on the ring of processes.
  int right_of(int process) const { return (process + 1) % processes; }
  int left_of(int process) const { return (process + processes - 1) % processes; }

  // Appends an event (later than the location's previous one) and moves the clock to it.
  WriterEvent& emit(int location, WriterEventKind kind, int region, std::int64_t time);
  WriterEvent& enter(int location, int region, std::int64_t time) {
    return emit(location, WriterEventKind::Enter, region, time);
  }
  WriterEvent& leave(int location, int region, std::int64_t time) {
    return emit(location, WriterEventKind::Exit, region, time);
  }

  // A time `lo`..`hi` microseconds (uniform) after the location's clock.
  std::int64_t after(int location, std::int64_t lo, std::int64_t hi) {
    return clock[location] + rng.uniform(lo, hi);
  }
  std::int64_t kernel_duration() { return jittered(options.kernel_us, kernel_jitter_); }
  std::int64_t update_duration() { return jittered(options.update_us, update_jitter_); }
  // An injected delay: with probability `rate` 1 + exponential(mean_us), else 0.
  std::int64_t injected_delay(double rate, std::int64_t mean_us) {
    return rng.bernoulli(rate) ? 1 + rng.exponential(mean_us) : 0;
  }
  // Bytes of a message or put: uniform in [msg_bytes/2, 3*msg_bytes/2].
  std::int64_t message_length() {
    return rng.uniform(options.msg_bytes / 2, options.msg_bytes + options.msg_bytes / 2);
  }
  std::int64_t copy_cost(std::int64_t len) const { return len / options.bandwidth; }

  // Events appended and not yet flushed.
  std::size_t buffered() const { return events_.size(); }
  // Writes the round's events to the sinks (gen/round_events.h) and counts them.
  void flush(const std::vector<TraceWriter*>& sinks);

 private:
  std::int64_t jittered(std::int64_t base, std::int64_t jitter) {
    return std::max<std::int64_t>(1, base + rng.uniform(-jitter, jitter));
  }

  std::int64_t kernel_jitter_, update_jitter_;
  RoundEvents events_;
};

// Whether round `r` (from 0) is one of every k-th (k <= 0: none).
inline bool every_kth_round(std::int64_t k, std::uint64_t r) {
  return k > 0 && (r + 1) % static_cast<std::uint64_t>(k) == 0;
}

}  // namespace earl::gen
