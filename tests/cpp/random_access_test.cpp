// RandomAccessTrace against brute force: an in-memory decoder feeds random events; every
// event, stack and queue at random positions (random access order) must equal a full
// replay of the formal model from the start, for every bdist/hsize corner.
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "access/random_access_trace.h"
#include "memory_decoder.h"
#include "model/error.h"

using namespace earl;
using earl::testing::MemoryDecoder;

namespace {

std::vector<Event> random_events(std::mt19937_64& rng, int locations, int count) {
  std::vector<Event> events;
  std::uniform_int_distribution<int> kind(0, 4), loc(0, locations - 1), tag(0, 2), region(0, 1);
  for (int i = 0; i < count; ++i) {
    Event e;
    e.loc = loc(rng);
    e.time = i * 0.5;
    switch (kind(rng)) {
      case 0: e.kind = EventKind::Enter; e.type = kEnterType; e.region = region(rng); break;
      case 1: e.kind = EventKind::Exit; e.type = kExitType; e.region = region(rng); break;
      case 2: e.kind = EventKind::Send; e.type = kSendType; e.peer = loc(rng); e.tag = tag(rng); break;
      case 3: e.kind = EventKind::Recv; e.type = kRecvType; e.peer = loc(rng); e.tag = tag(rng); break;
      default: e.kind = EventKind::Other; e.type = 4; e.data1 = Value::of_int(i); break;
    }
    events.push_back(e);
  }
  return events;
}

// The formal model, replayed from the start: pointers of every event and the state
// (stacks per location, queue) after every event.
struct Replay {
  std::vector<Event> events;  // with pos, enterptr, sendptr
  std::vector<std::vector<std::vector<Position>>> stacks;  // [pos][loc]
  std::vector<std::vector<Position>> queues;               // [pos]
};

Replay replay(const std::vector<Event>& input, int locations) {
  Replay r;
  std::vector<std::vector<Position>> stack(locations);
  std::vector<Position> queue;
  r.stacks.push_back(stack);
  r.queues.push_back(queue);
  for (std::size_t i = 0; i < input.size(); ++i) {
    Event e = input[i];
    e.pos = i + 1;
    auto& s = stack[e.loc];
    e.enterptr = s.empty() ? 0 : s.back();
    if (e.kind == EventKind::Enter) s.push_back(e.pos);
    if (e.kind == EventKind::Exit && !s.empty()) s.pop_back();
    if (e.kind == EventKind::Send) queue.push_back(e.pos);
    if (e.kind == EventKind::Recv) {
      e.sendptr = 0;
      for (auto it = queue.begin(); it != queue.end(); ++it) {
        const Event& send = r.events[*it - 1];
        if (send.loc == e.peer && send.peer == e.loc && send.tag == e.tag && send.com == e.com) {
          e.sendptr = *it;
          queue.erase(it);
          break;
        }
      }
    }
    r.events.push_back(e);
    r.stacks.push_back(stack);
    r.queues.push_back(queue);
  }
  return r;
}

bool same_event(const Event& a, const Event& b) {
  return a.pos == b.pos && a.loc == b.loc && a.time == b.time && a.kind == b.kind &&
         a.type == b.type && a.enterptr == b.enterptr && a.sendptr == b.sendptr &&
         a.peer == b.peer && a.tag == b.tag && a.region == b.region;
}

void run_case(std::uint64_t seed, int count, std::uint64_t bdist, std::uint64_t hsize, bool restart,
              std::uint64_t memory = RandomAccessTrace::kDefaultMemory) {
  const int locations = 3;
  std::mt19937_64 rng(seed);
  std::vector<Event> input = random_events(rng, locations, count);
  Replay expected = replay(input, locations);
  RandomAccessTrace trace(std::make_unique<MemoryDecoder>(input, locations, restart), bdist, hsize,
                          {}, memory);
  std::string label = "seed " + std::to_string(seed) + " bdist " + std::to_string(bdist) +
                      " hsize " + std::to_string(hsize) + " memory " + std::to_string(memory) + ": ";
  CHECK_MESSAGE(trace.bookmark_memory() <= memory, (label + "budget"));
  CHECK_MESSAGE(trace.size() == static_cast<Position>(count), (label + "size"));
  std::uniform_int_distribution<int> pick(0, count);
  int mismatches = 0;
  for (int probe = 0; probe < 400; ++probe) {
    Position pos = static_cast<Position>(pick(rng));
    if (pos >= 1) {
      // A copy: the reference event() returns is valid only until the next move.
      const Event got = trace.event(pos);
      if (!same_event(got, expected.events[pos - 1])) ++mismatches;
      // Follow the pointers, as scripts do.
      if (got.enterptr && !same_event(trace.event(got.enterptr), expected.events[got.enterptr - 1])) ++mismatches;
      if (got.kind == EventKind::Recv && got.sendptr &&
          !same_event(trace.event(got.sendptr), expected.events[got.sendptr - 1])) ++mismatches;
    }
    for (int loc = 0; loc < locations; ++loc)
      if (trace.stack(loc, pos) != expected.stacks[pos][loc]) ++mismatches;
    if (trace.queue(-1, -1, pos) != expected.queues[pos]) ++mismatches;
  }
  CHECK_MESSAGE(mismatches == 0, (label + std::to_string(mismatches) + " mismatches"));
}

}  // namespace

