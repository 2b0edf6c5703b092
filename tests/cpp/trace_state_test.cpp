// TraceState, the state S_i of the EARL model (DESIGN.md section 1), on small hand-made
// event sequences: region stacks and enterptr, sendptr matching under MPI's
// non-overtaking rule, the anomalies of imperfect traces, snapshots, the EARL 2.1
// pointers; then the queue filter and problem report that RandomAccessTrace builds on it.
// Every expected value is worked out by hand in the comments next to it.
#include <algorithm>
#include <initializer_list>
#include <memory>
#include <vector>

#include <doctest/doctest.h>

#include "access/random_access_trace.h"
#include "memory_decoder.h"
#include "model/error.h"
#include "state/trace_state.h"

using namespace earl;
using earl::testing::MemoryDecoder;

namespace {

constexpr SymbolId kMain = 0, kWork = 1;

Event enter(Position pos, Location loc, SymbolId region) {
  Event e;
  e.pos = pos;
  e.loc = loc;
  e.kind = EventKind::Enter;
  e.type = kEnterType;
  e.region = region;
  return e;
}

Event exit_(Position pos, Location loc, SymbolId region) {
  Event e = enter(pos, loc, region);
  e.kind = EventKind::Exit;
  e.type = kExitType;
  return e;
}

Event send(Position pos, Location loc, Location dest, std::int64_t tag, std::int64_t com,
           std::uint64_t len = 8) {
  Event e;
  e.pos = pos;
  e.loc = loc;
  e.kind = EventKind::Send;
  e.type = kSendType;
  e.peer = dest;
  e.tag = tag;
  e.com = com;
  e.len = len;
  return e;
}

Event recv(Position pos, Location loc, Location src, std::int64_t tag, std::int64_t com) {
  Event e = send(pos, loc, src, tag, com);
  e.kind = EventKind::Recv;
  e.type = kRecvType;
  e.sendptr = 12345;  // garbage the state must overwrite
  return e;
}

Event other(Position pos, Location loc) {
  Event e;
  e.pos = pos;
  e.loc = loc;
  e.kind = EventKind::Other;
  e.type = 4;
  return e;
}

Event of_kind(EventKind kind, Position pos, Location loc, std::int64_t tag = 0,
              std::int64_t com = -1) {
  Event e = other(pos, loc);
  e.kind = kind;
  e.tag = tag;
  e.com = com;
  return e;
}

// Applies one event and keeps what the state reports about it.
struct Step {
  Event event;
  Anomaly anomaly;
  bool has_retired;
  Event retired;
};

Step apply(TraceState& state, Event event) {
  Step step{event, Anomaly::None, false, Event()};
  step.anomaly = state.apply(step.event, step.retired, step.has_retired);
  return step;
}

template <class Events>
std::vector<Position> positions(const Events& events) {
  std::vector<Position> out;
  for (const Event& e : events) out.push_back(e.pos);
  return out;
}

using Positions = std::vector<Position>;

}  // namespace

TEST_CASE("stacks and enterptr") {
  TraceState state;
  // 1 loc0 enter main: nothing open on loc0 before it -> enterptr 0; stack0 [1]
  Step s = apply(state, enter(1, 0, kMain));
  CHECK(s.event.enterptr == 0);
  CHECK(s.anomaly == Anomaly::None);
  CHECK_FALSE(s.has_retired);
  // 2 loc0 enter work: its caller is 1; stack0 [1 2]
  CHECK(apply(state, enter(2, 0, kWork)).event.enterptr == 1);
  // 3 loc1 enter main: stacks are per location, loc1 is empty -> 0; stack1 [3]
  CHECK(apply(state, enter(3, 1, kMain)).event.enterptr == 0);
  CHECK(positions(state.stack(0)) == Positions{1, 2});
  CHECK(positions(state.stack(1)) == Positions{3});
  CHECK(state.stack(2).empty());   // a location not seen yet
  CHECK(state.stack(-1).empty());  // and none at all
  // 4 loc0 other: the innermost open region of loc0 is 2
  s = apply(state, other(4, 0));
  CHECK(s.event.enterptr == 2);
  CHECK_FALSE(s.has_retired);
  // 5 loc0 exit work: enterptr is its own enter 2, which leaves the state as `retired`
  s = apply(state, exit_(5, 0, kWork));
  CHECK(s.event.enterptr == 2);
  CHECK(s.anomaly == Anomaly::None);
  REQUIRE(s.has_retired);
  CHECK(s.retired.pos == 2);
  CHECK(s.retired.region == kWork);
  CHECK(positions(state.stack(0)) == Positions{1});
  // 6 loc1 exit main -> 3; stack1 []
  CHECK(apply(state, exit_(6, 1, kMain)).event.enterptr == 3);
  CHECK(state.stack(1).empty());
  // 7 loc0 exit main -> 1; stack0 []
  CHECK(apply(state, exit_(7, 0, kMain)).event.enterptr == 1);
  CHECK(state.stack(0).empty());
}

