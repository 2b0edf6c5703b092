#include "gen/round_plan.h"

namespace earl::gen {

namespace {

constexpr int kTagRight = 100, kTagLeft = 101, kTagPairFirst = 200, kTagPairSecond = 201;
constexpr int kTagInFlight = 300, kFirstOwnTag = 1000;

// Every process runs the same number of kernels (balanced work up to jitter); the
// injections are drawn per process, in process order.
void draw_location_plans(ProgramState& s, RoundPlan& plan) {
  const GenOptions& o = s.options;
  const int kernels = static_cast<int>(s.rng.uniform(1, o.max_kernels));
  for (LocationPlan& p : plan.processes) {
    p.kernels = kernels;
    p.late_delay = s.injected_delay(o.late_sender_rate, o.late_sender_us);
    p.out_of_order = s.rng.bernoulli(o.out_of_order_rate);
    p.imbalance = s.injected_delay(o.imbalance_rate, o.imbalance_us);
    s.summary.injected_late_senders += p.late_delay > 0;
    s.summary.injected_out_of_order += p.out_of_order;
    s.summary.injected_imbalance += p.imbalance > 0;
  }
}

std::size_t add_message(ProgramState& s, RoundPlan& plan, int src, int dest, int tag) {
  const std::int64_t len = s.message_length();
  plan.messages.push_back({src, dest, tag, len, 0});
  plan.outgoing[src].push_back(plan.messages.size() - 1);
  return plan.messages.size() - 1;
}

// Every process' pattern messages: right, the out-of-order pair, left (neighbors).
void add_pattern_messages(ProgramState& s, RoundPlan& plan) {
  const bool neighbors = s.options.pattern == "neighbors";
  for (int p = 0; p < s.processes; ++p) {
    RoundPlan::SendSlots& slots = plan.slots[p];
    const int right = s.right_of(p);
    slots.right = add_message(s, plan, p, right, kTagRight);
    if (plan.processes[p].out_of_order) {
      slots.pair_first = add_message(s, plan, p, right, kTagPairFirst);
      slots.pair_second = add_message(s, plan, p, right, kTagPairSecond);
    }
    if (neighbors) slots.left = add_message(s, plan, p, s.left_of(p), kTagLeft);
  }
}

// The in-flight messages to the right: K/N per process (the first K mod N one more),
// numbered in the round for their own tags.
void add_in_flight_messages(ProgramState& s, RoundPlan& plan) {
  const int n = s.processes;
  const std::int64_t total = s.options.in_flight;
  const std::size_t first = plan.messages.size();
  for (int p = 0; p < n; ++p) {
    plan.slots[p].in_flight_begin = plan.messages.size();
    const std::int64_t count = total / n + (p < total % n ? 1 : 0);
    for (std::int64_t k = 0; k < count; ++k) {
      const int number = static_cast<int>(plan.messages.size() - first);
      add_message(s, plan, p, s.right_of(p), s.options.tag_per_message ? kFirstOwnTag + number : kTagInFlight);
    }
    plan.slots[p].in_flight_end = plan.messages.size();
  }
}

// What each process receives, in order: its left neighbour's right message (the pair's
// second before its first), its right neighbour's left message, the in-flight ones.
void order_receives(const ProgramState& s, RoundPlan& plan) {
  const bool neighbors = s.options.pattern == "neighbors";
  for (int d = 0; d < s.processes; ++d) {
    const int left = s.left_of(d);
    const RoundPlan::SendSlots& from_left = plan.slots[left];
    std::vector<std::size_t>& incoming = plan.incoming[d];
    incoming.push_back(from_left.right);
    if (plan.processes[left].out_of_order) {
      incoming.push_back(from_left.pair_second);
      incoming.push_back(from_left.pair_first);
    }
    if (neighbors) incoming.push_back(plan.slots[s.right_of(d)].left);
    for (std::size_t index = from_left.in_flight_begin; index < from_left.in_flight_end; ++index)
      incoming.push_back(index);
  }
}

}  // namespace

void draw_round_plan(ProgramState& state, RoundPlan& plan) {
  const std::size_t n = static_cast<std::size_t>(state.processes);
  plan.processes.resize(n);
  plan.slots.assign(n, {});
  plan.outgoing.resize(n);
  plan.incoming.resize(n);
  plan.messages.clear();
  for (std::size_t p = 0; p < n; ++p) {
    plan.outgoing[p].clear();
    plan.incoming[p].clear();
  }
  draw_location_plans(state, plan);
  add_pattern_messages(state, plan);
  add_in_flight_messages(state, plan);
  order_receives(state, plan);
}

}  // namespace earl::gen
