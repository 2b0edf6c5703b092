#pragma once
#include <memory>
#include <string>
#include <vector>

#include "formats/trace_decoder.h"

namespace earl {

// The formats this build can read, lowercase, as accepted by open_decoder().
std::vector<std::string> known_formats();

// Opens `file` with the decoder for `format`, or the one its content calls for when
// `format` is empty.
std::unique_ptr<TraceDecoder> open_decoder(const std::string& file, const std::string& format);

}  // namespace earl
