#include "formats/alog/alog_format.h"

#include "formats/alog/alog_decoder.h"
#include "formats/alog/alog_writer.h"

namespace earl {

namespace {

bool sniff(const std::string&, bool directory, const std::string& head) {
  return !directory && AlogDecoder::looks_like(head);
}

std::unique_ptr<TraceDecoder> open_reader(const std::string& path, const ReadOptions& options) {
  return std::make_unique<AlogDecoder>(path, options);
}

std::unique_ptr<TraceWriter> open_writer(const std::string& path, const WriterOptions& options) {
  return std::make_unique<AlogWriter>(path, options);
}

}  // namespace

const TraceFormat& alog_format() {
  static const TraceFormat format{"alog", "ALOG: MPE's text traces (thesis appendix A)", {".alog"},
                                  sniff, open_reader, nullptr, open_writer, nullptr, nullptr};
  return format;
}

}  // namespace earl
