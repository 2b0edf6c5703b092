#include "format_interface/line_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "format_interface/file_kind.h"
#include "model/error.h"

namespace earl {

namespace {
constexpr std::size_t kBufferSize = 1 << 20;
constexpr std::size_t kScanWindow = 4096;
}

LineReader::LineReader(const std::string& path) : path_(path), buffer_(kBufferSize) {
  refuse_special_file(path);
  fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK);  // a pipe put in its place meanwhile
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

// A line ends at LF, CRLF or a lone CR (classic Mac OS), so every convention reads the
// same. A CR at the end of the buffered bytes may be the first half of a CRLF: the next
// byte is read before the line is handed out.
bool LineReader::next(std::string_view& line) {
  for (;;) {
    const char* begin = buffer_.data() + cursor_;
    std::size_t available = filled_ - cursor_;
    // memchr for both endings in a window (lines are short); beyond it, byte by byte.
    std::size_t window = std::min(available, kScanWindow);
    const void* newline = std::memchr(begin, '\n', window);
    std::size_t length = newline ? static_cast<std::size_t>(static_cast<const char*>(newline) - begin) : window;
    if (const void* cr = std::memchr(begin, '\r', length))
      length = static_cast<std::size_t>(static_cast<const char*>(cr) - begin);
    else if (!newline)
      while (length < available && begin[length] != '\n' && begin[length] != '\r') ++length;
    bool at_end = false;
    if (length == available || (begin[length] == '\r' && length + 1 == available)) {
      if (fill()) continue;  // fill() moved the bytes: look again from the new cursor
      begin = buffer_.data() + cursor_;
      available = filled_ - cursor_;
      if (available == 0) return false;
      at_end = length == available;  // the last line has no line ending
    }
    std::size_t ending = 0;
    if (!at_end) ending = (begin[length] == '\r' && length + 1 < available && begin[length + 1] == '\n') ? 2 : 1;
    cursor_ += length + ending;
    line = std::string_view(begin, length);
    return true;
  }
}

}  // namespace earl
