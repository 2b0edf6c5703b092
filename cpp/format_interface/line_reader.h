#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace earl {

// Reads a text file line by line through a large buffer, and can jump to any byte offset.
// A jump inside the buffered range costs nothing, so nearly sorted random reads stay cheap.
class LineReader {
 public:
  explicit LineReader(const std::string& path);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line without its line ending; false at the end of the file.
  bool next(std::string_view& line);
  // Byte offset of the next line next() returns.
  std::uint64_t offset() const { return buffer_start_ + cursor_; }
  void seek(std::uint64_t offset);
  std::uint64_t size() const { return file_size_; }

 private:
  bool fill();  // moves unread bytes to the front and reads more; false if nothing new

  std::string path_;
  int fd_ = -1;
  std::uint64_t file_size_ = 0;
  std::vector<char> buffer_;
  std::uint64_t buffer_start_ = 0;  // file offset of buffer_[0]
  std::size_t cursor_ = 0;          // next unread byte in buffer_
  std::size_t filled_ = 0;          // valid bytes in buffer_
};

}  // namespace earl