TEST_CASE("an exit on an empty stack: enterptr 0, nothing popped, reported") {
  TraceState state;
  apply(state, enter(1, 1, kMain));
  // 2 loc0 exit: loc0 has nothing open (loc1's enter does not count)
  Step s = apply(state, exit_(2, 0, kMain));
  CHECK(s.event.enterptr == 0);
  CHECK(s.anomaly == Anomaly::ExitOnEmptyStack);
  CHECK_FALSE(s.has_retired);
  CHECK(positions(state.stack(1)) == Positions{1});
}

TEST_CASE("a mismatched exit still pops the innermost region") {
  TraceState state;
  apply(state, enter(1, 0, kMain));
  apply(state, enter(2, 0, kWork));
  // 3 exit main while work (2) is innermost: pops 2, not 1, and says so
  Step s = apply(state, exit_(3, 0, kMain));
  CHECK(s.anomaly == Anomaly::MismatchedExit);
  CHECK(s.event.enterptr == 2);
  REQUIRE(s.has_retired);
  CHECK(s.retired.pos == 2);
  CHECK(positions(state.stack(0)) == Positions{1});
  // 4 exit main now matches 1
  s = apply(state, exit_(4, 0, kMain));
  CHECK(s.anomaly == Anomaly::None);
  CHECK(s.event.enterptr == 1);
}

TEST_CASE("a collective exit pops like an exit") {
  TraceState state;
  apply(state, enter(1, 0, kMain));
  Event coll = exit_(2, 0, kMain);
  coll.kind = EventKind::CollectiveExit;
  Step s = apply(state, coll);
  CHECK(s.event.enterptr == 1);
  CHECK(s.has_retired);
  CHECK(state.stack(0).empty());
  coll.pos = 3;
  CHECK(apply(state, coll).anomaly == Anomaly::ExitOnEmptyStack);
}

TEST_CASE("sendptr: the oldest unreceived send with the same src, dest, tag and com") {
  TraceState state;
  // Sends, all still in the queue afterwards: [1 2 3 4 5]
  apply(state, send(1, 0, 1, 5, 0, 100));
  apply(state, send(2, 0, 1, 5, 0, 200));  // same key as 1, younger
  apply(state, send(3, 0, 1, 6, 0));       // other tag
  apply(state, send(4, 0, 1, 5, 1));       // other communicator
  apply(state, send(5, 2, 1, 5, 0));       // other source
  CHECK(positions(state.queue()) == Positions{1, 2, 3, 4, 5});

  // 6 loc1 recv from 0 tag 6 com 0: only 3 has tag 6 (overtaking across tags is allowed)
  Step s = apply(state, recv(6, 1, 0, 6, 0));
  CHECK(s.event.sendptr == 3);
  CHECK(s.anomaly == Anomaly::None);
  REQUIRE(s.has_retired);
  CHECK(s.retired.pos == 3);
  CHECK(positions(state.queue()) == Positions{1, 2, 4, 5});
  // 7 recv from 0 tag 5 com 0: 1 and 2 qualify, FIFO takes the older one, 1 (len 100)
  s = apply(state, recv(7, 1, 0, 5, 0));
  CHECK(s.event.sendptr == 1);
  CHECK(s.retired.len == 100);
  // 8 recv from 0 tag 5 com 1: the communicator picks 4, although 2 is older
  CHECK(apply(state, recv(8, 1, 0, 5, 1)).event.sendptr == 4);
  // 9 recv from 2 tag 5 com 0: the source picks 5
  CHECK(apply(state, recv(9, 1, 2, 5, 0)).event.sendptr == 5);
  CHECK(positions(state.queue()) == Positions{2});
  // 10 loc2 recv from 0 tag 5 com 0: 2 goes to loc1, not loc2: unmatched, sendptr 0
  s = apply(state, recv(10, 2, 0, 5, 0));
  CHECK(s.event.sendptr == 0);
  CHECK(s.anomaly == Anomaly::UnmatchedRecv);
  CHECK_FALSE(s.has_retired);
  CHECK(positions(state.queue()) == Positions{2});
  // 11 loc1 recv from 0 tag 5 com 0 -> 2 (len 200); the queue is empty
  s = apply(state, recv(11, 1, 0, 5, 0));
  CHECK(s.event.sendptr == 2);
  CHECK(s.retired.len == 200);
  CHECK(state.queue().empty());
  // 12 the same again: nothing left -> unmatched
  s = apply(state, recv(12, 1, 0, 5, 0));
  CHECK(s.event.sendptr == 0);
  CHECK(s.anomaly == Anomaly::UnmatchedRecv);
}

