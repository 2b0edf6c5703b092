// OpenTable, the flat hash table of the message queue's channels: random inserts and
// erases against std::map as the reference (the backward shift that erasing does, the
// wrap-around at the end of the array, growth), and a saved table loaded into another.
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include <doctest/doctest.h>

#include "state/channel_table.h"

using namespace earl;

namespace {

using Table = OpenTable<QueueChannel>;
using Reference = std::map<std::tuple<Location, Location, std::int64_t, std::int64_t>, SendIndex>;

std::tuple<Location, Location, std::int64_t, std::int64_t> as_tuple(const MessageChannel& k) {
  return {k.src, k.dest, k.tag, k.com};
}

// Every key of the reference is found with its value, every other key of the universe is
// not, and for_each visits exactly the reference.
void check_same(const Table& table, const Reference& reference, const std::vector<MessageChannel>& universe) {
  CHECK(table.size() == reference.size());
  for (const MessageChannel& key : universe) {
    auto expected = reference.find(as_tuple(key));
    Table::Index found = table.find(key);
    if (expected == reference.end()) {
      CHECK(found == Table::kNone);
    } else {
      REQUIRE(found != Table::kNone);
      CHECK(table[found].has_key(key));
      CHECK(table[found].head == expected->second);
    }
  }
  std::size_t visited = 0;
  table.for_each([&](const QueueChannel& channel) {
    ++visited;
    auto expected = reference.find(as_tuple(channel.key()));
    REQUIRE(expected != reference.end());
    CHECK(channel.head == expected->second);
  });
  CHECK(visited == reference.size());
}

}  // namespace

TEST_CASE("OpenTable: random inserts and erases agree with std::map, saved and loaded") {
  // Few sources and destinations, tags in runs (which share a hash and lie side by side)
  // and at random, two communicators: long clusters, wrap-around, erases that shift.
  std::vector<MessageChannel> universe;
  for (Location src = 0; src < 3; ++src)
    for (Location dest = 0; dest < 3; ++dest)
      for (std::int64_t tag : std::vector<std::int64_t>{0, 1, 2, 3, 7, 8, 9, 15, 16, 1000, -5, 1LL << 40})
        for (std::int64_t com : std::vector<std::int64_t>{-1, 3}) universe.push_back({src, dest, tag, com});
  std::uint64_t seed = 99;
  auto next = [&](std::uint64_t bound) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (seed >> 33) % bound;
  };
  Table table;
  Reference reference;
  CHECK(table.find(universe[0]) == Table::kNone);  // an empty table has no slots at all
  for (int step = 0; step < 6000; ++step) {
    // Grow towards the whole universe, then shrink, then grow again: every load.
    bool grow_phase = (step / 1500) % 2 == 0;
    const MessageChannel& key = universe[next(universe.size())];
    Table::Index found = table.find(key);
    if (found == Table::kNone && (grow_phase || next(4) == 0)) {
      Table::Index slot = table.insert(key);
      table[slot].head = static_cast<SendIndex>(step);
      reference[as_tuple(key)] = static_cast<SendIndex>(step);
    } else if (found != Table::kNone && (!grow_phase || next(4) == 0)) {
      table.erase(found);
      reference.erase(as_tuple(key));
    }
    if (step % 97 == 0) check_same(table, reference, universe);
  }
  check_same(table, reference, universe);
  Table loaded;
  loaded.load(table.save());
  check_same(loaded, reference, universe);
  // The loaded table goes on like the original.
  for (const MessageChannel& key : universe) {
    Table::Index found = loaded.find(key);
    if (found != Table::kNone) {
      loaded.erase(found);
      reference.erase(as_tuple(key));
    } else {
      loaded[loaded.find_or_insert(key)].head = 7;
      reference[as_tuple(key)] = 7;
    }
  }
  check_same(loaded, reference, universe);
  loaded.clear();
  check_same(loaded, {}, universe);
}
