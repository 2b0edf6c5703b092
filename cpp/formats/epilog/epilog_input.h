#pragma once
// Reading an EPILOG file record by record from a byte offset, through a window buffer (a
// few system calls per 64 KiB, never the whole file in memory), in the file's byte order.
// A gzip-compressed file is read from a decompressed scratch copy; offsets are those of
// the decompressed bytes.
#include <cstdint>
#include <string>
#include <vector>

namespace earl::epilog {

struct RawRecord {
  std::uint64_t offset = 0;  // of the length byte
  std::uint8_t type = 0;
  std::uint8_t length = 0;
  const std::uint8_t* body = nullptr;  // valid until the next read
};

class Input {
 public:
  explicit Input(const std::string& path);  // EarlError: cannot open, not a regular file
  ~Input();
  Input(const Input&) = delete;
  Input& operator=(const Input&) = delete;

  std::uint64_t size() const { return size_; }
  // Reads `count` bytes at `offset` (EarlError naming `what` when the file ends first).
  void read_at(std::uint64_t offset, void* out, std::size_t count, const char* what);
  // The record starting at `offset`; false at the exact end of the file. A record cut
  // short throws EarlError naming its offset.
  bool record_at(std::uint64_t offset, RawRecord& record);
  [[noreturn]] void fail(std::uint64_t offset, const std::string& problem) const;
  const std::string& path() const { return path_; }

 private:
  void fill(std::uint64_t offset);
  void inflate_to_scratch();
  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
  std::vector<std::uint8_t> window_;
  std::uint64_t window_start_ = 0;
  std::size_t window_bytes_ = 0;
};

// Decodes the numbers of one record body in the file's byte order, checking its length.
class Fields {
 public:
  Fields(const RawRecord& record, bool big_endian) : r_(record), big_(big_endian) {}
  std::size_t left() const { return r_.length - at_; }
  bool has(std::size_t bytes) const { return left() >= bytes; }
  std::uint8_t u1();
  std::uint32_t u4();
  std::uint64_t u8();
  double d8();
  void skip(std::size_t bytes);
  // The bytes up to a NUL or the end of the record.
  std::string text();
  const RawRecord& record() const { return r_; }
  bool overrun() const { return overrun_; }

 private:
  const std::uint8_t* take(std::size_t bytes);
  const RawRecord& r_;
  bool big_;
  std::size_t at_ = 0;
  bool overrun_ = false;
};

// Writes numbers into a record body in the chosen byte order (the writer's half).
void put_u4(std::string& out, std::uint32_t v, bool big_endian);
void put_u8(std::string& out, std::uint64_t v, bool big_endian);
void put_d8(std::string& out, double v, bool big_endian);

}  // namespace earl::epilog