TEST_CASE("a receive before its send is unmatched, and the late send stays queued") {
  TraceState state;
  CHECK(apply(state, recv(1, 1, 0, 0, -1)).anomaly == Anomaly::UnmatchedRecv);
  apply(state, send(2, 0, 1, 0, -1));
  CHECK(positions(state.queue()) == Positions{2});
}

TEST_CASE("sends and recvs keep enterptr of their location") {
  TraceState state;
  apply(state, enter(1, 0, kMain));
  apply(state, enter(2, 1, kWork));
  CHECK(apply(state, send(3, 0, 1, 0, -1)).event.enterptr == 1);
  CHECK(apply(state, recv(4, 1, 0, 0, -1)).event.enterptr == 2);
}

TEST_CASE("find: the records of open enters and queued sends, nothing else") {
  TraceState state;
  apply(state, enter(1, 0, kMain));
  apply(state, send(2, 0, 1, 3, -1, 77));
  apply(state, enter(3, 1, kWork));
  apply(state, recv(4, 1, 0, 3, -1));  // takes 2 out of the queue
  REQUIRE(state.find(1) != nullptr);
  CHECK(state.find(1)->region == kMain);
  REQUIRE(state.find(3) != nullptr);
  CHECK(state.find(3)->loc == 1);
  CHECK(state.find(2) == nullptr);  // received
  CHECK(state.find(4) == nullptr);  // a recv is never part of the state
  CHECK(state.find(0) == nullptr);
  apply(state, send(5, 1, 0, 3, -1, 99));
  REQUIRE(state.find(5) != nullptr);
  CHECK(state.find(5)->len == 99);
}

TEST_CASE("snapshot and restore keep the FIFO order of pending sends") {
  TraceState state;
  apply(state, enter(1, 0, kMain));
  apply(state, send(2, 0, 1, 5, 0));
  apply(state, send(3, 0, 1, 5, 0));
  StateSnapshot saved = state.snapshot();
  // Go on: receive 2, leave main.
  CHECK(apply(state, recv(4, 1, 0, 5, 0)).event.sendptr == 2);
  apply(state, exit_(5, 0, kMain));
  CHECK(state.stack(0).empty());

  // Back to the state after 3, in this object and in a fresh one: the matching index is
  // rebuilt from the queue, so 2 is matched first again, then 3.
  // The snapshot keeps the channel links; one read from an index lacks them and restores
  // by matching each send again: both must give the same state.
  StateSnapshot unlinked = saved;
  unlinked.links.clear();
  unlinked.channels = {};
  // The links are indices in the snapshot's queue: 2 (index 0) is followed by 3 (index 1).
  REQUIRE(saved.links.size() == 2);
  CHECK(saved.links[0].next_in_channel == 1);
  CHECK(saved.links[1].next_in_channel == kNoSend);
  CHECK(saved.links[0].next_in_pair == 1);
  CHECK(saved.links[1].prev_in_pair == 0);
  REQUIRE(saved.channels.channels.entries.size() == 1);
  CHECK(saved.channels.channels.entries[0].second.head == 0);
  CHECK(saved.channels.channels.entries[0].second.tail == 1);
  for (int variant = 0; variant < 3; ++variant) {
    bool fresh = variant > 0;
    CAPTURE(variant);
    TraceState other_state;
    TraceState& target = fresh ? other_state : state;
    target.restore(variant == 2 ? unlinked : saved);
    CHECK(positions(target.stack(0)) == Positions{1});
    CHECK(positions(target.queue()) == Positions{2, 3});
    CHECK(apply(target, recv(4, 1, 0, 5, 0)).event.sendptr == 2);
    CHECK(apply(target, recv(5, 1, 0, 5, 0)).event.sendptr == 3);
    CHECK(apply(target, recv(6, 1, 0, 5, 0)).event.sendptr == 0);
  }
}

