#pragma once
#include "format_interface/trace_format.h"

namespace earl {

// CLOG2 (MPE's binary logs, Jumpshot's input): its row of the format registry.
const TraceFormat& clog2_format();

}  // namespace earl
