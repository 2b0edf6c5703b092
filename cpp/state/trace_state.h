#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "model/event.h"

namespace earl {

// What can be wrong with an event of a real trace; counted, never fatal.
enum class Anomaly : std::uint8_t {
  None,
  UnmatchedRecv,
  ExitOnEmptyStack,
  MismatchedExit,
  UnresolvedReference,  // marked by the decoder (EventFlag)
};

// A state as stored in a bookmark.
struct StateSnapshot {
  std::vector<std::vector<Event>> stacks;  // per location, outermost first
  std::vector<Event> queue;                // unreceived sends, ascending positions
  // EARL 2.1 pointers: open RMA transfers by (location, window, rmaid), open forks per
  // location, and the last event of each thread lock.
  std::vector<std::pair<std::array<std::int64_t, 3>, Position>> open_transfers;
  std::vector<std::vector<Position>> forks;
  std::vector<std::pair<std::int64_t, Position>> last_lock_event;
};

// The state S_i of the EARL model: per-location region stacks and the message queue.
// It keeps the full records of the events in it, so that following a pointer to an open
// region or a pending message costs no re-read.
class TraceState {
 public:
  void clear();
  void restore(const StateSnapshot& snapshot);
  const StateSnapshot& snapshot() const { return state_; }

  // Sets event.enterptr (and sendptr of a recv) from the state before the event, then
  // applies the event. When the event takes a record out of the state (an exit its enter,
  // a recv its send), that record is copied to `retired` and has_retired is set.
  Anomaly apply(Event& event, Event& retired, bool& has_retired);

  // The record of an event currently in the state, or nullptr.
  const Event* find(Position pos) const;

  const std::vector<Event>& stack(Location loc) const;
  const std::vector<Event>& queue() const { return state_.queue; }

 private:
  struct SendKey {
    Location src, dest;
    std::int64_t tag, com;
    bool operator==(const SendKey& other) const {
      return src == other.src && dest == other.dest && tag == other.tag && com == other.com;
    }
  };
  struct SendKeyHash {
    std::size_t operator()(const SendKey& key) const;
  };

  Anomaly apply_model(Event& event, Event& retired, bool& has_retired);
  std::vector<Event>& stack_of(Location loc);
  void rebuild_pending();

  StateSnapshot state_;
  // FIFO of unreceived send positions per (source, destination, tag, communicator):
  // MPI's non-overtaking rule. Emptied deques stay, so steady state allocates nothing.
  std::unordered_map<SendKey, std::deque<Position>, SendKeyHash> pending_;
};

}  // namespace earl