TEST_CASE("random access equals a full replay for every bdist/hsize corner") {
  for (std::uint64_t seed = 1; seed <= 6; ++seed)
    for (std::uint64_t bdist : {0, 1, 2, 7, 100000})
      for (std::uint64_t hsize : {1, 2, 5, 100000})
        run_case(seed, 300, bdist, hsize, seed % 2 == 0);
}

TEST_CASE("a memory budget widens bdist and random access stays exact") {
  for (std::uint64_t seed = 11; seed <= 14; ++seed)
    for (std::uint64_t bdist : {1, 2, 7})
      for (std::uint64_t memory : {3000, 9000, 40000})
        run_case(seed, 400, bdist, seed % 2 ? 1 : 5, seed % 2 == 0, memory);
  // A budget far below one bookmark's cost leaves only the first bookmark.
  std::mt19937_64 rng(5);
  std::vector<Event> input = random_events(rng, 3, 500);
  RandomAccessTrace tiny(std::make_unique<MemoryDecoder>(input, 3, false), 1, 1, {}, 1);
  CHECK(tiny.bookmark_count() == 1);
  CHECK(tiny.effective_bdist() >= 512);
  Replay expected = replay(input, 3);
  for (Position pos = 500; pos >= 7; pos -= 7) CHECK(same_event(tiny.event(pos), expected.events[pos - 1]));
}

TEST_CASE("random access over a longer trace that restarts its scan") {
  run_case(99, 20000, 1000, 100, true);
}

TEST_CASE("errors: positions and locations that do not exist, hsize 0") {
  std::vector<Event> none;
  RandomAccessTrace trace(std::make_unique<MemoryDecoder>(none, 2, false), 10, 10);
  CHECK_MESSAGE(trace.size() == 0, "empty trace has no events");
  CHECK_THROWS_AS_MESSAGE(trace.event(1), EarlError, "event(1) of an empty trace throws");
  CHECK_THROWS_AS_MESSAGE(trace.stack(2, 0), EarlError, "stack of location 2 of 2 throws");
  CHECK_MESSAGE(trace.queue(-1, -1, 0).empty(), "queue at 0 is empty");
  CHECK_THROWS_AS_MESSAGE(RandomAccessTrace(std::make_unique<MemoryDecoder>(none, 1, false), 1, 0),
                          EarlError, "hsize 0 throws");
}

TEST_CASE("an interrupted seek leaves the trace usable") {
  std::mt19937_64 rng(7);
  std::vector<Event> input = random_events(rng, 3, 300000);
  Replay expected = replay(input, 3);
  RandomAccessTrace trace(std::make_unique<MemoryDecoder>(input, 3, false), 0, 100);
  CHECK_THROWS_AS_MESSAGE(trace.event(250000, [](double) { return false; }), Interrupted,
                          "a progress callback returning false interrupts a long seek");
  CHECK_MESSAGE(same_event(trace.event(250000), expected.events[249999]), "usable after the interrupt");
  CHECK_MESSAGE(same_event(trace.event(3), expected.events[2]), "and backwards");
}

TEST_CASE("the scan observer sees every event with its pointers, again from 1 after a restart") {
  for (bool restart : {false, true}) {
    std::mt19937_64 rng(restart ? 21 : 22);
    std::vector<Event> input = random_events(rng, 3, 2000);
    Replay expected = replay(input, 3);
    std::vector<Event> seen;
    int starts = 0;
    ScanObserver observer = [&](const Event& e) {
      if (e.pos == 1) {
        seen.clear();
        ++starts;
      }
      seen.push_back(e);
    };
    RandomAccessTrace trace(std::make_unique<MemoryDecoder>(input, 3, restart), 100, 10, {},
                            RandomAccessTrace::kDefaultMemory, observer);
    CHECK(starts == (restart ? 2 : 1));
    REQUIRE(seen.size() == input.size());
    int mismatches = 0;
    for (std::size_t i = 0; i < seen.size(); ++i) mismatches += !same_event(seen[i], expected.events[i]);
    CHECK(mismatches == 0);
  }
}
