// The controlled logical clock's pass on hand-made event lists: inputs no real trace
// gives (a receive without its send, receives that wait for each other) must end with
// the documented fallback, and the jump cursor and the decoder's positions must give the
// same corrected times however they are reached.
#include <doctest/doctest.h>

#include <random>

#include "memory_decoder.h"
#include "timecorrect/clock_pass.h"
#include "timecorrect/corrected_decoder.h"

using namespace earl;
using earl::testing::MemoryDecoder;

namespace {

Event message(EventKind kind, Location loc, Location peer, std::int64_t tag, double time_us) {
  Event e;
  e.kind = kind;
  e.type = kind == EventKind::Send ? kSendType : kRecvType;
  e.loc = loc;
  e.peer = peer;
  e.tag = tag;
  e.com = 0;
  e.time = time_us * 1e-6;
  return e;
}

Event send(Location loc, Location dest, std::int64_t tag, double us) { return message(EventKind::Send, loc, dest, tag, us); }
Event recv(Location loc, Location src, std::int64_t tag, double us) { return message(EventKind::Recv, loc, src, tag, us); }

}  // namespace

TEST_CASE("a receive whose send never comes goes on without a bound at the end") {
  // Two receives on channel 0->1 tag 5, one send: the first receive pairs with it.
  MemoryDecoder decoder({recv(1, 0, 5, 50), recv(1, 0, 5, 60), send(0, 1, 5, 100)}, 2);
  auto corrections = correct_clocks(decoder, ClockCorrectionOptions{});
  REQUIRE(corrections->jump_count() == 1);
  const ClockJump& jump = corrections->jumps(1).at(0);
  CHECK(jump.ordinal == 1);
  CHECK(jump.shift == doctest::Approx(50e-6));
  // The second receive keeps the decayed shift: 60 + 50 - 0.01 * 10 us.
  CHECK(corrections->forward(&jump, 60e-6) == doctest::Approx(109.9e-6));
}

TEST_CASE("receives waiting for each other (no real trace does this) end, the oldest released") {
  MemoryDecoder decoder({recv(0, 1, 1, 10), recv(1, 0, 2, 10), send(0, 1, 2, 20), send(1, 0, 1, 20)}, 2);
  auto corrections = correct_clocks(decoder, ClockCorrectionOptions{});
  // Location 0's receive (ordinal 1) goes on unbound; its send then bounds location 1's.
  CHECK(corrections->jumps(0).empty());
  REQUIRE(corrections->jumps(1).size() == 1);
  CHECK(corrections->jumps(1)[0].ordinal == 2);
  CHECK(corrections->jumps(1)[0].shift == doctest::Approx(10e-6));
}

TEST_CASE("the jump cursor finds the latest jump at or before any ordinal, in any order") {
  ClockCorrections corrections(ClockCorrectionOptions{});
  std::vector<std::uint64_t> ordinals;
  for (std::uint64_t o = 5; o < 2000; o += 1 + o % 7) {
    corrections.add_jump(3, o, 0.0, 1.0);
    ordinals.push_back(o);
  }
  corrections.finish();
  JumpCursor cursor;
  std::mt19937_64 random(7);
  for (int i = 0; i < 5000; ++i) {
    std::uint64_t query = i < 2000 ? static_cast<std::uint64_t>(i) : random() % 2100;
    auto [latest, next] = cursor.find(corrections, 3, query);
    const ClockJump* expected = nullptr;
    const ClockJump* after = nullptr;
    for (const ClockJump& j : corrections.jumps(3)) {
      if (j.ordinal <= query) expected = &j;
      if (j.ordinal > query && !after) after = &j;
    }
    REQUIRE(latest == expected);
    REQUIRE(next == after);
  }
  CHECK(cursor.find(corrections, 2, 100).first == nullptr);
  CHECK(cursor.find(corrections, -1, 100).second == nullptr);
}

TEST_CASE("a corrected decoder's positions give the scan's times") {
  std::vector<Event> events;
  for (int round = 0; round < 200; ++round) {
    const double t = round * 100.0;
    events.push_back(recv(1, 0, 5, t + 10));  // location 1's clock lags: before the send
    events.push_back(send(0, 1, 5, t + 30));
    events.push_back(send(1, 0, 6, t + 40));
    events.push_back(recv(0, 1, 6, t + 90));
  }
  CorrectedDecoder decoder(std::make_unique<MemoryDecoder>(events, 2), ClockCorrectionOptions{});
  CHECK(decoder.corrections().jump_count() == 200);
  std::vector<double> scan;
  std::vector<DecoderPosition> where;
  Event e;
  decoder.seek(decoder.start_position());
  for (;;) {
    where.push_back(decoder.position());
    if (!decoder.read(e)) break;
    scan.push_back(e.time);
  }
  REQUIRE(scan.size() == events.size());
  CHECK(scan[0] == doctest::Approx(30e-6));  // the first receive at its send
  std::mt19937_64 random(11);
  for (int i = 0; i < 300; ++i) {
    std::size_t at = random() % scan.size();
    decoder.seek(where[at]);
    REQUIRE(decoder.read(e));
    CHECK(e.time == scan[at]);
  }
}

TEST_CASE("a collective's exit rises to the latest enter; the enter before it follows on a ramp") {
  // True times: location 0 enters at 100, location 1 at 150, both leave at 160; location
  // 0's clock lags by 30 us, so it records 70 and 130, and its exit precedes 1's enter.
  auto at = [](EventKind kind, Location loc, double us) {
    Event e;
    e.kind = kind;
    e.type = kind == EventKind::Enter ? kEnterType : kExitType;
    e.loc = loc;
    e.region = 0;
    e.com = 4;
    e.time = us * 1e-6;
    return e;
  };
  auto decoder = std::make_unique<MemoryDecoder>(
      std::vector<Event>{at(EventKind::Enter, 0, 70), at(EventKind::CollectiveExit, 0, 130),
                         at(EventKind::Enter, 1, 150), at(EventKind::CollectiveExit, 1, 160)},
      2);
  decoder->mutable_definitions().communicator_sizes[4] = 2;
  CorrectedDecoder corrected(std::move(decoder), ClockCorrectionOptions{});
  REQUIRE(corrected.corrections().jump_count() == 1);
  CHECK(corrected.corrections().jumps(0).at(0).shift == doctest::Approx(20e-6));
  std::vector<double> times;
  Event e;
  while (corrected.read(e)) times.push_back(e.time * 1e6);
  REQUIRE(times.size() == 4);
  // The enter rises along the ramp 20 - 0.01 * (130 - 70) (its instance's earliest exit,
  // 150, allows 80); the exit meets the enter at 150; location 1 stays.
  CHECK(times[0] == doctest::Approx(89.4));
  CHECK(times[1] == doctest::Approx(150));
  CHECK(times[2] == doctest::Approx(150));
  CHECK(times[3] == doctest::Approx(160));

  ClockCorrectionOptions forward_only;
  forward_only.backward = false;
  auto again = std::make_unique<MemoryDecoder>(
      std::vector<Event>{at(EventKind::Enter, 0, 70), at(EventKind::CollectiveExit, 0, 130),
                         at(EventKind::Enter, 1, 150), at(EventKind::CollectiveExit, 1, 160)},
      2);
  again->mutable_definitions().communicator_sizes[4] = 2;
  CorrectedDecoder forward(std::move(again), forward_only);
  REQUIRE(forward.read(e));
  CHECK(e.time * 1e6 == doctest::Approx(70));
}
