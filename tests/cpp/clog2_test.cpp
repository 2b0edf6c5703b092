// CLOG2 (formats/clog2): fixed-width numbers in both byte orders, the preamble's strings,
// and the writer's file read back by the decoder with its byte-offset seeks. Expected values
// are worked out by hand in the comments next to them.
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

#include <doctest/doctest.h>

#include "formats/clog2/clog2_decoder.h"
#include "formats/clog2/clog2_layout.h"
#include "formats/clog2/clog2_preamble.h"
#include "formats/clog2/clog2_writer.h"
#include "model/error.h"

using namespace earl;

namespace {

std::string temp_path() {
  static std::atomic<int> counter{0};
  return (std::filesystem::temp_directory_path() /
          ("earl_clog2_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".clog2"))
      .string();
}

}  // namespace

TEST_CASE("numbers in both byte orders") {
  const unsigned char big[4] = {0x00, 0x00, 0x01, 0x02};     // 0x0102 = 258
  const unsigned char little[4] = {0x02, 0x01, 0x00, 0x00};
  CHECK(clog2::load_i32(big, true) == 258);
  CHECK(clog2::load_i32(little, false) == 258);
  const unsigned char minus_one[4] = {0xff, 0xff, 0xff, 0xff};
  CHECK(clog2::load_i32(minus_one, true) == -1);
  // 1.5 = sign 0, exponent 0x3ff, fraction .1b: 0x3FF8000000000000
  const unsigned char one_and_half_big[8] = {0x3f, 0xf8, 0, 0, 0, 0, 0, 0};
  const unsigned char one_and_half_little[8] = {0, 0, 0, 0, 0, 0, 0xf8, 0x3f};
  CHECK(load_f64(one_and_half_big, true) == 1.5);
  CHECK(load_f64(one_and_half_little, false) == 1.5);
  unsigned char out[8];
  clog2::store_f64(out, 1.5);
  CHECK(std::string(reinterpret_cast<char*>(out), 8) == std::string(reinterpret_cast<const char*>(one_and_half_big), 8));
}

TEST_CASE("preamble strings") {
  using namespace std::string_literals;
  std::string text = "CLOG-02.44\0is_big_endian=\0FALSE\0block_size=\0" "256\0max_thread_count=\0"
                     "2\0commtable_fptr=\0001\0001073741824\0005\0"s;
  text.resize(clog2::kPreambleSize, '\0');
  const clog2::Preamble p = clog2::parse_preamble(text, "x");
  CHECK(p.version == "CLOG-02.44");
  CHECK_FALSE(p.big_endian);
  CHECK(p.block_size == 256);
  CHECK(p.thread_count == 2);
  CHECK(p.commtable_offset == (std::uint64_t(1) << 30) + 5);
  // What the writer formats reads back.
  clog2::Preamble q;
  q.version = "CLOG-02.44";
  q.block_size = 65536;
  q.world_size = 3;
  q.commtable_offset = 5 * (std::uint64_t(1) << 30) + 7;
  const clog2::Preamble r = clog2::parse_preamble(clog2::format_preamble(q), "y");
  CHECK(r.big_endian);
  CHECK(r.world_size == 3);
  CHECK(r.commtable_offset == q.commtable_offset);
  CHECK_THROWS_AS(clog2::parse_preamble(std::string(100, 'C'), "z"), EarlError);
  CHECK_THROWS_AS(clog2::parse_preamble(std::string(clog2::kPreambleSize, '\0'), "z"), EarlError);
}

TEST_CASE("the writer's file reads back, and every saved position seeks to the same event") {
  const std::string path = temp_path();
  {
    Clog2Writer writer(path, WriterOptions{});
    TraceHeader header;
    header.locations = 2;
    header.regions = {RegionDef{"work", "green:boxes", ""}};
    writer.begin(header);
    std::vector<WriterEvent> events(4);
    events[0].kind = WriterEventKind::Enter, events[0].region = 0, events[0].time = 10;
    events[1].kind = WriterEventKind::Send, events[1].peer = 1, events[1].tag = 5, events[1].len = 32,
    events[1].time = 20;
    events[2].kind = WriterEventKind::Recv, events[2].loc = 1, events[2].peer = 0, events[2].tag = 5,
    events[2].len = 32, events[2].time = 30;
    events[3].kind = WriterEventKind::Exit, events[3].region = 0, events[3].time = 40;
    writer.write(events.data(), events.size());
    writer.finish();
    writer.commit();
  }
  Clog2Decoder decoder(path);
  CHECK(decoder.definitions().location_count == 2);
  CHECK(decoder.definitions().regions.name(0) == "work");
  std::vector<DecoderPosition> positions;
  std::vector<Event> read;
  Event e;
  positions.push_back(decoder.position());
  while (decoder.read(e)) {
    read.push_back(e);
    positions.push_back(decoder.position());
  }
  REQUIRE(read.size() == 4);
  CHECK(read[0].kind == EventKind::Enter);
  CHECK(read[0].time == 10 / 1e6);
  CHECK(read[1].kind == EventKind::Send);
  CHECK(read[1].peer == 1);
  CHECK(read[1].tag == 5);
  CHECK(read[1].len == 32);
  CHECK(read[1].com == 0);
  CHECK(read[2].loc == 1);
  CHECK(read[2].peer == 0);
  CHECK(read[3].kind == EventKind::Exit);
  for (std::size_t i = read.size(); i-- > 0;) {
    decoder.seek(positions[i]);
    REQUIRE(decoder.read(e));
    CHECK(e.time == read[i].time);
    CHECK(e.kind == read[i].kind);
    CHECK(e.loc == read[i].loc);
  }
  decoder.seek(positions.back());  // at the end-of-log record
  CHECK_FALSE(decoder.read(e));
  CHECK_THROWS_AS(decoder.seek(DecoderPosition{{3}}), EarlError);
  std::remove(path.c_str());
}
