#pragma once
// A RapidJSON input stream over a file read through zlib, so that gzip-compressed traces
// (.json.gz) and plain ones stream alike in fixed-size pieces: no whole-file load.
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/error.h"

namespace earl {

// Input that cannot be read (a read error, damaged gzip data): damage, not bad JSON.
struct ChromeInputDamage : EarlError {
  using EarlError::EarlError;
};

class ChromeInput {
 public:
  using Ch = char;
  explicit ChromeInput(const std::string& path);  // EarlError when it cannot be opened
  ~ChromeInput();
  ChromeInput(const ChromeInput&) = delete;
  ChromeInput& operator=(const ChromeInput&) = delete;

  Ch Peek() {
    if (at_ == size_) fill();
    return at_ < size_ ? buffer_[at_] : '\0';
  }
  Ch Take() {
    Ch c = Peek();
    if (at_ < size_) {
      ++at_;
      ++offset_;
    }
    return c;
  }
  std::size_t Tell() const { return static_cast<std::size_t>(offset_); }
  // Unused by the reader (an input stream only), required by RapidJSON's concept.
  Ch* PutBegin() { return nullptr; }
  void Put(Ch) {}
  void Flush() {}
  std::size_t PutEnd(Ch*) { return 0; }

  bool at_end() { return Peek() == '\0' && at_ == size_; }

 private:
  void fill();

  std::string path_;
  gzFile file_ = nullptr;
  std::vector<char> buffer_;
  std::size_t size_ = 0, at_ = 0;
  std::uint64_t offset_ = 0;  // bytes taken so far (of the uncompressed text)
  bool eof_ = false;
};

}  // namespace earl
