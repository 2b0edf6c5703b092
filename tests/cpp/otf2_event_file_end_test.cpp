// Where an OTF2 event file really ends (formats/otf2/otf2_event_file_end.h), on event files
// built here byte by byte in libotf2's layout, so that the end of every record is known:
// a file cut at any offset has exactly the records that end before the cut readable.
#ifdef EARL_HAVE_OTF2
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "formats/otf2/otf2_event_file_end.h"

using namespace earl;

namespace {

using Bytes = std::vector<std::uint8_t>;

void put_word(Bytes& out, std::uint64_t value) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

void header(Bytes& out, std::uint64_t first, std::uint64_t last) {
  out.push_back(3);     // chunk header
  out.push_back(0x42);  // little endian
  put_word(out, first);
  put_word(out, last);
}

// Appends records of several shapes; `ends` gets the offset just past each event record.
void records(Bytes& out, int count, std::vector<std::size_t>& ends) {
  for (int i = 0; i < count; ++i) {
    out.push_back(5);  // timestamp
    put_word(out, 1000 + i);
    switch (i % 4) {
      case 0: out.insert(out.end(), {12, 1, 7}); break;                  // Enter, one value
      case 1: out.insert(out.end(), {6, 2, 9, 9, 14, 3, 1, 2, 3}); break;  // attributes, MpiSend
      case 2: out.insert(out.end(), {13, 0xff}); break;                  // Leave, undefined region
      case 3:                                                             // a long record
        out.insert(out.end(), {83, 0xff});
        put_word(out, 300);
        out.insert(out.end(), 300, 0);
        break;
    }
    ends.push_back(out.size());
  }
}

std::string write(const Bytes& bytes, std::size_t size) {
  std::string path = (std::filesystem::temp_directory_path() / "earl_event_file_end_test.evt").string();
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(size));
  return path;
}

std::uint64_t whole_before(const std::vector<std::size_t>& ends, std::size_t cut) {
  std::uint64_t n = 0;
  for (std::size_t end : ends) n += end <= cut;
  return n;
}

}  // namespace

TEST_CASE("one chunk: whole, and cut at every offset") {
  constexpr std::uint64_t kChunk = 1 << 20;
  Bytes file;
  std::vector<std::size_t> ends;
  header(file, 1, 12);
  records(file, 12, ends);
  file.insert(file.end(), {2, 1});  // end of file, end of buffer
  EventFileEnd whole = event_file_end(write(file, file.size()), kChunk);
  CHECK(whole.whole);
  for (std::size_t cut = 0; cut < file.size() - 2; ++cut) {
    EventFileEnd end = event_file_end(write(file, cut), kChunk);
    CAPTURE(cut);
    REQUIRE_FALSE(end.whole);
    CHECK(end.readable == whole_before(ends, cut));
    CHECK(end.why.find("record " + std::to_string(end.readable + 1)) != std::string::npos);
  }
  std::remove(write(file, 0).c_str());
}

TEST_CASE("two chunks: a cut in the second chunk, its header, or at the boundary") {
  constexpr std::size_t kChunk = 512;
  Bytes file;
  std::vector<std::size_t> ends;
  header(file, 1, 4);
  records(file, 4, ends);  // 4 records, one of them long: under 512 bytes
  REQUIRE(file.size() < kChunk);
  file.push_back(0);  // end of chunk
  file.resize(kChunk, 0);
  header(file, 5, 7);
  records(file, 3, ends);  // short ones: the second chunk stays under 512 bytes
  file.insert(file.end(), {2, 1});
  REQUIRE(file.size() < 2 * kChunk);
  CHECK(event_file_end(write(file, file.size()), kChunk).whole);
  for (std::size_t cut : {kChunk, kChunk + 5, kChunk + 18, kChunk + 19, kChunk + 40, file.size() - 3}) {
    EventFileEnd end = event_file_end(write(file, cut), kChunk);
    CAPTURE(cut);
    REQUIRE_FALSE(end.whole);
    CHECK(end.readable == whole_before(ends, cut));
  }
  // Cut exactly at the boundary: the first chunk is whole but ends without the file's end.
  CHECK(event_file_end(write(file, kChunk), kChunk).why.find("chunk boundary") != std::string::npos);
  std::remove(write(file, 0).c_str());
}
#endif
