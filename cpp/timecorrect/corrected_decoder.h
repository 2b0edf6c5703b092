#pragma once
#include <functional>
#include <memory>

#include "format_interface/trace_decoder.h"
#include "timecorrect/clock_corrections.h"

namespace earl {

// A decoder whose events carry corrected times (clock_corrections.h). Made by one pass
// over the decoder it wraps (clock_pass.h); afterwards it reads the same events in the
// same order, each event's time replaced by its corrected one. A position is the wrapped
// decoder's plus the number of events read before it, so an event's corrected time is the
// same however a reader reaches it (scan, bookmark, seek).
class CorrectedDecoder : public TraceDecoder {
 public:
  // `progress` as in correct_clocks; the pass reports 0..0.5, reading afterwards 0.5..1.
  CorrectedDecoder(std::unique_ptr<TraceDecoder> decoder, const ClockCorrectionOptions& options,
                   const std::function<bool(double)>& progress = {});

  std::string format() const override { return decoder_->format(); }
  std::string file() const override { return decoder_->file(); }
  bool read(Event& event) override;
  DecoderPosition position() const override;
  void seek(const DecoderPosition& position) override;
  DecoderPosition start_position() const override;
  double progress() const override { return 0.5 + 0.5 * decoder_->progress(); }
  std::uint64_t seek_cost_in_events() const override { return decoder_->seek_cost_in_events(); }
  const Definitions& definitions() const override { return decoder_->definitions(); }
  std::vector<StreamDamage> damage() const override { return decoder_->damage(); }
  bool rereads_input() const override { return decoder_->rereads_input(); }

  const ClockCorrections& corrections() const { return *corrections_; }

 private:
  void correct_operation_times(Event& event, const ClockJump* latest, const ClockJump* next) const;

  std::unique_ptr<TraceDecoder> decoder_;
  std::unique_ptr<ClockCorrections> corrections_;
  JumpCursor cursor_;
  std::uint64_t read_ = 0;  // events read since the start
};

}  // namespace earl
