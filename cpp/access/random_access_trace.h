#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "format_interface/trace_decoder.h"
#include "model/event.h"
#include "state/trace_state.h"

namespace earl {

// Called now and then during long work with the fraction done (0..1); returning false
// stops the work with Interrupted, between two events, leaving everything usable.
using ProgressCallback = std::function<bool(double fraction)>;
// Takes each event of a scan (RandomAccessTrace's constructor).
using ScanObserver = std::function<void(const Event&)>;

struct ProblemKind {
  std::uint64_t count = 0;
  std::vector<Position> first;  // the first few positions, ascending
};

struct Problems {
  ProblemKind unmatched_recv;       // no matching send in the queue: sendptr 0
  ProblemKind exit_on_empty_stack;  // enterptr 0
  ProblemKind mismatched_exit;      // region differs from the innermost open region
  ProblemKind unresolved_reference; // a record refers to something the trace lacks
  ProblemKind time_order;           // time goes backwards on a location, or far outside
                                    // the range the trace declares
  ProblemKind clock_condition;      // a receive before its send, a collective's end
                                    // before its last begin (access/time_checks.h)
  // Locations whose events end early because the input is damaged (read up to the
  // damage; TraceDecoder::damage). Not one of kProblemNames: each is a message, not a count.
  std::vector<StreamDamage> damaged;
};

// The names every language reports the kinds under, in this order.
struct ProblemName {
  const char* name;
  ProblemKind Problems::*kind;
};
inline constexpr ProblemName kProblemNames[] = {
    {"unmatched_recv", &Problems::unmatched_recv},
    {"exit_on_empty_stack", &Problems::exit_on_empty_stack},
    {"mismatched_exit", &Problems::mismatched_exit},
    {"unresolved_reference", &Problems::unresolved_reference},
    {"time_order", &Problems::time_order},
    {"clock_condition", &Problems::clock_condition},
};
// Problems::damaged goes under this name, after those and only where it is not empty (an
// intact trace's problems are the six kinds alone): count (damaged locations), first
// (empty: no position marks it) and locations (one entry per StreamDamage: loc, record,
// announced, message).
inline constexpr const char* kDamagedName = "damaged";

// Random access with bounded memory over a sequential decoder (DESIGN.md section 2).
// Opening scans once, setting a bookmark (decoder position + state) every `bdist` events.
// The last `hsize` decoded events stay in a history window; the state after the newest
// of them keeps the records of open enters and queued sends; and each event in the window
// keeps the record it took out of the state (an exit's enter, a recv's send). Following
// enterptr or sendptr from a recent event therefore costs no re-read; anything else is
// decoded forward from the youngest bookmark at or before it.
class RandomAccessTrace {
 public:
  // Bookmarks never hold more than `memory` bytes: where the state is huge, bdist widens
  // (doubles, dropping every other bookmark) instead.
  static constexpr std::uint64_t kDefaultMemory = std::uint64_t(256) << 20;
  // `observer`, where given, sees every event of the opening scan with its state (enterptr,
  // sendptr) in position order, so that a caller wanting every event (a DataFrame) needs
  // no second pass. A restarted scan (DecoderRestart) starts again from position 1.
  RandomAccessTrace(std::unique_ptr<TraceDecoder> decoder, std::uint64_t bdist,
                    std::uint64_t hsize, const ProgressCallback& progress = {},
                    std::uint64_t memory = kDefaultMemory, const ScanObserver& observer = {});

  // A bookmark shares instead of copying: it holds the state's changes since the previous
  // bookmark, and now and then (once those changes outweigh the state) a full checkpoint,
  // so restoring replays at most about twice the state.
  struct Bookmark {
    Position next;  // the first event decoded after restoring
    DecoderPosition where;
    std::unique_ptr<StateSnapshot> checkpoint;  // or:
    StateDelta delta;                           // from the previous bookmark's state
    std::uint64_t bytes = 0;
  };

  // What the opening scan found, as a persisted index keeps it (cpp/index/).
  struct ScanResult {
    std::vector<Bookmark> bookmarks;
    Position size = 0;
    Problems problems;
    std::uint64_t bdist = 0;  // in effect
  };
  // Without a scan, from the result of an earlier one over the same trace with the same
  // requested bdist and memory budget (`decoder` restored from the same pass). EarlError
  // when the result cannot be one of such a scan.
  RandomAccessTrace(std::unique_ptr<TraceDecoder> decoder, std::uint64_t bdist, std::uint64_t hsize,
                    std::uint64_t memory, ScanResult restored);
  const std::vector<Bookmark>& bookmarks() const { return bookmarks_; }
  std::uint64_t requested_bdist() const { return requested_bdist_; }
  TraceDecoder& decoder() { return *decoder_; }

