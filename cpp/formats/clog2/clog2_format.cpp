#include "formats/clog2/clog2_format.h"

#include "formats/clog2/clog2_decoder.h"
#include "formats/clog2/clog2_preamble.h"
#include "formats/clog2/clog2_writer.h"

namespace earl {

namespace {

bool sniff(const std::string&, bool directory, const std::string& head) {
  return !directory && clog2::looks_like_preamble(head);
}

std::unique_ptr<TraceDecoder> open_reader(const std::string& path, const ReadOptions& options) {
  return std::make_unique<Clog2Decoder>(path, options);
}

std::unique_ptr<TraceWriter> open_writer(const std::string& path, const WriterOptions& options) {
  return std::make_unique<Clog2Writer>(path, options);
}

}  // namespace

const TraceFormat& clog2_format() {
  static const TraceFormat format{"clog2", "CLOG2: MPE's binary logs (Jumpshot)", {".clog2"},
                                  sniff, open_reader, nullptr, open_writer, nullptr, nullptr};
  return format;
}

}  // namespace earl
