// The ground truth of the program frame (gen/program_frame.h: the program root, MPI_Init,
// MPI_Finalize) and Message.pattern's counts (gen/truth.h), each as Scalasca 2.6 defines it.
#include <algorithm>

#include "gen/truth.h"

namespace earl::gen {

// The program root's own time: the span from ProgramBegin to ProgramEnd less the time of
// the regions entered at the top level in between (main).
void TruthCollector::on_program(const WriterEvent& e, const std::vector<Frame>& stack) {
  if (!stack.empty()) fail("program record inside a region");
  if (e.kind == WriterEventKind::ProgramBegin) {
    program_begin_[e.loc] = e.time;
    toplevel_us_[e.loc] = 0;
    return;
  }
  if (program_begin_[e.loc] < 0) fail("program end without its begin");
  program_root_[e.loc] = seconds(e.time - program_begin_[e.loc] - toplevel_us_[e.loc]);
}

// The first MPI_Init and MPI_Finalize call of each process (Scalasca takes the first leave).
void TruthCollector::frame_call(const WriterEvent& e, bool enter) {
  if (e.loc % threads_ != 0) fail("MPI_Init/MPI_Finalize off a master thread");
  CallTimes& call = (e.region == init_region_ ? init_ : finalize_)[static_cast<std::size_t>(e.loc / threads_)];
  if (enter && call.enter < 0) call.enter = e.time;
  if (!enter && call.leave < 0) call.leave = e.time;
}

// Message.pattern SYNCS_SEND/COMMS_SEND count a send by its bytes, SYNCS_RECV/COMMS_RECV a
// receive by the bytes of the send it matched.
void TruthCollector::count_message(const WriterEvent& e, std::int64_t send_bytes) {
  const bool send = e.kind == WriterEventKind::Send;
  auto& counter = send_bytes == 0 ? (send ? counts_.syncs_send : counts_.syncs_recv)
                                  : (send ? counts_.comms_send : counts_.comms_recv);
  ++counter[static_cast<std::size_t>(e.loc)];
}

// Message.pattern at MPI_COLLECTIVE_END: SYNCS_COLL (no bytes either way), COMMS_CXCH
// (both), COMMS_CSRC (sent only), COMMS_CDST (received only); BYTES_COUT/BYTES_CIN.
void TruthCollector::count_collective(const WriterEvent& e) {
  const auto l = static_cast<std::size_t>(e.loc);
  const bool sent = e.len != 0, received = e.received != 0;
  auto& counter = sent ? (received ? counts_.comms_cxch : counts_.comms_csrc)
                       : (received ? counts_.comms_cdst : counts_.syncs_coll);
  ++counter[l];
  counts_.bytes_cout[l] += e.len;
  counts_.bytes_cin[l] += e.received;
}

void TruthCollector::frame_truth(GroundTruth& t) const {
  t.program_root = program_root_;
  t.counts = counts_;
  t.mpi_init_completion.assign(n_, 0.0);
  t.mpi_finalize_wait.assign(n_, 0.0);
  auto complete = [this](const std::vector<CallTimes>& calls) {
    return !calls.empty() && std::all_of(calls.begin(), calls.end(), [](const CallTimes& c) { return c.leave >= 0; });
  };
  if (complete(init_)) {
    std::int64_t latest_enter = init_[0].enter, earliest_leave = init_[0].leave;
    for (const CallTimes& c : init_) {
      latest_enter = std::max(latest_enter, c.enter);
      earliest_leave = std::min(earliest_leave, c.leave);
    }
    for (int p = 0; p < processes_; ++p) {
      const CallTimes& c = init_[static_cast<std::size_t>(p)];
      const std::int64_t earliest_end = std::max(earliest_leave, std::min(latest_enter, c.leave));
      t.mpi_init_completion[static_cast<std::size_t>(p) * threads_] =
          std::max(0.0, seconds(c.leave) - seconds(earliest_end));
    }
  }
  if (complete(finalize_)) {
    std::int64_t latest_enter = finalize_[0].enter;
    for (const CallTimes& c : finalize_) latest_enter = std::max(latest_enter, c.enter);
    for (int p = 0; p < processes_; ++p) {
      const CallTimes& c = finalize_[static_cast<std::size_t>(p)];
      t.mpi_finalize_wait[static_cast<std::size_t>(p) * threads_] =
          std::max(0.0, seconds(std::min(latest_enter, c.leave)) - seconds(c.enter));
    }
  }
}

}  // namespace earl::gen
