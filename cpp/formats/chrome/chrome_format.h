#pragma once
#include "format_interface/trace_format.h"

namespace earl {

// Chrome trace-event JSON (chrome://tracing, Perfetto, PyTorch's profiler): its row of the
// format registry. Detection needs no JSON library, so a build without RapidJSON can say
// what to install.
const TraceFormat& chrome_format();

}  // namespace earl
