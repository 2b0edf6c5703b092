#include "formats/chrome/chrome_format.h"

#include <string>

#include "formats/chrome/chrome_sniff.h"
#ifdef EARL_HAVE_RAPIDJSON
#include "formats/chrome/chrome_decoder.h"
#include "formats/chrome/chrome_importer.h"
#include "formats/chrome/chrome_writer.h"
#endif

namespace earl {

namespace {

bool ends_with(const std::string& text, const char* suffix) {
  const std::size_t n = std::char_traits<char>::length(suffix);
  return text.size() >= n && text.compare(text.size() - n, n, suffix) == 0;
}

bool sniff(const std::string& path, bool directory, const std::string& head) {
  return !directory && looks_like_chrome_trace(head, ends_with(path, ".json") || ends_with(path, ".json.gz"));
}

#ifdef EARL_HAVE_RAPIDJSON
std::unique_ptr<TraceDecoder> open_reader(const std::string& path, const ReadOptions& options) {
  return std::make_unique<ChromeDecoder>(path, options);
}

std::unique_ptr<ImportSource> open_import(const std::string& path, const ReadOptions& options) {
  return std::make_unique<ChromeImporter>(path, options);
}

std::unique_ptr<TraceWriter> open_writer(const std::string& path, const WriterOptions& options) {
  return std::make_unique<ChromeWriter>(path, options);
}
#endif

}  // namespace

const TraceFormat& chrome_format() {
  static const char* const kDescription = "Chrome trace-event JSON: chrome://tracing, Perfetto, PyTorch profiler";
#ifdef EARL_HAVE_RAPIDJSON
  static const TraceFormat format{"chrome", kDescription, {".json", ".json.gz"}, sniff, open_reader,
                                  open_import, open_writer, nullptr, nullptr};
#else
  static const TraceFormat format{
      "chrome", kDescription, {".json", ".json.gz"}, sniff, nullptr, nullptr, nullptr,
      "this build of EARL has no Chrome JSON support: install RapidJSON (Debian/Ubuntu: rapidjson-dev; "
      "`make setup` does it), then rebuild", nullptr};
#endif
  return format;
}

}  // namespace earl
