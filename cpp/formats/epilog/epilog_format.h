#pragma once
#include "format_interface/trace_format.h"

namespace earl {
// EPILOG (KOJAK / Scalasca 1.x .elg merged traces): reader and writer.
const TraceFormat& epilog_format();
}  // namespace earl
