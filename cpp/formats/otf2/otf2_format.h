#pragma once
#include "format_interface/trace_format.h"

namespace earl {

// OTF2 (Score-P, Scalasca, Vampir, TAU) through libotf2: its row of the format registry.
// Detection works without libotf2, so a build without it can say what to install.
const TraceFormat& otf2_format();

}  // namespace earl