  Position size() const { return size_; }
  const Definitions& definitions() const { return decoder_->definitions(); }
  const TraceDecoder& decoder() const { return *decoder_; }
  const Problems& problems() const { return problems_; }
  std::size_t bookmark_count() const { return bookmarks_.size(); }
  // Bytes the bookmarks hold, the budget, and the bdist in effect after any widening.
  std::uint64_t bookmark_memory() const { return bookmark_bytes_; }
  std::uint64_t memory_budget() const { return memory_; }
  std::uint64_t effective_bdist() const { return bdist_; }
  std::size_t checkpoint_count() const;

  // The event at pos (1..size()); EarlError for any other position. The reference
  // stays valid only until the next call that moves the trace.
  const Event& event(Position pos, const ProgressCallback& progress = {});
  // State after event pos (0..size(); 0 is the empty initial state).
  std::vector<Position> stack(Location loc, Position pos, const ProgressCallback& progress = {});
  // Unreceived sends after event pos; src/dest -1 = any.
  std::vector<Position> queue(Location src, Location dest, Position pos,
                              const ProgressCallback& progress = {});

  // True when event(pos) needs no or almost no decoding (callers may then skip releasing
  // locks or showing progress).
  bool is_cheap(Position pos) const;

  // Re-reading the input after the opening scan assumes it is the input that was scanned.
  // `check` throws EarlError when it no longer is (the trace changed since it was opened);
  // it runs before every restore from a bookmark and after any failure while re-reading,
  // which then surfaces as that error instead of whatever the decoder made of the changed
  // bytes (an unsorted-input restart, bad_alloc, an index out of range).
  void set_input_check(std::function<void()> check) { input_check_ = std::move(check); }

 private:
  struct Slot {
    Event event;
    Event retired;
    bool has_retired = false;
  };

  void scan(const ProgressCallback& progress, const ScanObserver& observer);
  bool decode_next(Anomaly& anomaly);
  void seek_to(Position pos, const ProgressCallback& progress);
  void decode_to(Position pos, const ProgressCallback& progress);
  void fail_reread();
  void check_input();
  void restore(std::size_t index);
  void take_bookmark(Position next);
  void store_bookmark(Bookmark bookmark);
  void widen();
  std::uint64_t measure(const Bookmark& bookmark) const;
  void check_position(Position pos, bool allow_zero) const;
  void check_location(Location loc, bool allow_any, const char* argument) const;
  Slot& slot(Position pos) { return window_[static_cast<std::size_t>((pos - 1) & ring_mask_)]; }
  void grow_ring(Position pos);
  bool in_window(Position pos) const { return pos != 0 && pos >= first_ && pos <= last_; }

  std::unique_ptr<TraceDecoder> decoder_;
  std::uint64_t requested_bdist_;
  std::uint64_t bdist_;  // widened by the memory budget
  std::uint64_t hsize_;
  std::uint64_t memory_;
  std::uint64_t bookmark_bytes_ = 0;
  std::uint64_t delta_bytes_since_checkpoint_ = 0;
  // Changes of a grid point that widening left without a bookmark: they go to the next.
  std::unique_ptr<StateDelta> carried_;
  bool checkpoint_next_ = false;  // widening dropped the checkpoint the next delta needs
  // Ring buffer indexed by (pos - 1) & ring_mask_. Its capacity is a power of two above
  // hsize, so the slot an event is decoded into never holds a window event.
  std::vector<Slot> window_;
  std::uint64_t ring_mask_ = 0;
  std::vector<Bookmark> bookmarks_;
  TraceState state_;          // the state after event last_
  Position first_ = 1;        // the window holds events first_..last_
  Position last_ = 0;
  Position size_ = 0;
  Problems problems_;
  std::function<void()> input_check_;
  std::string input_changed_;  // the error once the input was found changed, "" before
  bool restore_next_ = false;  // a re-read failed: the window and decoder are not in step
};

}  // namespace earl
