#include "formats/epilog/epilog_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

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

std::uint32_t Fields::u4() {
  const std::uint8_t* p = take(4);
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= std::uint32_t(p[big_ ? 3 - i : i]) << (8 * i);
  return v;
}

std::uint64_t Fields::u8() {
  const std::uint8_t* p = take(8);
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= std::uint64_t(p[big_ ? 7 - i : i]) << (8 * i);
  return v;
}

double Fields::d8() {
  std::uint64_t bits = u8();
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

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
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(v >> (8 * (big_endian ? 3 - i : i))));
}

void put_u8(std::string& out, std::uint64_t v, bool big_endian) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>(v >> (8 * (big_endian ? 7 - i : i))));
}

void put_d8(std::string& out, double v, bool big_endian) {
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  put_u8(out, bits, big_endian);
}

}  // namespace earl::epilog
