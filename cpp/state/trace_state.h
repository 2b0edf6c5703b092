#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <vector>

#include "model/event.h"
#include "state/channel_table.h"

namespace earl {

// What can be wrong with an event of a real trace; counted, never fatal.
enum class Anomaly : std::uint8_t {
  None,
  UnmatchedRecv,
  ExitOnEmptyStack,
  MismatchedExit,
  UnresolvedReference,  // marked by the decoder (EventFlag)
};

// The EARL 2.1 pointers: open RMA transfers by (location, window, rmaid), open forks per
// location, and the last event of each thread lock. Small in every trace seen so far, so
// bookmarks copy them whole.
struct PointerState {
  std::vector<std::pair<std::array<std::int64_t, 3>, Position>> open_transfers;
  std::vector<std::pair<Location, std::vector<Position>>> forks;  // non-empty ones, by location
  std::vector<std::pair<std::int64_t, Position>> last_lock_event;
};

// A location's region stack as the state holds it, outermost first: a prefix that the
// last restore borrowed from its checkpoint, then the records pushed since.
class StackView {
 public:
  StackView() = default;
  StackView(const Event* low, std::size_t low_size, const Event* high, std::size_t high_size)
      : low_(low), high_(high), low_size_(low_size), high_size_(high_size) {}
  std::size_t size() const { return low_size_ + high_size_; }
  bool empty() const { return size() == 0; }
  const Event& operator[](std::size_t i) const {
    return i < low_size_ ? low_[i] : high_[i - low_size_];
  }
  const Event& back() const { return (*this)[size() - 1]; }
  class const_iterator {
   public:
    const_iterator(const StackView* view, std::size_t i) : view_(view), i_(i) {}
    const Event& operator*() const { return (*view_)[i_]; }
    const_iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator!=(const const_iterator& other) const { return i_ != other.i_; }
    bool operator==(const const_iterator& other) const { return i_ == other.i_; }

   private:
    const StackView* view_;
    std::size_t i_;
  };
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }
  // The record at pos, or nullptr (a binary search of each part).
  const Event* find(Position pos) const;

 private:
  const Event* low_ = nullptr;
  const Event* high_ = nullptr;
  std::size_t low_size_ = 0, high_size_ = 0;
};

// How a queued send is linked (indices in the queue): to the next send of its channel,
// and to its neighbours among the sends of its (source, destination) pair.
struct QueueLinks {
  SendIndex next_in_channel = kNoSend, prev_in_pair = kNoSend, next_in_pair = kNoSend;
};

// A whole state, as a full checkpoint stores it.
struct StateSnapshot {
  std::vector<std::vector<Event>> stacks;  // per location, outermost first
  std::vector<Event> queue;                // unreceived sends, ascending positions
  PointerState pointers;
  // How the queue links its channels, so that a restore copies them instead of matching
  // every send to its channel again (a fifth of random access at 32768 locations).
  // Derived from `queue`: a snapshot without them (read from an index) restores all the
  // same, at that cost.
  std::vector<QueueLinks> links;  // beside queue, indices in queue
  ChannelTables::Saved channels;  // ends of channels and pairs: indices in queue
};

// What changed between two states: the records that left (by position; `loc` of an enter,
// -1 for a send; in the order they left, not sorted: sorting them was a twentieth of the
// opening scan at depth 10^4) and those that came (ascending positions, all younger than
// any record of the older state). Records that came and left in between appear in neither.
// An enter leaves with all above it, so a stack loses the suffix from its shallowest
// removed depth: applying a delta cuts stacks without reading them (reading them to find
// the record was over half of random access at 32768 locations, a cache miss each).
struct StateDelta {
  struct Removed {
    Position pos;
    Location loc;         // the stack it left, or -1: the queue
    std::uint32_t depth;  // an enter's index in its stack (fixed while it is there)
  };
  std::vector<Removed> removed;
  std::vector<Event> added;
  PointerState pointers;         // the newer state's, whole
};

// Then `second` after `first`: one delta.
StateDelta compose(const StateDelta& first, const StateDelta& second);

// Bytes a snapshot or delta holds (what the memory budget counts).
std::uint64_t memory_of(const StateSnapshot& snapshot);
std::uint64_t memory_of(const StateDelta& delta);

// The state S_i of the EARL model: per-location region stacks and the message queue.
// It keeps the full records of the events in it, so that following a pointer to an open
// region or a pending message costs no re-read. Applying an event costs O(1) expected
// (a hash probe for a send or receive) whatever the messages in flight, finding a send by
// position O(log n); nothing looks at locations other than the event's own.
class TraceState {
 public:
  TraceState() = default;
  // Stacks borrow from checkpoints; a copy would share them unawares.
  TraceState(const TraceState&) = delete;
  TraceState& operator=(const TraceState&) = delete;

  void clear();
  // Copies the queue and pointers; the stacks are borrowed, not copied (copying 32768
  // locations' stacks was a seventh of random access at that width, and a delta cuts most
  // of them anyway): `snapshot` must stay unchanged and alive until the next restore or
  // clear. Pushes go to the state's own records above the borrowed prefix.
  void restore(const StateSnapshot& snapshot);
  StateSnapshot snapshot() const;

