#include "timecorrect/corrected_decoder.h"

#include "model/error.h"
#include "timecorrect/clock_pass.h"

namespace earl {

CorrectedDecoder::CorrectedDecoder(std::unique_ptr<TraceDecoder> decoder,
                                   const ClockCorrectionOptions& options,
                                   const std::function<bool(double)>& progress)
    : decoder_(std::move(decoder)) {
  std::function<bool(double)> half;
  if (progress) half = [&progress](double fraction) { return progress(0.5 * fraction); };
  corrections_ = correct_clocks(*decoder_, options, half);
  decoder_->seek(decoder_->start_position());
}

bool CorrectedDecoder::read(Event& event) {
  if (!decoder_->read(event)) return false;
  ++read_;
  if (!definitions().outside_declared_span(event.time))
  {
    auto [latest, next] = cursor_.find(*corrections_, event.loc, read_);
    event.time = corrections_->corrected(latest, next, event.time);
  }
  return true;
}

DecoderPosition CorrectedDecoder::position() const {
  DecoderPosition where = decoder_->position();
  where.words.push_back(read_);
  return where;
}

void CorrectedDecoder::seek(const DecoderPosition& position) {
  if (position.words.empty()) throw EarlError(file() + ": not a position of a clock-corrected trace");
  DecoderPosition inner = position;
  inner.words.pop_back();
  decoder_->seek(inner);
  read_ = position.words.back();
}

DecoderPosition CorrectedDecoder::start_position() const {
  DecoderPosition where = decoder_->start_position();
  where.words.push_back(0);
  return where;
}

}  // namespace earl
