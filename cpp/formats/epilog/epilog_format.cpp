#include "formats/epilog/epilog_format.h"

#include "formats/epilog/epilog_decoder.h"
#include "formats/epilog/epilog_writer.h"

namespace earl {

namespace {

bool sniff(const std::string&, bool directory, const std::string& head) {
  return !directory && EpilogDecoder::looks_like(head);
}

std::unique_ptr<TraceDecoder> open_reader(const std::string& path, const ReadOptions& options) {
  return std::make_unique<EpilogDecoder>(path, options);
}

std::unique_ptr<TraceWriter> open_writer(const std::string& path, const WriterOptions& options) {
  return std::make_unique<EpilogWriter>(path, options);
}

}  // namespace

const TraceFormat& epilog_format() {
  static const TraceFormat format{"epilog", "EPILOG: KOJAK / Scalasca 1.x merged traces", {".elg"},
                                  sniff, open_reader, nullptr, open_writer, nullptr, nullptr};
  return format;
}

}  // namespace earl