TEST_CASE("a restored state pops into the checkpoint's stacks and pushes above them") {
  TraceState state;
  apply(state, enter(1, 0, kMain));
  apply(state, enter(2, 0, kWork));
  apply(state, enter(3, 1, kMain));
  StateSnapshot saved = state.snapshot();
  TraceState target;
  target.restore(saved);
  CHECK(target.records() == 3);
  REQUIRE(target.find_enter(1, 3) != nullptr);
  Step s = apply(target, exit_(4, 0, kWork));  // pops the checkpoint's top: 2
  CHECK(s.event.enterptr == 2);
  CHECK(s.retired.pos == 2);
  CHECK(apply(target, enter(5, 0, kWork)).event.enterptr == 1);
  CHECK(positions(target.stack(0)) == Positions{1, 5});
  CHECK(target.find_enter(0, 1) != nullptr);
  CHECK(target.find_enter(0, 5) != nullptr);
  CHECK(target.find_enter(0, 2) == nullptr);
  CHECK(apply(target, exit_(6, 0, kWork)).retired.pos == 5);
  CHECK(apply(target, exit_(7, 0, kMain)).retired.pos == 1);  // the checkpoint's last
  CHECK(apply(target, exit_(8, 0, kMain)).anomaly == Anomaly::ExitOnEmptyStack);
  CHECK(apply(target, enter(9, 0, kMain)).event.enterptr == 0);
  CHECK(target.records() == 2);
  StateSnapshot now = target.snapshot();
  REQUIRE(now.stacks.size() == 2);
  CHECK(positions(now.stacks[0]) == Positions{9});
  CHECK(positions(now.stacks[1]) == Positions{3});
  // The checkpoint itself is unchanged: a second restore finds it whole.
  CHECK(positions(saved.stacks[0]) == Positions{1, 2});
  target.restore(saved);
  CHECK(positions(target.stack(0)) == Positions{1, 2});
  CHECK(target.records() == 3);
}

TEST_CASE("clear empties stacks, queue and pending sends") {
  TraceState state;
  apply(state, enter(1, 0, kMain));
  apply(state, send(2, 0, 1, 5, 0));
  state.clear();
  CHECK(state.stack(0).empty());
  CHECK(state.queue().empty());
  // The send of before clear() must not match any more.
  CHECK(apply(state, recv(1, 1, 0, 5, 0)).anomaly == Anomaly::UnmatchedRecv);
}

TEST_CASE("a decoder's unresolved-reference flag is reported unless a model anomaly is") {
  TraceState state;
  Event flagged = other(1, 0);
  flagged.flags = kUnresolvedReference;
  CHECK(apply(state, flagged).anomaly == Anomaly::UnresolvedReference);
  // An unmatched receive is the more specific report.
  Event r = recv(2, 0, 1, 0, -1);
  r.flags = kUnresolvedReference;
  CHECK(apply(state, r).anomaly == Anomaly::UnmatchedRecv);
}

