#include "format_interface/trace_decoder.h"

#include "model/error.h"

namespace earl {

void TraceDecoder::restore_state(DecoderState&) {
  throw EarlError(file() + ": the " + format() + " decoder keeps no saved state");
}

}  // namespace earl
