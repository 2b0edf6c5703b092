#include "formats/chrome/chrome_decoder.h"

#include "model/error.h"

namespace earl {

ChromeDecoder::ChromeDecoder(const std::string& path, const ReadOptions& options)
    : trace_(read_chrome_trace(path, options)) {}

bool ChromeDecoder::read(Event& event) {
  if (next_ >= trace_.records.size()) return false;
  const Position pos = event.pos;
  const Position enterptr = event.enterptr;
  event = trace_.event(static_cast<std::size_t>(next_++));
  event.pos = pos;
  event.enterptr = enterptr;
  return true;
}

void ChromeDecoder::seek(const DecoderPosition& position) {
  if (position.words.size() != 1 || position.words[0] > trace_.records.size())
    throw EarlError(trace_.file + ": not a position of this Chrome trace");
  next_ = position.words[0];
}

double ChromeDecoder::progress() const {
  return trace_.records.empty() ? 1.0 : static_cast<double>(next_) / static_cast<double>(trace_.records.size());
}

}  // namespace earl
