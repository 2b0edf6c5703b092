// AlogDecoder on small hand-written ALOG files (thesis appendix A, DESIGN.md section 4):
// records, times with clock cycles and roll-over, the header definitions, -101/-102
// messages, errors naming file and line, unsorted input, positions and seeks.
// Every expected value is worked out by hand in the comments next to it.
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <doctest/doctest.h>

#include "formats/alog/alog_decoder.h"
#include "model/error.h"

using namespace earl;

namespace {

// A file in the temporary directory holding `text`, removed again at the end of the test.
class TempAlog {
 public:
  explicit TempAlog(const std::string& text) {
    static std::atomic<int> counter{0};
    path_ = (std::filesystem::temp_directory_path() /
             ("earl_alog_decoder_test_" + std::to_string(::getpid()) + "_" +
              std::to_string(counter++) + ".alog"))
                .string();
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~TempAlog() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Reads to the end, restarting when the decoder asks for it (as RandomAccessTrace does).
std::vector<Event> read_all(AlogDecoder& decoder) {
  return read_from_start(decoder, [&] {
    std::vector<Event> events;
    Event e;
    while (decoder.read(e)) events.push_back(e);
    return events;
  });
}

// The message of the EarlError that `f` throws ("" when it throws none).
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const EarlError& error) {
    return error.what();
  }
  return "";
}

// `message` with the file's name replaced by "FILE", so that expected messages can be
// written out in full.
std::string named_file(std::string message, const std::string& path) {
  std::size_t at;
  while ((at = message.find(path)) != std::string::npos) message.replace(at, path.size(), "FILE");
  return message;
}

// The error of opening `text` and reading all of it strictly (damage is an error).
std::string error_reading(const std::string& text) {
  TempAlog file(text);
  return named_file(error_of([&] {
                      AlogDecoder decoder(file.path(), ReadOptions{true});
                      read_all(decoder);
                    }),
                    file.path());
}

// Definitions: 3 processes, roll-over after 1,000,000 ticks (1 s), type 20 "marker",
// regions "main thing" (enter 1, exit 2; the "red:solid" display prefix is dropped) and
// "work" (enter 3, exit 4; no prefix), a name for location 1, and an ignored -1 record.
const char* const kTrace =
    "-3 0 0 3 0 0\n"
    "-11 0 0 0 0 1000000\n"
    "-1 0 0 0 0 0 creator and date: ignored\n"
    "-9 0 0 20 0 0 marker\n"
    "-13 0 1 2 0 0 red:solid main thing\n"
    "-13 0 3 4 0 0 work\n"
    "-15 1 0 0 0 0 rank one\n"
    "\n"
    "1 0 0 0 0 10\n"           // 1: loc0 enter main thing at 10 us
    "3 1 0 0 0 12\n"           // 2: loc1 enter work at 12 us
    "-101 0 0 1 0 15 7 64\n"   // 3: loc0 send to 1, tag 7, 64 bytes
    "20 1 0 99 0 16 note\n"    // 4: loc1 marker, data1 99
    "-102 1 0 0 0 20 7 64\n"   // 5: loc1 recv from 0
    "4 1 0 0 0 999990\n"       // 6: loc1 exit work at 0.99999 s
    "2 0 0 0 1 5\n"            // 7: loc0 exit at cycle 1: (5 + 1 * 1000000) us
    "1 2 0 0 2 0\n";           // 8: loc2 enter at cycle 2, timestamp 0: 2 s

}  // namespace

