// The persisted index's parts: the checksum hash, the file (whole or refused), and the
// bookmarks round trip: a RandomAccessTrace restored from saved bookmarks (checkpoints,
// deltas, a widened bdist) answers every event, stack and queue as the one that scanned.
#include <unistd.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "index/index_codec.h"
#include "index/index_file.h"
#include "index/index_hash.h"
#include "memory_decoder.h"
#include "model/error.h"

using namespace earl;
using earl::testing::MemoryDecoder;

namespace {

std::vector<Event> random_events(std::mt19937_64& rng, int locations, int count) {
  std::vector<Event> events;
  std::uniform_int_distribution<int> kind(0, 3), loc(0, locations - 1), tag(0, 2);
  for (int i = 0; i < count; ++i) {
    Event e;
    e.loc = loc(rng);
    e.time = i * 0.25;
    switch (kind(rng)) {
      case 0: e.kind = EventKind::Enter; e.type = kEnterType; e.region = i % 2; break;
      case 1: e.kind = EventKind::Exit; e.type = kExitType; e.region = i % 2; break;
      case 2: e.kind = EventKind::Send; e.type = kSendType; e.peer = loc(rng); e.tag = tag(rng); break;
      default: e.kind = EventKind::Recv; e.type = kRecvType; e.peer = loc(rng); e.tag = tag(rng); break;
    }
    events.push_back(e);
  }
  return events;
}

std::string temporary_directory() {
  char name[] = "/tmp/earl-index-test-XXXXXX";
  REQUIRE(::mkdtemp(name) != nullptr);
  return name;
}

}  // namespace

TEST_CASE("the hash does not depend on how the bytes are split, and sees every byte") {
  std::mt19937_64 rng(5);
  std::string bytes(300, '\0');
  for (char& c : bytes) c = static_cast<char>(rng());
  const std::uint64_t whole = index_hash(bytes.data(), bytes.size());
  for (std::size_t cut = 0; cut <= bytes.size(); cut += 7) {
    IndexHash split;
    split.update(bytes.data(), cut);
    split.update(bytes.data() + cut, bytes.size() - cut);
    CHECK(split.value() == whole);
  }
  for (std::size_t at = 0; at < bytes.size(); ++at) {
    std::string changed = bytes;
    changed[at] ^= 1;
    CHECK(index_hash(changed.data(), changed.size()) != whole);
  }
  CHECK(index_hash(bytes.data(), bytes.size() - 1) != whole);
}

TEST_CASE("restored bookmarks answer as the scan did") {
  for (std::uint64_t memory : {std::uint64_t(1) << 30, std::uint64_t(24) << 10}) {
    std::mt19937_64 rng(memory);
    const int locations = 3;
    std::vector<Event> events = random_events(rng, locations, 3000);
    RandomAccessTrace scanned(std::make_unique<MemoryDecoder>(events, locations), 16, 4, {}, memory);
    IndexWriter out;
    write_scan(out, scanned);
    IndexReader in(out.bytes().data(), out.bytes().size());
    RandomAccessTrace::ScanResult saved = read_scan(in);
    CHECK(in.done());
    RandomAccessTrace restored(std::make_unique<MemoryDecoder>(events, locations), 16, 4, memory,
                               std::move(saved));
    CHECK(restored.size() == scanned.size());
    CHECK(restored.effective_bdist() == scanned.effective_bdist());
    CHECK(restored.bookmark_count() == scanned.bookmark_count());
    CHECK(restored.checkpoint_count() == scanned.checkpoint_count());
    std::uniform_int_distribution<Position> pos(0, scanned.size());
    for (int probe = 0; probe < 400; ++probe) {
      Position p = pos(rng);
      Location loc = static_cast<Location>(p % locations);
      CHECK(restored.stack(loc, p) == scanned.stack(loc, p));
      CHECK(restored.queue(-1, -1, p) == scanned.queue(-1, -1, p));
      if (p == 0) continue;
      Event a = restored.event(p), b = scanned.event(p);
      CHECK(a.enterptr == b.enterptr);
      CHECK(a.sendptr == b.sendptr);
      CHECK(a.loc == b.loc);
    }
    const Problems& a = restored.problems();
    const Problems& b = scanned.problems();
    for (const ProblemName& kind : kProblemNames) {
      CHECK((a.*kind.kind).count == (b.*kind.kind).count);
      CHECK((a.*kind.kind).first == (b.*kind.kind).first);
    }
  }
}

TEST_CASE("saved bookmarks off the grid are refused") {
  std::mt19937_64 rng(9);
  std::vector<Event> events = random_events(rng, 2, 200);
  RandomAccessTrace scanned(std::make_unique<MemoryDecoder>(events, 2), 16, 4);
  IndexWriter out;
  write_scan(out, scanned);
  IndexReader in(out.bytes().data(), out.bytes().size());
  RandomAccessTrace::ScanResult saved = read_scan(in);
  saved.bookmarks[1].next += 1;
  CHECK_THROWS_AS(RandomAccessTrace(std::make_unique<MemoryDecoder>(events, 2), 16, 4,
                                    RandomAccessTrace::kDefaultMemory, std::move(saved)),
                  EarlError);
}

TEST_CASE("an index file is read back whole, and any change of it is refused") {
  const std::string directory = temporary_directory();
  const std::string path = directory + "/t.earlidx";
  const std::string data_path = directory + "/data";
  std::FILE* data = std::fopen(data_path.c_str(), "w+b");
  REQUIRE(data != nullptr);
  const std::string data_bytes = "0123456789abcdef-some-cache-bytes";
  std::fwrite(data_bytes.data(), 1, data_bytes.size(), data);
  std::fflush(data);
  IndexContents contents;
  contents.key = "key";
  contents.payload = "payload bytes";
  contents.data_fd = ::fileno(data);
  contents.data_offset = 4;  // the data starts inside its file, as a restored cache's does
  contents.data_bytes = data_bytes.size() - 4;
  write_index_file(path, contents);
  std::fclose(data);

  IndexContents back;
  REQUIRE(read_index_file(path, back) == "");
  CHECK(back.key == "key");
  CHECK(back.payload == "payload bytes");
  CHECK(back.data_bytes == data_bytes.size() - 4);
  std::string read(back.data_bytes, '\0');
  CHECK(::pread(back.data_fd, &read[0], read.size(), static_cast<off_t>(back.data_offset)) ==
        static_cast<ssize_t>(read.size()));
  CHECK(read == data_bytes.substr(4));
  ::close(back.data_fd);

  std::FILE* in = std::fopen(path.c_str(), "rb");
  std::string good;
  for (int c; (c = std::fgetc(in)) != EOF;) good.push_back(static_cast<char>(c));
  std::fclose(in);
  auto rewrite = [&](const std::string& bytes) {
    std::FILE* out = std::fopen(path.c_str(), "wb");
    std::fwrite(bytes.data(), 1, bytes.size(), out);
    std::fclose(out);
  };
  for (std::size_t at = 0; at < good.size(); ++at) {
    std::string damaged = good;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x5A);
    rewrite(damaged);
    IndexContents refused;
    CHECK(read_index_file(path, refused) != "");
    CHECK(refused.data_fd == -1);
  }
  for (std::size_t length = 0; length < good.size(); ++length) {
    rewrite(good.substr(0, length));
    IndexContents refused;
    CHECK(read_index_file(path, refused) != "");
  }
  ::unlink(path.c_str());
  IndexContents none;
  CHECK(read_index_file(path, none) == "none");
  ::unlink(data_path.c_str());
  ::rmdir(directory.c_str());
}
