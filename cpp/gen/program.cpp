// The program model of gen/generator.h, round by round: each phase's events come from the
// files named after it (gen/round_plan.h, gen/compute_phase.h, the exchanges, the window's
// epochs, gen/collective_phase.h); this file orders them.
#include <algorithm>

#include "gen/blocking_exchange.h"
#include "gen/collective_phase.h"
#include "gen/compute_phase.h"
#include "gen/fence_epoch.h"
#include "gen/generator.h"
#include "gen/late_receivers.h"
#include "gen/lock_epochs.h"
#include "gen/nonblocking_exchange.h"
#include "gen/program_frame.h"
#include "gen/program_regions.h"
#include "gen/program_state.h"
#include "gen/round_plan.h"
#include "gen/window.h"

namespace earl::gen {

namespace {

constexpr std::uint64_t kEventsPerPoll = 1 << 16;
// Per process after the last round: MPI_Finalize's enter and leave, main's leave. The
// program records (ProgramBegin/End, none in ALOG) do not count towards the target.
constexpr std::uint64_t kFrameEndEvents = 3;

TraceHeader header_of_run(const GenOptions& options) {
  TraceHeader header = program_header(options);
  if (options.permute_ranks) header.rank_process = permuted_ranks(options.locations, options.seed);
  return header;
}

class Program {
 public:
  Program(const GenOptions& options, const std::vector<TraceWriter*>& sinks)
      : sinks_(sinks),
        header_(header_of_run(options)),
        state_(options, find_program_regions(header_)),
        late_receivers_(options.locations),
        nonblocking_(options.locations),
        collectives_(options, header_),
        window_(options.locations),
        frame_(options) {}

  GenSummary run() {
    for (TraceWriter* sink : sinks_) sink->begin(header_);
    frame_.begin(state_);
    if (header_.rma_window) window_.collective_call(state_, state_.regions.win_create);
    run_rounds();
    if (header_.rma_window) window_.collective_call(state_, state_.regions.win_free);
    frame_.end(state_);
    state_.flush(sinks_);
    for (TraceWriter* sink : sinks_) sink->finish();
    return state_.summary;
  }

 private:
  // Whole rounds while the events written, held and the frame's end stay below the target.
  void run_rounds() {
    const GenOptions& o = state_.options;
    GenSummary& summary = state_.summary;
    const std::uint64_t target = static_cast<std::uint64_t>(o.events);
    std::uint64_t next_poll = kEventsPerPoll;
    const auto processes = static_cast<std::uint64_t>(state_.processes);
    const std::uint64_t program_begins = processes;  // written with the first round
    while (summary.events + state_.buffered() - program_begins + kFrameEndEvents * processes < target) {
      round(summary.rounds);
      ++summary.rounds;
      state_.flush(sinks_);
      if (o.poll && summary.events >= next_poll) {
        o.poll(std::min(1.0, static_cast<double>(summary.events) / static_cast<double>(target)));
        next_poll = summary.events + kEventsPerPoll;
      }
    }
  }

  // Phase 1 (computation and sends) depends on nothing but the process itself; phase 2
  // (receives, one-sided epochs, updates, entering the collective) follows the sends; phase
  // 3 is the collective's end.
  void round(std::uint64_t r) {
    draw_round_plan(state_, plan_);
    late_receivers_.draw(state_);
    for (int p = 0; p < state_.processes; ++p) compute_and_send(p);
    const RoundCollective collective = collectives_.of_round(r);
    late_receivers_.post_and_release(state_, plan_);
    receive_and_update(r, collective);
    collectives_.leave(state_, collective, r);
    state_.summary.messages += plan_.messages.size();
  }

  void compute_and_send(int p) {
    compute_phase(state_, p, plan_.processes[p]);
    const int l = state_.master(p);
    state_.enter(l, kExchange, state_.after(l, 1, 2));
    if (state_.options.nonblocking)
      nonblocking_.post(state_, plan_, p);
    else if (late_receivers_.sends_synchronously(p))
      // Its first message goes with MPI_Ssend, which leaves once the receive is posted
      // (post_and_release, after every process' phase 1); the other sends follow then.
      enter_send_call(state_, plan_, p, plan_.outgoing[p].front(), state_.regions.ssend);
    else
      send_blocking(state_, plan_, p, 0);
  }

  // A one-sided epoch synchronises all processes between their receives and their
  // updates; without one each process goes on alone, its random draws in the order they
  // always had.
  void receive_and_update(std::uint64_t r, const RoundCollective& collective) {
    const GenOptions& o = state_.options;
    const bool fence_round = every_kth_round(o.rma_every, r);
    const bool lock_round = every_kth_round(o.lock_every, r);
    if (fence_round || lock_round) {
      for (int p = 0; p < state_.processes; ++p) receive(p);
      if (fence_round) fence_epoch(state_, window_);
      if (lock_round) locks_.run(state_, window_);
      for (int p = 0; p < state_.processes; ++p) update_and_enter_collective(p, collective);
    } else {
      for (int p = 0; p < state_.processes; ++p) {
        receive(p);
        update_and_enter_collective(p, collective);
      }
    }
  }

  // The receives of process p (after the matching sends) and the end of its exchange.
  void receive(int p) {
    if (state_.options.nonblocking)
      nonblocking_.complete(state_, plan_, p);
    else
      receive_blocking(state_, plan_, p, late_receivers_.entered_first_receive(p));
    const int l = state_.master(p);
    state_.leave(l, kExchange, state_.after(l, 1, 2));
  }

  void update_and_enter_collective(int p, const RoundCollective& collective) {
    update_phase(state_, p, plan_.processes[p]);
    collectives_.enter(state_, p, collective);
  }

  const std::vector<TraceWriter*>& sinks_;
  const TraceHeader header_;
  ProgramState state_;
  RoundPlan plan_;
  LateReceivers late_receivers_;
  NonblockingExchange nonblocking_;
  CollectivePhase collectives_;
  Window window_;
  LockEpochs locks_;
  ProgramFrame frame_;  // its events go out with the first and the last round
};

}  // namespace

GenSummary run_program(const GenOptions& options, const std::vector<TraceWriter*>& sinks) {
  options.validate();
  return Program(options, sinks).run();
}

}  // namespace earl::gen
