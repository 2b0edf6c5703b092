#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "model/definitions.h"
#include "model/event.h"
#include "model/location_time_order.h"
#include "model/message_channel.h"

namespace earl {

struct ProblemKind;

// Time as a checked property of the scan (the global order itself is whatever the
// format's merge makes of the timestamps: deterministic, but not monotone where a clock
// misbehaves). Two kinds of problem:
// - time_order: an event earlier than the previous event of its location, or further
//   outside the span the trace declares (OTF2's clock properties) than that span is long
//   (a flipped high bit of a timestamp);
// - clock_condition: a receive earlier than its send (Lamport's clock condition between
//   locations; on each channel the k-th receive belongs to the k-th send, MPI's
//   non-overtaking rule), and an exit of an N-to-N collective (root -1)
//   earlier than the latest enter of the same instance (the k-th collective on a
//   communicator at each location) on another location.
// Memory grows with the locations used, unpaired messages of channels where a receive
// came first (at most kMaxWaiting) and open collective instances (closed when the
// communicator's size is known and all its members have left, else at most
// kMaxOpenInstances per communicator).
class TimeChecks {
 public:
  explicit TimeChecks(const Definitions& definitions) : definitions_(&definitions) {}
  void clear();

  // After the state applied `event` (position set). `taken` is what it took out of the
  // state (an exit's enter, a recv's send), or nullptr.
  void check(const Event& event, const Event* taken, ProblemKind& time_order,
             ProblemKind& clock_condition);

  static constexpr std::size_t kMaxWaiting = 1 << 20;
  static constexpr std::size_t kMaxOpenInstances = 256;

 private:
  using Channel = MessageChannel;
  struct Member {
    Position exit_pos;
    double exit_time;
    bool counted;
  };
  struct Instance {
    double latest_enter = 0.0;
    bool any_enter = false;
    std::vector<Member> members;
  };
  struct Collectives {
    std::deque<Instance> open;  // instances first .. first + open.size() - 1
    std::uint64_t first = 0;
    std::unordered_map<Location, std::uint64_t> next_instance;  // per location
  };

  void check_location_time(const Event& event, ProblemKind& time_order);
  void check_message(const Event& event, const Event* taken, ProblemKind& clock_condition);
  void check_collective(const Event& event, const Event* taken, ProblemKind& clock_condition);

  const Definitions* definitions_;
  std::vector<LocationTimeOrder> order_;  // per location
  struct Waiting {
    bool receives = false;  // which side the events are
    std::deque<std::pair<Position, double>> events;
  };
  std::unordered_map<Channel, Waiting, MessageChannelHash> waiting_;
  std::size_t waiting_count_ = 0;
  std::unordered_map<std::int64_t, Collectives> collectives_;
};

// Counts a problem at `pos`, keeping the smallest positions in ascending order (checks
// may find a problem of an earlier event later).
void note_problem(ProblemKind& kind, Position pos);

}  // namespace earl
