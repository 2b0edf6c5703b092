#pragma once
// A round's decisions before any of its events (gen/generator.h): each process' injected
// late send, out-of-order pair and imbalance, and the round's messages with their send
// order per source and receive order per destination.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gen/program_state.h"

namespace earl::gen {

struct LocationPlan {
  int kernels = 0;
  std::int64_t late_delay = 0;  // added to the last kernel before the sends (0: none)
  bool out_of_order = false;    // sends the tag 200/201 pair, received in reverse
  std::int64_t imbalance = 0;   // added to the update (0: none)
};

struct Message {
  int src, dest, tag;
  std::int64_t len;
  std::int64_t send_time;
  std::int64_t send_request = -1, recv_request = -1;  // non-blocking exchange
  std::int64_t recv_posted = -1;                      // its MPI_Irecv's enter (non-blocking)
};

struct RoundPlan {
  std::vector<LocationPlan> processes;
  std::vector<Message> messages;
  std::vector<std::vector<std::size_t>> outgoing;  // per process: its messages in send order
  std::vector<std::vector<std::size_t>> incoming;  // per process: in receive order

  // Where each process' messages of each kind are in `messages`: the receive order is
  // built from them.
  struct SendSlots {
    std::size_t right = 0, pair_first = 0, pair_second = 0, left = 0;
    std::size_t in_flight_begin = 0, in_flight_end = 0;
  };
  std::vector<SendSlots> slots;
};

// Draws the next round into `plan` (its storage reused), counting the injections.
void draw_round_plan(ProgramState& state, RoundPlan& plan);

// When message `m` is there to be received.
inline std::int64_t arrival_time(const ProgramState& state, const Message& m) {
  return m.send_time + state.options.latency_us + state.copy_cost(m.len);
}

}  // namespace earl::gen
