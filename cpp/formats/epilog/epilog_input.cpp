#include "formats/epilog/epilog_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "format_interface/byte_order.h"
#include "model/error.h"

namespace earl::epilog {

namespace {
constexpr std::size_t kWindow = 1 << 16;  // more than one record (at most 257 bytes)
}

Input::Input(const std::string& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd_ < 0) throw EarlError("cannot open EPILOG file '" + path + "': " + std::strerror(errno));
  struct stat st;
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd_);
    fd_ = -1;
    throw EarlError("EPILOG file '" + path + "' is not a regular file");
  }
  size_ = static_cast<std::uint64_t>(st.st_size);
  window_.resize(kWindow);
  unsigned char magic[2] = {0, 0};
  if (size_ >= 2 && ::pread(fd_, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
    try {
      inflate_to_scratch();
    } catch (...) {
      ::close(fd_);
      fd_ = -1;
      throw;
    }
  }
}

void Input::inflate_to_scratch() {
  // EPILOG's library reads files through zlib, so a trace may be gzip-compressed. Seeks in
  // a gzip stream restart from its beginning: the decompressed bytes go to an unnamed
  // scratch file instead (disk, not memory), which then serves every read.
  const char* dir = std::getenv("TMPDIR");
  int scratch = ::open(dir && *dir ? dir : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (scratch < 0)
    throw EarlError("EPILOG file '" + path_ + "' is compressed and no scratch file can be made: " +
                    std::strerror(errno));
  int copy = ::dup(fd_);
  gzFile gz = copy < 0 ? nullptr : gzdopen(copy, "rb");
  if (!gz) {
    if (copy >= 0) ::close(copy);
    ::close(scratch);
    throw EarlError("EPILOG file '" + path_ + "': cannot start decompressing it");
  }
  std::uint64_t total = 0;
  std::string problem;
  for (;;) {
    int got = gzread(gz, window_.data(), static_cast<unsigned>(window_.size()));
    if (got < 0) {
      int code = 0;
      problem = gzerror(gz, &code);
      break;
    }
    if (got == 0) {
      int code = 0;
      const char* message = gzerror(gz, &code);
      if (code != Z_OK) problem = message;
      break;
    }
    std::size_t done = 0;
    while (done < static_cast<std::size_t>(got)) {
      ssize_t put = ::pwrite(scratch, window_.data() + done, got - done, static_cast<off_t>(total + done));
      if (put < 0 && errno == EINTR) continue;
      if (put <= 0) {
        problem = std::string("cannot write the decompressed copy: ") + std::strerror(errno);
        break;
      }
      done += static_cast<std::size_t>(put);
    }
    if (!problem.empty()) break;
    total += static_cast<std::uint64_t>(got);
  }
  gzclose(gz);
  if (!problem.empty()) {
    ::close(scratch);
    throw EarlError("EPILOG file '" + path_ + "': damaged gzip compression (" + problem + ")");
  }
  ::close(fd_);
  fd_ = scratch;
  size_ = total;
}

Input::~Input() {
  if (fd_ >= 0) ::close(fd_);
}

void Input::fail(std::uint64_t offset, const std::string& problem) const {
  throw EarlError("EPILOG file '" + path_ + "', record at byte " + std::to_string(offset) + ": " +
                  problem);
}

void Input::fill(std::uint64_t offset) {
  window_start_ = offset;
  window_bytes_ = 0;
  while (window_bytes_ < kWindow) {
    ssize_t got = ::pread(fd_, window_.data() + window_bytes_, kWindow - window_bytes_,
                          static_cast<off_t>(offset + window_bytes_));
    if (got < 0) {
      if (errno == EINTR) continue;
      fail(offset, std::string("cannot read: ") + std::strerror(errno));
    }
    if (got == 0) break;
    window_bytes_ += static_cast<std::size_t>(got);
  }
}

void Input::read_at(std::uint64_t offset, void* out, std::size_t count, const char* what) {
  if (offset < window_start_ || offset + count > window_start_ + window_bytes_) fill(offset);
  if (offset + count > window_start_ + window_bytes_)
    throw EarlError("EPILOG file '" + path_ + "': " + what + " cut short (file ends at byte " +
                    std::to_string(window_start_ + window_bytes_) + ")");
  std::memcpy(out, window_.data() + (offset - window_start_), count);
}

bool Input::record_at(std::uint64_t offset, RawRecord& record) {
  if (offset < window_start_ || offset + 257 > window_start_ + window_bytes_) fill(offset);
  const std::uint64_t end = window_start_ + window_bytes_;
  if (offset >= end) return false;
  if (offset + 2 > end) fail(offset, "cut short in its record header (1 of 2 bytes)");
  const std::uint8_t* at = window_.data() + (offset - window_start_);
  record.offset = offset;
  record.length = at[0];
  record.type = at[1];
  if (offset + 2 + record.length > end)
    fail(offset, "cut short: type " + std::to_string(record.type) + " announces " +
                     std::to_string(record.length) + " body bytes, the file holds " +
                     std::to_string(end - offset - 2));
  record.body = at + 2;
  return true;
}

const std::uint8_t* Fields::take(std::size_t bytes) {
  if (left() < bytes) {
    overrun_ = true;
    static const std::uint8_t zeros[8] = {};
    at_ = r_.length;
    return zeros;
  }
  const std::uint8_t* p = r_.body + at_;
  at_ += bytes;
  return p;
}

std::uint8_t Fields::u1() { return *take(1); }

std::uint32_t Fields::u4() { return load_uint<std::uint32_t>(take(4), big_); }

std::uint64_t Fields::u8() { return load_uint<std::uint64_t>(take(8), big_); }

double Fields::d8() { return load_f64(take(8), big_); }

void Fields::skip(std::size_t bytes) { take(bytes); }

std::string Fields::text() {
  const std::uint8_t* p = r_.body + at_;
  std::size_t n = 0;
  while (at_ + n < r_.length && p[n] != 0) ++n;
  std::string s(reinterpret_cast<const char*>(p), n);
  at_ = r_.length;
  return s;
}

void put_u4(std::string& out, std::uint32_t v, bool big_endian) {
  unsigned char bytes[4];
  store_uint(bytes, v, big_endian);
  out.append(reinterpret_cast<const char*>(bytes), sizeof bytes);
}

void put_u8(std::string& out, std::uint64_t v, bool big_endian) {
  unsigned char bytes[8];
  store_uint(bytes, v, big_endian);
  out.append(reinterpret_cast<const char*>(bytes), sizeof bytes);
}

void put_d8(std::string& out, double v, bool big_endian) {
  unsigned char bytes[8];
  store_f64(bytes, v, big_endian);
  out.append(reinterpret_cast<const char*>(bytes), sizeof bytes);
}

}  // namespace earl::epilog
