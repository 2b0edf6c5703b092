#include "formats/epilog/epilog_format.h"

#include <zlib.h>

#include "formats/epilog/epilog_decoder.h"
#include "formats/epilog/epilog_writer.h"

namespace earl {

namespace {

bool sniff(const std::string& path, bool directory, const std::string& head) {
  if (directory) return false;
  if (EpilogDecoder::looks_like(head)) return true;
  // A gzip-compressed EPILOG file: look at the start of what it holds.
  if (head.size() < 2 || static_cast<unsigned char>(head[0]) != 0x1f ||
      static_cast<unsigned char>(head[1]) != 0x8b)
    return false;
  gzFile gz = gzopen(path.c_str(), "rb");
  if (!gz) return false;
  char start[16];
  const int got = gzread(gz, start, sizeof start);
  gzclose(gz);
  return got > 0 && EpilogDecoder::looks_like(std::string_view(start, static_cast<std::size_t>(got)));
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