TEST_CASE("records, definitions and times of a hand-written file") {
  TempAlog file(kTrace);
  AlogDecoder decoder(file.path());
  CHECK(decoder.format() == "alog");
  CHECK(decoder.file() == file.path());

  const Definitions& d = decoder.definitions();
  CHECK(d.location_count == 3);  // from -3
  CHECK(d.types.names() == std::vector<std::string>{"enter", "exit", "send", "recv", "marker"});
  CHECK(d.regions.names() == std::vector<std::string>{"main thing", "work"});
  CHECK(d.groups.names() == std::vector<std::string>{"All"});
  // Names are kept only as far as the trace gives them (memory follows what is used).
  CHECK(d.location_names.size() == 2);
  CHECK(d.location_name(0) == "");
  CHECK(d.location_name(1) == "rank one");
  CHECK(d.location_name(2) == "");

  std::vector<Event> events = read_all(decoder);
  REQUIRE(events.size() == 8);
  const Event& e1 = events[0];
  CHECK(e1.kind == EventKind::Enter);
  CHECK(e1.type == kEnterType);
  CHECK(e1.region == 0);
  CHECK(e1.loc == 0);
  CHECK(e1.time == 1e-5);  // 10 us; the division by 1e6 rounds to the nearest double
  CHECK(events[1].region == 1);
  CHECK(events[1].loc == 1);
  CHECK(events[1].time == 12e-6);

  const Event& s = events[2];
  CHECK(s.kind == EventKind::Send);
  CHECK(s.type == kSendType);
  CHECK(s.loc == 0);
  CHECK(s.peer == 1);
  CHECK(s.tag == 7);
  CHECK(s.len == 64);
  CHECK(s.com == -1);  // ALOG has no communicators
  CHECK(s.time == 15e-6);

  const Event& m = events[3];
  CHECK(m.kind == EventKind::Other);
  CHECK(m.type == 4);  // "marker", the first trace-defined type
  REQUIRE(m.data1.kind == Value::Kind::Int);
  CHECK(m.data1.integer == 99);
  CHECK(m.data2.kind == Value::Kind::None);
  CHECK(m.peer == -1);

  const Event& r = events[4];
  CHECK(r.kind == EventKind::Recv);
  CHECK(r.type == kRecvType);
  CHECK(r.loc == 1);
  CHECK(r.peer == 0);
  CHECK(r.tag == 7);
  CHECK(r.len == 64);
  CHECK(r.sendptr == 0);  // the state matches it, not the decoder

  CHECK(events[5].kind == EventKind::Exit);
  CHECK(events[5].region == 1);
  CHECK(events[5].time == 0.99999);
  CHECK(events[6].kind == EventKind::Exit);
  CHECK(events[6].region == 0);
  CHECK(events[6].time == 1.000005);  // (5 + 1 * 1000000) / 1e6
  CHECK(events[7].time == 2.0);       // (0 + 2 * 1000000) / 1e6
  CHECK(events[7].loc == 2);
  CHECK(decoder.progress() == 1.0);
}

TEST_CASE("definitions: -13 wins over -9 for one number; prefixes; locations from events") {
  TempAlog file(
      "-9 0 0 5 0 0 looks like a type\n"
      "-9 0 0 8 0 0 late\n"
      "-9 0 0 7 0 0 early\n"
      "-13 0 5 6 0 0 blue:dots\n"  // only a display-like token: it is the name
      "-13 0 9 10 0 0 x:y  spaced   name \n"
      "8 4 0 -3 0 1\n"
      "7 0 0 0 0 2\n"
      "5 0 0 0 0 3\n"
      "10 0 0 0 0 4\n");
  AlogDecoder decoder(file.path());
  const Definitions& d = decoder.definitions();
  // Types in order of their -9 records; 5 became a region enter and is no type.
  CHECK(d.types.names() == std::vector<std::string>{"enter", "exit", "send", "recv", "late", "early"});
  // "x:y  spaced   name ": the prefix goes, inner spaces stay, the ends are trimmed.
  CHECK(d.regions.names() == std::vector<std::string>{"blue:dots", "spaced   name"});
  std::vector<Event> events = read_all(decoder);
  REQUIRE(events.size() == 4);
  CHECK(events[0].type == 4);  // late
  CHECK(events[0].loc == 4);
  CHECK(events[0].data1.integer == -3);
  CHECK(events[1].type == 5);  // early
  CHECK(events[2].kind == EventKind::Enter);
  CHECK(events[2].region == 0);
  CHECK(events[3].kind == EventKind::Exit);
  CHECK(events[3].region == 1);
  // Without -3 the locations are those the events name: 0..4.
  CHECK(d.location_count == 5);
}