TEST_CASE("EARL 2.1 pointers: RMA startptr, forkptr, lockptr") {
  TraceState state;
  // RMA transfers are keyed by (location, window = com, rmaid = tag).
  apply(state, of_kind(EventKind::RmaTransferStart, 1, 0, /*rmaid*/ 11, /*win*/ 1));
  apply(state, of_kind(EventKind::RmaTransferStart, 2, 0, 12, 1));
  apply(state, of_kind(EventKind::RmaTransferStart, 3, 0, 11, 2));  // same id, other window
  CHECK(apply(state, of_kind(EventKind::RmaTransferEnd, 4, 0, 12, 1)).event.sendptr == 2);
  CHECK(apply(state, of_kind(EventKind::RmaTransferEnd, 5, 0, 11, 2)).event.sendptr == 3);
  CHECK(apply(state, of_kind(EventKind::RmaTransferEnd, 6, 1, 11, 1)).event.sendptr == 0);  // other location
  CHECK(apply(state, of_kind(EventKind::RmaTransferEnd, 7, 0, 11, 1)).event.sendptr == 1);
  CHECK(apply(state, of_kind(EventKind::RmaTransferEnd, 8, 0, 11, 1)).event.sendptr == 0);  // completed

  // A join closes the innermost open fork of its location.
  apply(state, of_kind(EventKind::Fork, 9, 0));
  apply(state, of_kind(EventKind::Fork, 10, 0));
  CHECK(apply(state, of_kind(EventKind::Join, 11, 1)).event.sendptr == 0);
  CHECK(apply(state, of_kind(EventKind::Join, 12, 0)).event.sendptr == 10);
  CHECK(apply(state, of_kind(EventKind::Join, 13, 0)).event.sendptr == 9);
  CHECK(apply(state, of_kind(EventKind::Join, 14, 0)).event.sendptr == 0);

  // lockptr: the previous event of the same lock id, on any location.
  CHECK(apply(state, of_kind(EventKind::ThreadLock, 15, 0, /*lock*/ 4)).event.sendptr == 0);
  CHECK(apply(state, of_kind(EventKind::ThreadLock, 16, 1, 5)).event.sendptr == 0);
  CHECK(apply(state, of_kind(EventKind::ThreadLock, 17, 1, 4)).event.sendptr == 15);
  CHECK(apply(state, of_kind(EventKind::ThreadLock, 18, 0, 4)).event.sendptr == 17);
  CHECK(apply(state, of_kind(EventKind::ThreadLock, 19, 0, 5)).event.sendptr == 16);
}

TEST_CASE("EPILOG's target-side RMA events and region-less exits") {
  TraceState state;
  // A put recorded as EPILOG's merge writes it: put_1ts on the origin 0, put_1te on the
  // target 1 naming the origin as its peer (kStartOnPeer): its start is (0, win 3, id 7).
  apply(state, of_kind(EventKind::RmaTransferStart, 1, 0, 7, 3));
  Event end = of_kind(EventKind::RmaTransferEnd, 2, 1, 7, 3);
  end.peer = 0;
  Event plain = end;
  plain.pos = 3;
  CHECK(apply(state, plain).event.sendptr == 0);  // without the flag: a start on 1, none
  end.flags = kStartOnPeer;
  CHECK(apply(state, end).event.sendptr == 1);

  // A get: get_1to on the origin 0 (no window: com -1), get_1ts on the target 1 (peer 0)
  // points to it (originptr) and becomes the start that get_1te on 0 points to.
  apply(state, of_kind(EventKind::RmaTransferStart, 4, 0, 8, -1));
  Event target = of_kind(EventKind::RmaTargetStart, 5, 1, 8, 3);
  target.peer = 0;
  CHECK(apply(state, target).event.sendptr == 4);
  Event get_end = of_kind(EventKind::RmaTransferEnd, 6, 0, 8, 3);
  get_end.peer = 1;
  CHECK(apply(state, get_end).event.sendptr == 5);
  target.pos = 7;  // a second get_1ts of the same operation finds no get_1to left
  CHECK(apply(state, target).event.sendptr == 0);

  // An exit that names no region (kRegionFromStack) takes the innermost open one's.
  apply(state, enter(8, 2, kMain));
  apply(state, enter(9, 2, kWork));
  Event leave = exit_(10, 2, kMain);
  leave.flags = kRegionFromStack;
  Step step = apply(state, leave);
  CHECK(step.event.region == kWork);
  CHECK(step.anomaly == Anomaly::None);
  CHECK(step.retired.pos == 9);
}

