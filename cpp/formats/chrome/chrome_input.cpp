#include "formats/chrome/chrome_input.h"

#include <cerrno>
#include <cstring>

#include "model/error.h"

namespace earl {

namespace {
constexpr std::size_t kPiece = 1 << 16;
}

ChromeInput::ChromeInput(const std::string& path) : path_(path), buffer_(kPiece) {
  file_ = gzopen(path.c_str(), "rb");
  if (!file_) throw EarlError(path + ": cannot open: " + std::strerror(errno ? errno : ENOENT));
  gzbuffer(file_, kPiece);
}

ChromeInput::~ChromeInput() {
  if (file_) gzclose(file_);
}

void ChromeInput::fill() {
  if (eof_) return;
  const int n = gzread(file_, buffer_.data(), static_cast<unsigned>(buffer_.size()));
  if (n < 0) {
    int code = 0;
    const char* why = gzerror(file_, &code);
    throw ChromeInputDamage(path_ + ": byte " + std::to_string(offset_) + ": cannot read: " +
                    (code == Z_ERRNO ? std::strerror(errno) : why));
  }
  if (n == 0) {
    // gzread returns what it could of a cut gzip stream, then 0; tell the two ends apart.
    int code = 0;
    gzerror(file_, &code);
    if (code != Z_OK && code != Z_STREAM_END)
      throw ChromeInputDamage(path_ + ": byte " + std::to_string(offset_) + ": damaged gzip data");
    eof_ = true;
  }
  size_ = static_cast<std::size_t>(n);
  at_ = 0;
}

}  // namespace earl
