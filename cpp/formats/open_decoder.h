#pragma once
#include <memory>
#include <string>
#include <vector>

#include "formats/trace_decoder.h"

namespace earl {

// The formats this build can read, lowercase, as accepted by open_decoder().
std::vector<std::string> known_formats();

// Opens `file` with the decoder for `format`, or the one its content calls for when
// `format` is empty. With `cache`, formats that seek slowly (OTF2) are read once into
// EARL's event cache, which then serves every position.
std::unique_ptr<TraceDecoder> open_decoder(const std::string& file, const std::string& format,
                                           bool cache = true);

}  // namespace earl