// The same messages as the sendptr test, through RandomAccessTrace: queue(src, dest, pos)
// filters the state after pos, and the problems list the unmatched receives. Positions are
// assigned by the trace (1..n in input order), so they equal the hand-chosen ones here.
TEST_CASE("queue filtering by source and destination, and problems") {
  std::vector<Event> events = {
      send(1, 0, 1, 5, 0), send(2, 0, 1, 5, 0), send(3, 0, 1, 6, 0), send(4, 0, 1, 5, 1),
      send(5, 2, 1, 5, 0), recv(6, 1, 0, 6, 0), recv(7, 1, 0, 5, 0), recv(8, 1, 0, 5, 1),
      recv(9, 1, 2, 5, 0), recv(10, 2, 0, 5, 0), recv(11, 1, 0, 5, 0), recv(12, 1, 0, 5, 0),
      enter(13, 0, kMain), exit_(14, 0, kWork), exit_(15, 0, kMain), send(16, 1, 0, 0, -1)};
  for (Event& e : events) e.pos = 0;  // the trace numbers them
  // bdist 4 and hsize 2 make most queries restore a bookmark and replay.
  RandomAccessTrace trace(std::make_unique<MemoryDecoder>(events, 3), 4, 2);
  REQUIRE(trace.size() == 16);
  CHECK(trace.queue(-1, -1, 0).empty());
  // After 5: all five sends are pending.
  CHECK(trace.queue(-1, -1, 5) == Positions{1, 2, 3, 4, 5});
  CHECK(trace.queue(0, -1, 5) == Positions{1, 2, 3, 4});
  CHECK(trace.queue(2, -1, 5) == Positions{5});
  CHECK(trace.queue(-1, 1, 5) == Positions{1, 2, 3, 4, 5});
  CHECK(trace.queue(-1, 2, 5).empty());
  CHECK(trace.queue(2, 1, 5) == Positions{5});
  CHECK(trace.queue(1, 2, 5).empty());
  // After 7 (3 and 1 received): [2 4 5]; after 9: [2]; after 12: []; after 16: [16].
  CHECK(trace.queue(-1, -1, 7) == Positions{2, 4, 5});
  CHECK(trace.queue(0, 1, 7) == Positions{2, 4});
  CHECK(trace.queue(-1, -1, 9) == Positions{2});
  CHECK(trace.queue(-1, -1, 12).empty());
  CHECK(trace.queue(1, 0, 16) == Positions{16});
  CHECK(trace.queue(0, -1, 16).empty());
  // Going backwards after having been at the end.
  CHECK(trace.queue(0, 1, 6) == Positions{1, 2, 4});
  // One step back inside the history window: the queue after 7 is that after 8 with the
  // send 8 received (4, from 0 to 1) put back.
  CHECK(trace.event(8).sendptr == 4);
  CHECK(trace.queue(0, 1, 7) == Positions{2, 4});
  CHECK(trace.queue(1, 0, 7).empty());
  CHECK(trace.event(10).sendptr == 0);
  CHECK(trace.event(11).sendptr == 2);
  CHECK(trace.event(14).enterptr == 13);

  CHECK_THROWS_AS(trace.queue(3, -1, 5), EarlError);   // locations are 0..2
  CHECK_THROWS_AS(trace.queue(-1, -2, 5), EarlError);  // only -1 means any
  CHECK_THROWS_AS(trace.queue(-1, -1, 17), EarlError);

  // 10 and 12 found no send; 14 (exit work while main is open) is mismatched and pops
  // main, so 15 finds loc0's stack empty.
  const Problems& problems = trace.problems();
  CHECK(problems.unmatched_recv.count == 2);
  CHECK(problems.unmatched_recv.first == Positions{10, 12});
  CHECK(problems.mismatched_exit.count == 1);
  CHECK(problems.mismatched_exit.first == Positions{14});
  CHECK(problems.exit_on_empty_stack.count == 1);
  CHECK(problems.exit_on_empty_stack.first == Positions{15});
  CHECK(problems.unresolved_reference.count == 0);
}