TEST_CASE("unsorted input is ordered by time, stably") {
  // Times 30 10 20 10 25: sorted 10 (line 3) 10 (line 5) 20 25 30; the two at 10 keep
  // their file order.
  TempAlog file(
      "-13 0 1 2 0 0 c:p main\n"
      "1 0 0 0 0 30\n"  // line 2
      "1 1 0 0 0 10\n"  // line 3
      "1 0 0 0 0 20\n"  // line 4
      "1 2 0 0 0 10\n"  // line 5
      "2 2 0 0 0 25\n");
  AlogDecoder decoder(file.path());
  // The first pass meets 10 after 30 and asks for a restart.
  Event e;
  decoder.seek(decoder.start_position());
  REQUIRE(decoder.read(e));
  CHECK(e.time == 30e-6);
  CHECK_THROWS_AS(decoder.read(e), DecoderRestart);

  std::vector<Event> events = read_all(decoder);
  REQUIRE(events.size() == 5);
  std::vector<Location> locs;
  std::vector<double> times;
  for (const Event& ev : events) {
    locs.push_back(ev.loc);
    times.push_back(ev.time);
  }
  CHECK(locs == std::vector<Location>{1, 2, 0, 2, 0});
  CHECK(times == std::vector<double>{10e-6, 10e-6, 20e-6, 25e-6, 30e-6});
  CHECK(decoder.progress() == 1.0);
}

TEST_CASE("positions round-trip, in file order and in sorted order") {
  const std::string in_order =
      "-13 0 1 2 0 0 c:p main\n"
      "1 0 0 0 0 1\n1 1 0 0 0 2\n\n2 1 0 0 0 3\n-101 0 0 1 0 4 1 8\n2 0 0 0 0 5\n"
      "-102 1 0 0 0 6 1 8\n";
  // The same records with the last two swapped in time: the decoder sorts.
  const std::string unsorted =
      "-13 0 1 2 0 0 c:p main\n"
      "1 0 0 0 0 1\n1 1 0 0 0 2\n\n2 1 0 0 0 3\n-101 0 0 1 0 4 1 8\n2 0 0 0 0 7\n"
      "-102 1 0 0 0 6 1 8\n";
  for (const std::string& text : {in_order, unsorted}) {
    CAPTURE(text);
    TempAlog file(text);
    AlogDecoder decoder(file.path());
    std::vector<Event> events = read_all(decoder);
    REQUIRE(events.size() == 6);
    // Positions taken before each event and at the end.
    std::vector<DecoderPosition> before;
    decoder.seek(decoder.start_position());
    Event e;
    for (std::size_t i = 0; i <= events.size(); ++i) {
      before.push_back(decoder.position());
      if (i < events.size()) REQUIRE(decoder.read(e));
    }
    CHECK_FALSE(decoder.read(e));
    // Seek back and forth: each position continues with the same event, in any order.
    for (std::size_t i : {5u, 0u, 3u, 6u, 1u, 4u, 2u}) {
      CAPTURE(i);
      decoder.seek(before[i]);
      if (i == events.size()) {
        CHECK_FALSE(decoder.read(e));
        continue;
      }
      REQUIRE(decoder.read(e));
      CHECK(e.time == events[i].time);
      CHECK(e.loc == events[i].loc);
      CHECK(e.kind == events[i].kind);
    }
    DecoderPosition broken = before[1];
    broken.words.push_back(0);
    CHECK_THROWS_AS(decoder.seek(broken), EarlError);
    DecoderPosition beyond = before[1];
    beyond.words[0] = 1u << 30;
    CHECK_THROWS_AS(decoder.seek(beyond), EarlError);
  }
}

