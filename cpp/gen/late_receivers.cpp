#include "gen/late_receivers.h"

#include <algorithm>

#include "gen/blocking_exchange.h"

namespace earl::gen {

LateReceivers::LateReceivers(int processes)
    : ssender_(processes, 0), recv_delay_(processes, 0), posted_(processes, -1) {}

void LateReceivers::draw(ProgramState& state) {
  std::fill(ssender_.begin(), ssender_.end(), 0);
  std::fill(recv_delay_.begin(), recv_delay_.end(), 0);
  const GenOptions& o = state.options;
  if (o.late_receiver_rate <= 0) return;
  for (int p = 0; p < state.processes; ++p) {
    const int left = state.left_of(p), right = state.right_of(p);
    if (!state.rng.bernoulli(o.late_receiver_rate) || ssender_[left] || ssender_[right]) continue;
    ssender_[p] = 1;
    recv_delay_[right] = 1 + state.rng.exponential(o.late_receiver_us);
    ++state.summary.injected_late_receivers;
  }
}

void LateReceivers::post_and_release(ProgramState& state, RoundPlan& plan) {
  post_late_receives(state);
  release_ssends(state, plan);
}

void LateReceivers::post_late_receives(ProgramState& state) {
  for (int p = 0; p < state.processes; ++p) {
    posted_[p] = -1;
    if (recv_delay_[p] == 0) continue;
    const int l = state.master(p);
    posted_[p] = state.enter(l, kMpiRecv, state.after(l, 1, 2) + recv_delay_[p]).time;
  }
}

void LateReceivers::release_ssends(ProgramState& state, RoundPlan& plan) {
  for (int p = 0; p < state.processes; ++p) {
    if (!ssender_[p]) continue;
    const int l = state.master(p);
    const Message& m = plan.messages[plan.outgoing[p].front()];
    const std::int64_t own = state.after(l, 1, 3) + state.copy_cost(m.len);
    const std::int64_t matched = posted_[m.dest] + state.rng.uniform(1, 3);
    state.leave(l, state.regions.ssend, std::max(own, matched));
    send_blocking(state, plan, p, 1);
  }
}

}  // namespace earl::gen