TEST_CASE("deltas: a checkpoint plus the deltas after it is the state, composed or not") {
  // Random enters, exits, sends and receives on 3 locations; a delta every 1..6 events.
  std::uint64_t seed = 12345;
  auto next = [&seed](int n) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int>((seed >> 33) % static_cast<std::uint64_t>(n));
  };
  TraceState live;
  live.set_journaling(true);
  StateSnapshot start = live.snapshot();
  std::vector<StateDelta> deltas;
  std::vector<StateSnapshot> truth;
  Position pos = 0;
  for (int step = 0; step < 60; ++step) {
    for (int k = next(6) + 1; k > 0; --k) {
      ++pos;
      Location loc = next(3);
      switch (next(4)) {
        case 0: apply(live, enter(pos, loc, kWork)); break;
        case 1: apply(live, exit_(pos, loc, kWork)); break;
        case 2: apply(live, send(pos, loc, next(3), next(2), 0)); break;
        default: apply(live, recv(pos, loc, next(3), next(2), 0)); break;
      }
    }
    deltas.push_back(live.take_delta());
    truth.push_back(live.snapshot());
  }
  auto same = [](const StateSnapshot& a, const StateSnapshot& b) {
    if (positions(a.queue) != positions(b.queue)) return false;
    for (std::size_t loc = 0; loc < std::max(a.stacks.size(), b.stacks.size()); ++loc) {
      Positions x = loc < a.stacks.size() ? positions(a.stacks[loc]) : Positions{};
      Positions y = loc < b.stacks.size() ? positions(b.stacks[loc]) : Positions{};
      if (x != y) return false;
    }
    return true;
  };
  TraceState replayed;
  replayed.restore(start);
  StateDelta composed;
  for (std::size_t i = 0; i < deltas.size(); ++i) {
    replayed.apply_delta(deltas[i]);
    CHECK_MESSAGE(same(replayed.snapshot(), truth[i]), "after delta " << i);
    composed = i == 0 ? deltas[0] : compose(composed, deltas[i]);
    TraceState at_once;
    at_once.restore(start);
    at_once.apply_delta(composed);
    CHECK_MESSAGE(same(at_once.snapshot(), truth[i]), "composed up to " << i);
    // A delta holds what changed, never more than the events since the previous one.
    CHECK(deltas[i].added.size() + deltas[i].removed.size() <= 6);
  }
  // The FIFO order survives: the replayed state matches receives like the live one.
  for (Location src = 0; src < 3; ++src)
    for (Location dest = 0; dest < 3; ++dest) {
      CHECK(replayed.queue(src, dest) == live.queue(src, dest));
      Step a = apply(live, recv(++pos, dest, src, 0, 0));
      Step b = apply(replayed, recv(pos, dest, src, 0, 0));
      CHECK(a.event.sendptr == b.event.sendptr);
    }
}

TEST_CASE("a thousand channels, one message each: queue(src, dest) and matching") {
  TraceState state;
  for (Position p = 1; p <= 1000; ++p) apply(state, send(p, 0, 1 + p % 2, static_cast<std::int64_t>(p), 0));
  CHECK(state.queue_size() == 1000);
  CHECK(state.queue(0, 2).size() == 500);
  CHECK(state.queue(0, 2).front() == 1);  // odd positions go to 2
  CHECK(state.queue(-1, 1).size() == 500);
  for (Position p = 1; p <= 1000; ++p)
    CHECK(apply(state, recv(1000 + p, 1 + p % 2, 0, static_cast<std::int64_t>(p), 0)).event.sendptr == p);
  CHECK(state.queue_size() == 0);
  CHECK(state.records() == 0);
  CHECK(state.queue(0, -1).empty());
}

