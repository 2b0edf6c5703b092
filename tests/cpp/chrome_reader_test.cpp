// The Chrome trace-event reader (formats/chrome) on small hand-written files: the order of
// records at equal times (nesting), timestamps exact to the nanosecond from the number's
// text, damage against strict, and the bare array without its `]`. Every expected value is
// worked out by hand in the comments next to it.
#if __has_include(<rapidjson/reader.h>)  // the layer reads Chrome JSON only with RapidJSON
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <doctest/doctest.h>

#include "formats/chrome/chrome_records.h"
#include "model/error.h"

using namespace earl;

namespace {

class TempJson {
 public:
  explicit TempJson(const std::string& text) {
    static std::atomic<int> counter{0};
    path_ = (std::filesystem::temp_directory_path() /
             ("earl_chrome_reader_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".json"))
                .string();
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~TempJson() { std::filesystem::remove(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

ChromeTrace read(const std::string& text, bool strict = false) {
  TempJson file(text);
  ReadOptions options;
  options.strict = strict;
  return read_chrome_trace(file.path(), options);
}

// "kind region tick" of every record, in EARL's order.
std::vector<std::string> listing(const ChromeTrace& t) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < t.records.size(); ++i) {
    const Event e = t.event(i);
    std::string kind = e.kind == EventKind::Enter ? "enter" : e.kind == EventKind::Exit ? "exit" : "other";
    out.push_back(kind + " " + t.definitions.regions.name(e.region) + " " + std::to_string(t.records[i].tick));
  }
  return out;
}

}  // namespace

TEST_CASE("X slices nest: longer first at equal starts, inner first at equal ends, zero-length in place") {
  // File order is end order. At 1 us the longer `a` (to 9) enters before `b` (to 5);
  // at 5 `b` leaves, then the zero-length `z` at 5 enters and leaves inside `a`.
  const ChromeTrace t = read(R"([
    {"ph":"X","name":"b","ts":1,"dur":4,"pid":1,"tid":1},
    {"ph":"X","name":"z","ts":5,"dur":0,"pid":1,"tid":1},
    {"ph":"X","name":"a","ts":1,"dur":8,"pid":1,"tid":1}])");
  CHECK(listing(t) == std::vector<std::string>{"enter a 1000", "enter b 1000", "exit b 5000", "enter z 5000",
                                               "exit z 5000", "exit a 9000"});
}

TEST_CASE("B/E keep file order at equal times; an E closes the innermost open B of its thread") {
  const ChromeTrace t = read(R"([
    {"ph":"B","name":"c","ts":1,"pid":1,"tid":1}, {"ph":"E","ts":1,"pid":1,"tid":1},
    {"ph":"B","name":"d","ts":1,"pid":1,"tid":1}, {"ph":"E","name":"ignored","ts":2,"pid":1,"tid":1}])");
  CHECK(listing(t) == std::vector<std::string>{"enter c 1000", "exit c 1000", "enter d 1000", "exit d 2000"});
}

TEST_CASE("timestamps come from the number's text, exact to the nanosecond") {
  // 1715000000000000.123 us is 1715000000000000123 ns; a double holds it only to 0.25 us.
  // 0.0005 us rounds up to 1 ns, -2.5 us is -2500 ns, 1e3 us (an exponent: the double) 10^6 ns.
  const ChromeTrace t = read(R"([
    {"ph":"i","name":"a","ts":1715000000000000.123,"pid":1,"tid":1},
    {"ph":"i","name":"b","ts":0.0005,"pid":1,"tid":1},
    {"ph":"i","name":"c","ts":-2.5,"pid":1,"tid":1},
    {"ph":"i","name":"d","ts":1e3,"pid":1,"tid":1}])");
  REQUIRE(t.records.size() == 4);
  CHECK(t.records[0].tick == -2500);
  CHECK(t.records[1].tick == 1);
  CHECK(t.records[2].tick == 1000000);
  CHECK(t.records[3].tick == 1715000000000000123);
}

TEST_CASE("a cut after whole events is damage, an error when strict; a missing ] is no damage") {
  const std::string whole = R"([{"ph":"i","name":"a","ts":1,"pid":1,"tid":1})";
  const ChromeTrace unterminated = read(whole + ",");
  CHECK(unterminated.records.size() == 1);
  CHECK(unterminated.unterminated);
  CHECK(unterminated.damages().empty());

  const std::string cut = whole + R"(, {"ph":"i","na)";
  const ChromeTrace damaged = read(cut);
  CHECK(damaged.records.size() == 1);
  REQUIRE(damaged.damages().size() == 1);
  CHECK(damaged.damages()[0].loc == -1);
  CHECK(damaged.damages()[0].record == 2);  // the second element of the array was not read
  CHECK(damaged.damages()[0].message.find("in event 1 from byte 47") != std::string::npos);
  CHECK_THROWS_AS(read(cut, true), EarlError);
  CHECK_THROWS_AS(read(R"([{"ph":"i","na)"), EarlError);  // no whole event before the damage
}

TEST_CASE("bad values are errors naming the event and its byte, not damage") {
  try {
    read(R"([{"ph":"i","ts":0,"pid":1,"tid":1}, {"ph":"X","name":"x","ts":1,"dur":-1,"pid":1,"tid":1}])");
    FAIL("no error");
  } catch (const EarlError& error) {
    CHECK(std::string(error.what()).find("event 1 (byte 36): X event with negative dur") != std::string::npos);
  }
}
#endif
