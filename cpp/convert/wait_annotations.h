#pragma once
// earl convert --wait-states: EARL's wait-state analysis of the input (analysis/), each
// wait instance it found as an annotation for the writer (TraceWriter::annotate): on the
// waiting location, from when the wait began for its idle time, named by its pattern.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "format_interface/trace_writer.h"

namespace earl::convert {

struct WaitAnnotations {
  std::vector<WriterAnnotation> annotations;  // by location, then begin
  std::uint64_t left_out = 0;  // instances beyond `limit` (the shortest are left out)
};

// Analyses `input` (format `format`, "" = detected) keeping up to `limit` instances, the
// longest; `progress` as AnalysisOptions::progress. EarlError as analyze()'s.
WaitAnnotations wait_annotations(const std::string& input, const std::string& format, bool strict,
                                 std::size_t limit, const std::function<bool(double)>& progress);

}  // namespace earl::convert