// The channel index answers queue(src, dest) from its links per (source, destination)
// pair and per source: checked against the same filter over the whole queue after every
// send and receive of a random mix of pairs, tags and communicators (channels and pairs
// that empty and come back), and after a restore rebuilds the index from a snapshot.
TEST_CASE("queue(src, dest) agrees with filtering the whole queue as channels come and go") {
  constexpr Location kLocations = 5;
  std::uint64_t seed = 12345;
  auto next = [&](std::uint64_t bound) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (seed >> 33) % bound;
  };
  auto expected = [](const TraceState& state, Location src, Location dest) {
    Positions out;
    for (const Event& e : state.queue())
      if ((src == -1 || e.loc == src) && (dest == -1 || e.peer == dest)) out.push_back(e.pos);
    return out;
  };
  auto check_all = [&](const TraceState& state) {
    for (Location src = -1; src < kLocations; ++src)
      for (Location dest = -1; dest < kLocations; ++dest) {
        CAPTURE(src);
        CAPTURE(dest);
        CHECK(state.queue(src, dest) == expected(state, src, dest));
      }
  };
  TraceState state;
  Position pos = 0;
  StateSnapshot saved;
  for (int step = 0; step < 400; ++step) {
    if (next(3) != 0 || state.queue_size() == 0) {
      auto src = static_cast<Location>(next(kLocations));
      auto dest = static_cast<Location>(next(kLocations));
      apply(state, send(++pos, src, dest, static_cast<std::int64_t>(next(3)),
                        static_cast<std::int64_t>(next(2))));
    } else {
      // Receive the oldest send of a random queued message's channel: FIFO per channel.
      std::vector<Event> queued = state.queue();
      const Event& any = queued[next(queued.size())];
      Position oldest = 0;
      for (const Event& e : queued)
        if (e.loc == any.loc && e.peer == any.peer && e.tag == any.tag && e.com == any.com) {
          oldest = e.pos;
          break;
        }
      CHECK(apply(state, recv(++pos, any.peer, any.loc, any.tag, any.com)).event.sendptr == oldest);
    }
    check_all(state);
    if (step == 200) saved = state.snapshot();
  }
  TraceState restored;
  restored.restore(saved);
  CHECK(positions(restored.queue()) == positions(saved.queue));
  check_all(restored);
  // Received in position order, each send is the oldest left in its channel: the
  // restored links give exactly it.
  for (const Event& e : saved.queue) {
    CHECK(apply(restored, recv(++pos, e.peer, e.loc, e.tag, e.com)).event.sendptr == e.pos);
    check_all(restored);
  }
  CHECK(restored.queue_size() == 0);
}

// Sends are queued in position order even when they come out of it (no decoder does
// that; a state fed by hand may): each goes into the queue, its channel and its pair's
// list at its place, and the links of those after it follow.
TEST_CASE("sends applied out of position order: queue, pair lists and matching stay in order") {
  TraceState state;
  // Positions 50, 40, ..., 10 from 0 to 1 with tags 0 and 1 in turn, then 45 and 5 from 0
  // to 2, and 25 from 0 to 1 with tag 0 again.
  for (Position p : {50, 40, 30, 20, 10})
    apply(state, send(p, 0, 1, static_cast<std::int64_t>(p / 10 % 2), 0));
  apply(state, send(45, 0, 2, 0, 0));
  apply(state, send(5, 0, 2, 0, 0));
  apply(state, send(25, 0, 1, 0, 0));
  CHECK(positions(state.queue()) == Positions{5, 10, 20, 25, 30, 40, 45, 50});
  CHECK(state.queue(0, 1) == Positions{10, 20, 25, 30, 40, 50});
  CHECK(state.queue(0, 2) == Positions{5, 45});
  CHECK(state.queue(0, -1) == Positions{5, 10, 20, 25, 30, 40, 45, 50});
  // Tag 0 from 0 to 1 holds 20, 25, 40 (even tens and 25); tag 1 holds 10, 30, 50. The
  // oldest of each channel is taken first.
  CHECK(apply(state, recv(60, 1, 0, 0, 0)).event.sendptr == 20);
  CHECK(apply(state, recv(61, 1, 0, 1, 0)).event.sendptr == 10);
  CHECK(apply(state, recv(62, 1, 0, 0, 0)).event.sendptr == 25);
  CHECK(apply(state, recv(63, 2, 0, 0, 0)).event.sendptr == 5);
  CHECK(state.queue(0, 1) == Positions{30, 40, 50});
  CHECK(state.queue(0, 2) == Positions{45});
  CHECK(apply(state, recv(64, 1, 0, 0, 0)).event.sendptr == 40);
  CHECK(apply(state, recv(65, 1, 0, 1, 0)).event.sendptr == 30);
  CHECK(apply(state, recv(66, 1, 0, 1, 0)).event.sendptr == 50);
  CHECK(apply(state, recv(67, 2, 0, 0, 0)).event.sendptr == 45);
  CHECK(state.queue_size() == 0);
  CHECK(state.queue(0, -1).empty());
}
