#include "gen/program_state.h"

#include <cmath>

namespace earl::gen {

namespace {

constexpr std::int64_t kStartUs = 1000;

// One multiplication, computed once (deterministic on IEEE doubles).
std::int64_t jitter_of(std::int64_t base, double jitter) {
  return static_cast<std::int64_t>(std::floor(static_cast<double>(base) * jitter));
}

}  // namespace

ProgramState::ProgramState(const GenOptions& options, const ProgramRegions& regions)
    : options(options),
      regions(regions),
      rng(options.seed),
      processes(options.locations),
      threads(options.threads),
      clock(static_cast<std::size_t>(options.locations) * options.threads, kStartUs),
      kernel_jitter_(jitter_of(options.kernel_us, options.jitter)),
      update_jitter_(jitter_of(options.update_us, options.jitter)),
      events_(options.locations * options.threads) {}

WriterEvent& ProgramState::emit(int location, WriterEventKind kind, int region, std::int64_t time) {
  WriterEvent& e = events_.append(location, kind, region, time);
  clock[location] = e.time;
  return e;
}

void ProgramState::flush(const std::vector<TraceWriter*>& sinks) { summary.events += events_.flush(sinks); }

}  // namespace earl::gen
