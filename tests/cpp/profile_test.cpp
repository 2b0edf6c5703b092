// Unit tests of the profile layer's builders on hand-made event sequences (no trace):
// region instances with nesting, recursion, counters sampled at the enter's and exit's
// time on either side of them, an instance left open; the one-pass profile's flat
// profile, time bins and messages. Every expected value is worked out by hand below.
#include <cmath>
#include <vector>

#include <doctest/doctest.h>

#include "profile/region_instances.h"
#include "profile/trace_profile.h"

using namespace earl;
using earl::profile::InstanceBuilder;
using earl::profile::ProfileBuilder;

namespace {

Position next_pos = 0;

Event make(EventKind kind, SymbolId type, Location loc, double time) {
  Event e;
  e.pos = ++next_pos;
  e.loc = loc;
  e.time = time;
  e.kind = kind;
  e.type = type;
  return e;
}

Event enter(Location loc, double time, SymbolId region) {
  Event e = make(EventKind::Enter, kEnterType, loc, time);
  e.region = region;
  return e;
}

Event leave(Location loc, double time, SymbolId region) {
  Event e = make(EventKind::Exit, kExitType, loc, time);
  e.region = region;
  return e;
}

Event sample(Location loc, double time, std::int64_t metric, double value) {
  Event e = make(EventKind::Metric, 4, loc, time);
  e.tag = metric;
  e.data2 = Value::of_float(value);
  return e;
}

Event send(Location loc, double time, Location dest, std::uint64_t bytes) {
  Event e = make(EventKind::Send, kSendType, loc, time);
  e.peer = dest;
  e.len = bytes;
  return e;
}

}  // namespace

TEST_CASE("region instances: nesting, recursion, counters at the same time, an open instance") {
  next_pos = 0;
  InstanceBuilder b(2, 1);
  // loc 0: A 0..10 { A 2..5 }, the counter 100 at 0 (after the enter), 130 at 5 (before
  // the inner exit), 170 at 10 (after the outer exit). loc 1: B from 1, never left.
  for (const Event& e : {enter(0, 0, 0), sample(0, 0, 0, 100), enter(1, 1, 1), enter(0, 2, 0),
                         sample(0, 5, 0, 130), leave(0, 5, 0), leave(0, 10, 0), sample(0, 10, 0, 170)})
    b.add(e);
  profile::RegionInstances r = b.finish();
  REQUIRE(r.loc.size() == 3);  // rows in the order entered: outer A, B, inner A
  CHECK(r.callpath[0] == r.callpath[1] - 1);
  CHECK(r.callpath_parent[static_cast<std::size_t>(r.callpath[2])] == r.callpath[0]);
  CHECK(r.inclusive[0] == 10.0);
  CHECK(r.exclusive[0] == 7.0);  // 10 - inner 3
  CHECK(r.inclusive[2] == 3.0);
  CHECK(r.exclusive[2] == 3.0);
  CHECK(r.counters[0] == 70.0);  // 170 at 10 - 100 at 0
  // inner A: entered at 2 (last sample 100 at 0), left at 5 (130 at 5)
  CHECK(r.counters[2] == 30.0);
  CHECK(r.exit_pos[1] == 0);
  CHECK(std::isnan(r.inclusive[1]));
  CHECK(std::isnan(r.counters[1]));  // loc 1 has no sample
}

TEST_CASE("profile: flat profile, time bins and messages") {
  next_pos = 0;
  // two regions, two locations, two bins over 0..10
  ProfileBuilder b(5, 2, 2, 2, 0.0, 10.0);
  // loc 0: R0 0..10 { R1 2..7 { R1 3..4 } }, a send of 5 bytes to loc 1 at 6
  // loc 1: R1 0..4
  for (const Event& e : {enter(0, 0, 0), enter(1, 0, 1), enter(0, 2, 1), enter(0, 3, 1),
                         leave(0, 4, 1), leave(1, 4, 1), send(0, 6, 1, 5), leave(0, 7, 1),
                         leave(0, 10, 0)})
    b.add(e);
  profile::TraceProfile p = b.finish();
  CHECK(p.type_count[kEnterType] == 4);
  CHECK(p.type_count[kSendType] == 1);
  CHECK(p.visits == std::vector<std::uint64_t>{1, 2, 0, 1});
  // loc 0: R0 10 inclusive, 10 - 5 = 5 exclusive; R1 5 inclusive (outermost only),
  // exclusive 4 + 1; loc 1: R1 4
  CHECK(p.inclusive == std::vector<double>{10, 5, 0, 4});
  CHECK(p.exclusive == std::vector<double>{5, 5, 0, 4});
  // bin 0 (0..5): R0 0..2 on loc 0; R1 2..5 on loc 0 and 0..4 on loc 1
  // bin 1 (5..10): R1 5..7, R0 7..10
  CHECK(p.time_bins == std::vector<double>{2, 7, 3, 2});
  CHECK(p.message_count == std::vector<std::uint64_t>{0, 1, 0, 0});
  CHECK(p.message_bytes == std::vector<std::uint64_t>{0, 5, 0, 0});
  CHECK(p.size_histogram[3] == 1);  // 5 bytes: 4..7
  CHECK(p.bin_bytes == std::vector<std::uint64_t>{0, 5});
}

TEST_CASE("size classes") {
  CHECK(profile::size_bin(0) == 0);
  CHECK(profile::size_bin(1) == 1);
  CHECK(profile::size_bin(3) == 2);
  CHECK(profile::size_bin(4) == 3);
  CHECK(profile::size_bin(~std::uint64_t{0}) == 64);
}
