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
    if (event.kind == EventKind::CollectiveExit) correct_operation_times(event, latest, next);
    event.time = corrections_->corrected(latest, next, event.time);
  }
  return true;
}

// A collective exit's data1/data2 are the operation's begin and end (OTF2's
// MpiCollectiveBegin/End, which the analysis takes instead of enter and exit), recorded on
// the same clock. The end moves as the exit does (a jump of the exit bounds the end of the
// operation it closes); the begin came before the exit, so when the exit is itself a jump
// the begin moves as a time just before it (the previous jump, and the exit's ramp), as
// the enter does.
void CorrectedDecoder::correct_operation_times(Event& event, const ClockJump* latest,
                                               const ClockJump* next) const {
  auto correct = [&](Value& value, const ClockJump* before, const ClockJump* after) {
    if (value.kind == Value::Kind::Float && !definitions().outside_declared_span(value.real))
      value.real = corrections_->corrected(before, after, value.real);
  };
  correct(event.data2, latest, next);
  if (latest && latest->ordinal == read_) {
    const std::vector<ClockJump>& jumps = corrections_->jumps(event.loc);
    correct(event.data1, latest == jumps.data() ? nullptr : latest - 1, latest);
  } else {
    correct(event.data1, latest, next);
  }
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
