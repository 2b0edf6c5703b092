#pragma once
#include "format_interface/trace_format.h"

namespace earl {

// ALOG (thesis appendix A, MPE's text traces): its row of the format registry.
const TraceFormat& alog_format();

}  // namespace earl