TEST_CASE("errors name the file, the line and the problem") {
  // Line 3 (the blank line counts) has a non-integer data field.
  CHECK(error_reading("-13 0 1 2 0 0 main\n\n1 0 0 zz 0 5\n") ==
        "FILE: line 3: field data is not an integer: 'zz'");

  CHECK(error_reading("-13 0 1 2 0 0 main\n1 0 0 0 5\n") ==
        "FILE: line 2: truncated record: 5 of the 6 fields 'type process task data cycle timestamp'");
  CHECK(error_reading("-13 0 1 2 0 0 main\n1 0 0 0 0 5\n7 0 0 0 0 6\n") ==
        "FILE: line 3: event type 7 is not defined in the header");
  CHECK(error_reading("-3 0 0 2 0 0\n-13 0 1 2 0 0 main\n1 2 0 0 0 5\n") ==
        "FILE: line 3: process 2 is outside the 2 processes declared by the -3 record");
  CHECK(error_reading("-13 0 1 2 0 0 main\n1 -1 0 0 0 5\n") ==
        "FILE: line 2: process -1 is negative");
  CHECK(error_reading("-13 0 1 2 0 0 main\n1 0 0 0 1 5\n") ==
        "FILE: line 2: cycle 1 without a -11 roll-over record");
  // cycle * roll-over point past 2^63 (2^47 * 2^16), and the sum with the timestamp
  // (2^62 + 2^62): found by fuzz/alog_decoder_fuzzer.cpp, a signed overflow before.
  CHECK(error_reading("-11 0 0 0 0 65536\n-13 0 1 2 0 0 main\n1 0 0 0 140737488355328 5\n") ==
        "FILE: line 3: cycle 140737488355328 of the roll-over point 65536 puts the timestamp 5 beyond 2^63 "
        "microseconds");
  CHECK(error_reading("-11 0 0 0 0 4611686018427387904\n-13 0 1 2 0 0 main\n1 0 0 0 1 4611686018427387904\n") ==
        "FILE: line 3: cycle 1 of the roll-over point 4611686018427387904 puts the timestamp "
        "4611686018427387904 beyond 2^63 microseconds");
  CHECK(error_reading("-13 0 1 2 0 0 main\n1 0 0 0 0 5\n-9 0 0 7 0 0 late\n") ==
        "FILE: line 3: definition record -9 after the first event record (definitions must come first)");
  CHECK(error_reading("-101 0 0 1 0 5 7\n") ==
        "FILE: line 1: send record needs 'tag len' as its comment, got '7'");
  CHECK(error_reading("-102 0 0 1 0 5 7 -8\n") ==
        "FILE: line 1: negative message length -8");
  CHECK(error_reading("-101 0 0 -4 0 5 7 8\n") ==
        "FILE: line 1: destination -4 is negative");
  CHECK(error_reading("-11 0 0 0 0 0\n") == "FILE: line 1: roll-over point must be positive");
  CHECK(error_reading("-3 0 0 -2 0 0\n") == "FILE: line 1: negative process count -2");
  CHECK(error_reading("-9 0 0 4 0 0\n") == "FILE: line 1: type definition without a name");
  CHECK(error_reading("-13 0 1 2 0 0\n") == "FILE: line 1: region definition without a name");
  CHECK(error_reading("\n  \n") == "FILE: no ALOG records in the file");

  // In an unsorted file the bad line is found while sorting and still named by its line.
  CHECK(error_reading("-13 0 1 2 0 0 main\n1 0 0 0 0 9\n1 0 0 0 0 5\n9 0 0 0 0 7\n") ==
        "FILE: line 4: event type 9 is not defined in the header");

  // After a seek the line numbers continue from the position: line 4 is bad.
  {
    TempAlog file("-13 0 1 2 0 0 main\n1 0 0 0 0 1\n1 0 0 0 0 2\n1 0 0 0 x 3\n");
    AlogDecoder decoder(file.path(), ReadOptions{true});
    Event e;
    decoder.seek(decoder.start_position());
    REQUIRE(decoder.read(e));
    DecoderPosition second = decoder.position();
    REQUIRE(decoder.read(e));
    const std::string expected = file.path() + ": line 4: field cycle is not an integer: 'x'";
    CHECK(error_of([&] { decoder.read(e); }) == expected);
    decoder.seek(second);
    REQUIRE(decoder.read(e));
    CHECK(error_of([&] { decoder.read(e); }) == expected);
  }

  // A file that does not exist is named too.
  std::string message = error_of([] { AlogDecoder decoder("/nonexistent/earl/x.alog"); });
  CHECK(message.find("/nonexistent/earl/x.alog") != std::string::npos);
}

