#pragma once
#include "format_interface/trace_format.h"

namespace earl {

// OTF version 1 (VampirTrace's Open Trace Format, the documented successor of the binary
// VAMPIR format) through libotf: its registry row.
const TraceFormat& otf_format();

}  // namespace earl
