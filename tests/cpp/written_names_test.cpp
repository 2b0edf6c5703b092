// The writers' rule for names (format_interface/written_names.h) and the ALOG writer's
// refusals, checked against the ALOG decoder: every name the writer writes reads back as
// the escaped form worked out by hand here, and the counts say which names changed.
#include <atomic>
#include <filesystem>
#include <string>
#include <unistd.h>

#include <doctest/doctest.h>

#include "format_interface/written_names.h"
#include "formats/alog/alog_decoder.h"
#include "formats/alog/alog_writer.h"

using namespace earl;

namespace {

std::string temp_path() {
  static std::atomic<int> counter{0};
  return (std::filesystem::temp_directory_path() /
          ("earl_written_names_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".alog"))
      .string();
}

}  // namespace

TEST_CASE("the escaped forms, by hand") {
  CHECK(escaped_byte(0x0a) == "\\x0a");
  CHECK(escaped_byte(0xff) == "\\xff");
  CHECK(alog_name("main", true) == "main");
  CHECK(alog_name("a\nb\rc", true) == "a\\x0ab\\x0dc");
  CHECK(alog_name(" x\ty ", false) == "\\x20x\ty\\x20");        // tab inside is kept
  CHECK(alog_name(" \t", true) == "\\x20\\x09");                 // all blank: every byte
  CHECK(alog_name("", true) == "\"\"");
  CHECK(alog_name("", false) == "");
  CHECK(alog_name(std::string("n\0l\x01\xff", 5), true) == std::string("n\0l\x01\xff", 5));
  CHECK(otf2_name(std::string("a\0b", 3)) == "a\\x00b");
  CHECK(otf2_name("") == "");
  CHECK(otf2_name(" \n\r") == " \n\r");
  // OTF: one quoted name per line of text
  CHECK(otf_name(std::string("a\0b\n\"c\r", 7)) == "a\\x00b\\x0a\\x22c\\x0d");
  CHECK(otf_name("") == "");
  CHECK(otf_name(" tab\t 'x' \xff") == " tab\t 'x' \xff");
}

TEST_CASE("ALOG names read back in their escaped form, and the changes are counted") {
  const std::string path = temp_path();
  TraceHeader header;
  header.locations = 3;
  header.location_names = {"rank\n0", "", " padded "};
  const std::string nul_name("nul\0inside", 10);
  for (const std::string& name : {std::string("cr\rlf\n"), std::string(""), std::string("  "), nul_name,
                                  std::string("plain")})
    header.regions.push_back({name, "", ""});
  AlogWriter writer(path, WriterOptions{});
  writer.begin(header);
  WriterEvent enter;
  enter.kind = WriterEventKind::Enter;
  enter.region = 4;
  enter.time = 1;
  writer.write(&enter, 1);
  writer.finish();
  writer.commit();  // staged output: renamed into place
  // regions: "cr\rlf\n", "" and "  " change, NUL and "plain" do not; locations: 0 and 2.
  const auto counts = writer.renamed();
  REQUIRE(counts.size() == 2);
  CHECK(counts[0] == std::make_pair(std::string("region"), std::uint64_t{3}));
  CHECK(counts[1] == std::make_pair(std::string("location"), std::uint64_t{2}));

  AlogDecoder decoder(path);
  const Definitions& defs = decoder.definitions();
  REQUIRE(defs.regions.size() == 5);
  CHECK(defs.regions.name(0) == "cr\\x0dlf\\x0a");
  CHECK(defs.regions.name(1) == "\"\"");
  CHECK(defs.regions.name(2) == "\\x20\\x20");
  CHECK(defs.regions.name(3) == nul_name);
  CHECK(defs.regions.name(4) == "plain");
  CHECK(defs.location_name(0) == "rank\\x0a0");
  CHECK(defs.location_name(1) == "");
  CHECK(defs.location_name(2) == "\\x20padded\\x20");
  std::filesystem::remove(path);
}

TEST_CASE("ALOG refuses messages it cannot hold, and write() fails on them") {
  const std::string path = temp_path();
  TraceHeader header;
  header.locations = 2;
  AlogWriter writer(path, WriterOptions{});
  writer.begin(header);
  WriterEvent e;
  e.kind = WriterEventKind::Recv;
  e.peer = 1;
  e.len = static_cast<std::uint64_t>(INT64_MAX);
  CHECK(writer.refusal(e) == "");                       // 2^63-1: the reader's largest
  e.len += 1;
  CHECK(writer.refusal(e) == "recv of more than 2^63-1 bytes");
  e.len = 8;
  e.peer = -1;
  CHECK(writer.refusal(e) == "recv from an unknown source");
  e.kind = WriterEventKind::Send;
  e.peer = 2;                                           // beyond the -3 count of 2
  CHECK(writer.refusal(e) == "send to an unknown destination");
  CHECK_THROWS_AS(writer.write(&e, 1), EarlError);
  writer.discard();
}