TEST_CASE("content sniffing") {
  CHECK(AlogDecoder::looks_like("-3 0 0 2 0 0\n1 0 0 0 0 5\n"));
  CHECK(AlogDecoder::looks_like("\n   \n1 0 0 0 0 5 comment\n"));  // blank lines first
  CHECK(AlogDecoder::looks_like("+1 0 0 0 0 5"));                  // no newline at the end
  CHECK_FALSE(AlogDecoder::looks_like("1 0 0 0 5\n"));             // five fields
  CHECK_FALSE(AlogDecoder::looks_like("1 0 0 x 0 5\n"));
  CHECK_FALSE(AlogDecoder::looks_like("OTF2 anchor\n"));
  CHECK_FALSE(AlogDecoder::looks_like(""));
  CHECK_FALSE(AlogDecoder::looks_like("\n\n"));
}

// Damage (docs/formats.md#damaged-alog-files): by default the file ends at the first line
// after the first event record that cannot be read.
namespace {

struct DamagedReading {
  std::vector<Event> events;
  std::vector<StreamDamage> damage;
  Location locations = 0;
};

DamagedReading read_damaged(const std::string& text) {
  TempAlog file(text);
  AlogDecoder decoder(file.path());
  DamagedReading reading;
  reading.events = read_all(decoder);
  reading.damage = decoder.damage();
  for (StreamDamage& entry : reading.damage) entry.message = named_file(entry.message, file.path());
  reading.locations = decoder.definitions().location_count;
  return reading;
}

const char* const kFields = "6 fields 'type process task data cycle timestamp'";

}  // namespace

TEST_CASE("damage: a cut last line ends the file, named once for every location") {
  // Line 5 is cut after its third field; lines 2 to 4 are the three events read.
  const std::string text = "-13 0 1 2 0 0 main\n1 0 0 0 0 1\n1 1 0 0 0 2\n2 1 0 0 0 3\n1 0 0";
  DamagedReading reading = read_damaged(text);
  REQUIRE(reading.events.size() == 3);
  CHECK(reading.events[2].loc == 1);
  CHECK(reading.events[2].time == 3e-6);
  REQUIRE(reading.damage.size() == 1);
  const StreamDamage& entry = reading.damage[0];
  CHECK(entry.loc == -1);      // the whole file: every location
  CHECK(entry.record == 4);    // the fourth event record was not read
  CHECK(entry.announced == 0); // ALOG announces no counts
  CHECK(entry.message == std::string("FILE: line 5: truncated record: 3 of the ") + kFields +
                             "; the 3 event records before it were read, line 5, the file's last, was not");
  // Strict reading: the same first part, as an error.
  CHECK(error_reading(text) == std::string("FILE: line 5: truncated record: 3 of the ") + kFields);
}

TEST_CASE("damage: lines after a damaged line are not read, and counted") {
  // Line 3 has a non-integer cycle; lines 3 to 6 (a blank one among them) are lost.
  DamagedReading reading = read_damaged("-13 0 1 2 0 0 main\n1 0 0 0 0 1\n1 0 0 0 x 2\n2 0 0 0 0 3\n\n2 0 0 0 0 4\n");
  REQUIRE(reading.events.size() == 1);
  REQUIRE(reading.damage.size() == 1);
  CHECK(reading.damage[0].record == 2);
  CHECK(reading.damage[0].message ==
        "FILE: line 3: field cycle is not an integer: 'x'; the event record before it was read, lines 3 to 6 "
        "(4 of the file's 6) were not");
}

TEST_CASE("damage: bytes that are not text, shown escaped") {
  // A crash left four zero bytes where line 3 was being written: its end never was.
  DamagedReading reading = read_damaged("-13 0 1 2 0 0 main\n1 0 0 0 0 1\n1 0 0 0 0 2" + std::string(4, '\0'));
  CHECK(reading.events.size() == 1);
  REQUIRE(reading.damage.size() == 1);
  CHECK(reading.damage[0].message ==
        "FILE: line 3: bytes that are not text (byte 12 of the line is \\x00); the event record before it was "
        "read, line 3, the file's last, was not");
  // A field of control bytes in the header is shown escaped too (an error: the header).
  CHECK(error_reading(std::string("-13 0 1 2 \x01\x7f 0 main\n")) == "FILE: line 1: field cycle is not an integer: '\\x01\\x7f'");
  // A long token is cut at 40 bytes.
  CHECK(error_reading("-13 0 1 2 0 0 main\n1 0 0 0 0 " + std::string(50, '7') + "y\n") ==
        "FILE: line 2: field timestamp is not an integer: '" + std::string(40, '7') + "...'");
}

