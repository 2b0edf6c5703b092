#include "formats/alog/line_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "model/error.h"

namespace earl {

namespace {
constexpr std::size_t kBufferSize = 1 << 20;
}

LineReader::LineReader(const std::string& path) : path_(path), buffer_(kBufferSize) {
  fd_ = ::open(path.c_str(), O_RDONLY);
  if (fd_ < 0) throw EarlError(path + ": cannot open: " + std::strerror(errno));
  struct stat info;
  if (::fstat(fd_, &info) != 0 || S_ISDIR(info.st_mode)) {
    ::close(fd_);
    throw EarlError(path + ": not a regular file");
  }
  file_size_ = static_cast<std::uint64_t>(info.st_size);
}

LineReader::~LineReader() {
  if (fd_ >= 0) ::close(fd_);
}

void LineReader::seek(std::uint64_t offset) {
  if (offset >= buffer_start_ && offset <= buffer_start_ + filled_) {
    cursor_ = static_cast<std::size_t>(offset - buffer_start_);
    return;
  }
  buffer_start_ = offset;
  cursor_ = 0;
  filled_ = 0;
}

bool LineReader::fill() {
  if (cursor_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + cursor_, filled_ - cursor_);
    buffer_start_ += cursor_;
    filled_ -= cursor_;
    cursor_ = 0;
  }
  if (filled_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);  // a very long line
  ssize_t got = ::pread(fd_, buffer_.data() + filled_, buffer_.size() - filled_,
                        static_cast<off_t>(buffer_start_ + filled_));
  if (got < 0) throw EarlError(path_ + ": read error: " + std::strerror(errno));
  filled_ += static_cast<std::size_t>(got);
  return got > 0;
}

bool LineReader::next(std::string_view& line) {
  for (;;) {
    const char* begin = buffer_.data() + cursor_;
    std::size_t available = filled_ - cursor_;
    const void* newline = std::memchr(begin, '\n', available);
    if (newline) {
      std::size_t length = static_cast<const char*>(newline) - begin;
      cursor_ += length + 1;
      if (length > 0 && begin[length - 1] == '\r') --length;
      line = std::string_view(begin, length);
      return true;
    }
    if (!fill()) {
      if (filled_ == cursor_) return false;
      // The last line has no line ending.
      begin = buffer_.data() + cursor_;
      std::size_t length = filled_ - cursor_;
      cursor_ = filled_;
      if (length > 0 && begin[length - 1] == '\r') --length;
      line = std::string_view(begin, length);
      return true;
    }
  }
}

}  // namespace earl