  // The changes since the previous take_delta (or clear/restore/apply_delta): applying it
  // to the state of then gives the state of now. Costs O(changes), not O(state).
  // Only while journaling (the opening scan); decoding elsewhere keeps no journal.
  StateDelta take_delta();
  void set_journaling(bool on) {
    journaling_ = on;
    reset_journal();
  }
  // Applies a delta taken at this state's current point (as after restore(checkpoint)).
  void apply_delta(const StateDelta& delta);

  // Sets event.enterptr (and sendptr of a recv) from the state before the event, then
  // applies the event. When the event takes a record out of the state (an exit its enter,
  // a recv its send), that record is copied to `retired` and has_retired is set.
  Anomaly apply(Event& event, Event& retired, bool& has_retired);

  // The record of a queued send, or nullptr.
  const Event* find_send(Position pos) const;
  // The record of an open enter of loc, or nullptr.
  const Event* find_enter(Location loc, Position pos) const;
  // Either of them, looking through every stack (O(locations): tests and rare paths).
  const Event* find(Position pos) const;

  StackView stack(Location loc) const;
  // Unreceived sends, ascending positions (O(messages in flight)).
  std::vector<Event> queue() const;
  // Positions of the unreceived sends from src to dest (-1 = any), ascending. Costs
  // O(answer) with both given, O(answer log answer + pairs in use) with one.
  std::vector<Position> queue(Location src, Location dest) const;
  std::size_t queue_size() const { return live_sends_; }
  // The number of records held (open enters and queued sends).
  std::uint64_t records() const { return records_; }

 private:
  // MPI's non-overtaking rule: a FIFO of unreceived sends per (source, destination, tag,
  // communicator), and a list per (source, destination) for queue(src, dest), both linked
  // through the queued records. Empty channels and pairs are erased, so memory follows
  // the messages in flight, not every channel ever used.
  struct Queued {
    Event send;
    QueueLinks links;
    bool received = false;  // a tombstone until the next compaction
  };
  struct Change {
    Position pos;
    Location loc;        // -1: the queue
    std::uint32_t depth;  // an enter's index in its stack: alive iff still there
  };

  // A location's stack: `borrowed_size` records of a restored checkpoint (outermost
  // first), then `own`. Records only leave from the top, so the borrowed prefix only
  // shrinks; nothing is copied out of it.
  struct LocationStack {
    const Event* borrowed = nullptr;
    std::uint32_t borrowed_size = 0;
    std::vector<Event> own;
    std::size_t size() const { return borrowed_size + own.size(); }
    const Event& top() const { return own.empty() ? borrowed[borrowed_size - 1] : own.back(); }
    void pop() {
      if (own.empty()) --borrowed_size;
      else own.pop_back();
    }
    // Leaves the outermost `depth` records.
    void cut(std::size_t depth) {
      if (depth < borrowed_size) {
        borrowed_size = static_cast<std::uint32_t>(depth);
        own.clear();
      } else if (depth - borrowed_size < own.size()) {
        own.resize(depth - borrowed_size);
      }
    }
    StackView view() const { return {borrowed, borrowed_size, own.data(), own.size()}; }
  };

  Anomaly apply_model(Event& event, Event& retired, bool& has_retired);
  LocationStack& stack_of(Location loc);
  void enqueue(const Event& send);
  // Takes the oldest send out of its channel and the queue.
  void dequeue(OpenTable<QueueChannel>::Index channel, Event& retired);
  void remove_send(Position pos);
  // The queued send at pos (received or not), or nullptr.
  const Queued* queued_at(Position pos) const;
  // Takes the send at index out of its pair's list and the queue.
  void mark_received(SendIndex index);
  // After sends_ was renumbered (a compaction, an insertion before the end): links follow.
  void renumber_sends(const std::vector<SendIndex>& old_to_new);
  void reset_journal();
  PointerState pointers() const;
  void set_pointers(const PointerState& pointers);

  std::vector<LocationStack> stacks_;
  // The queued sends in one vector by ascending position (sends arrive in position order,
  // so a send is appended): a restore fills it in one sweep instead of building a tree,
  // whose nodes were a fifth of random access at width. A received send stays as a
  // tombstone until they outnumber the live ones, then the vector is compacted. Channels
  // and pairs link their sends by index in it, so a receive searches nothing.
  std::vector<Queued> sends_;
  std::size_t live_sends_ = 0;
  ChannelTables channels_;
  std::vector<std::pair<std::array<std::int64_t, 3>, Position>> open_transfers_;
  std::map<Location, std::vector<Position>> forks_;  // non-empty ones
  std::vector<std::pair<std::int64_t, Position>> last_lock_event_;
  std::uint64_t records_ = 0;
  // Changes since the last take_delta: records that came and records that left.
  std::vector<Change> came_, left_;
  Position journal_start_ = 0;  // records at or after it came after the last take_delta
  Position newest_ = 0;         // the youngest position applied
  bool journaling_ = false;
};

}  // namespace earl
