#pragma once
#include <memory>
#include <string>

#include "format_interface/trace_decoder.h"
#include "formats/chrome/chrome_records.h"

namespace earl {

// The Chrome trace as a sequential trace without the event cache: the ordered records of
// ChromeTrace, read from memory; a position is a record's index.
class ChromeDecoder : public TraceDecoder {
 public:
  ChromeDecoder(const std::string& path, const ReadOptions& options);

  std::string format() const override { return "chrome"; }
  std::string file() const override { return trace_.file; }
  bool read(Event& event) override;
  DecoderPosition position() const override { return {{next_}}; }
  void seek(const DecoderPosition& position) override;
  DecoderPosition start_position() const override { return {{0}}; }
  double progress() const override;
  const Definitions& definitions() const override { return trace_.definitions; }
  std::vector<StreamDamage> damage() const override { return trace_.damages(); }

 private:
  ChromeTrace trace_;
  std::uint64_t next_ = 0;
};

}  // namespace earl