TEST_CASE("damage: a damaged line adds no location") {
  // Line 3's send comes from process 5 to process 7 but lacks its length: neither location
  // is the trace's. Before the damage only location 0 was seen.
  DamagedReading reading = read_damaged("-13 0 1 2 0 0 main\n1 0 0 0 0 1\n-101 5 0 7 0 2 1\n");
  CHECK(reading.events.size() == 1);
  CHECK(reading.locations == 1);
  REQUIRE(reading.damage.size() == 1);
  CHECK(reading.damage[0].message.rfind("FILE: line 3: send record needs 'tag len' as its comment, got '1'; ", 0) == 0);
}

TEST_CASE("damage: the header and the first event record stay errors") {
  // A bad header line, and a bad first event record: nothing shows the file is ALOG.
  for (const std::string& text : {std::string("-13 0 1 2 0 0 main\n-9 0 0\n1 0 0 0 0 1\n"),
                                  std::string("-13 0 1 2 0 0 main\n7 0 0 0 0 1\n1 0 0 0 0 2\n"),
                                  std::string("1 2 3 4 5 6\n7 8 9 10 11 12\n")}) {
    CAPTURE(text);
    TempAlog file(text);
    CHECK_FALSE(error_of([&] {
                  AlogDecoder decoder(file.path());
                  read_all(decoder);
                }).empty());
  }
}

TEST_CASE("damage: unsorted lines before the damage are sorted, seeks never pass it") {
  // Times 5 3 4 before the damaged line 5: read as 3 4 5.
  TempAlog file("-13 0 1 2 0 0 main\n1 0 0 0 0 5\n1 1 0 0 0 3\n1 2 0 0 0 4\nnot a record\n1 3 0 0 0 1\n");
  AlogDecoder decoder(file.path());
  std::vector<Event> events = read_all(decoder);
  REQUIRE(events.size() == 3);
  CHECK(events[0].loc == 1);
  CHECK(events[1].loc == 2);
  CHECK(events[2].loc == 0);
  CHECK(decoder.definitions().location_count == 3);
  REQUIRE(decoder.damage().size() == 1);
  CHECK(decoder.damage()[0].record == 4);
  // Read again from the start and from a position: the same, and the damage noted once.
  CHECK(read_all(decoder).size() == 3);
  CHECK(decoder.damage().size() == 1);
}

TEST_CASE("damage: in file order, positions before and at the damage read the same again") {
  TempAlog file("-13 0 1 2 0 0 main\n1 0 0 0 0 1\n1 1 0 0 0 2\n2 1 0 0 0 3\n1 0 0 0 0 4 5\n1 0 0 0 1");
  AlogDecoder decoder(file.path());
  decoder.seek(decoder.start_position());
  std::vector<DecoderPosition> before;
  std::vector<double> times;
  Event e;
  for (;;) {
    before.push_back(decoder.position());
    if (!decoder.read(e)) break;
    times.push_back(e.time);
  }
  REQUIRE(times == std::vector<double>{1e-6, 2e-6, 3e-6, 4e-6});
  REQUIRE(decoder.damage().size() == 1);
  CHECK(decoder.damage()[0].record == 5);  // line 6, "1 0 0 0 1", is cut: 5 of the 6 fields
  for (std::size_t i : {4u, 2u, 0u, 3u, 4u, 1u}) {
    CAPTURE(i);
    decoder.seek(before[i]);
    if (i == 4) {
      CHECK_FALSE(decoder.read(e));  // at the damage: the end, again
      continue;
    }
    REQUIRE(decoder.read(e));
    CHECK(e.time == times[i]);
  }
  CHECK(decoder.damage().size() == 1);
  CHECK(decoder.damage()[0].record == 5);  // lines read again are not counted again
}
