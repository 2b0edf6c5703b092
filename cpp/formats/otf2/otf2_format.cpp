#include "formats/otf2/otf2_format.h"

#include "formats/otf2/otf2_anchor.h"
#ifdef EARL_HAVE_OTF2
#include "formats/otf2/otf2_decoder.h"
#include "formats/otf2/otf2_importer.h"
#include "formats/otf2/otf2_writer.h"
#endif

namespace earl {

namespace {

bool sniff(const std::string& path, bool, const std::string&) { return !find_otf2_anchor(path).empty(); }

std::vector<std::string> files(const std::string& path) {
  std::string anchor = find_otf2_anchor(path);
  return otf2_archive_files(anchor.empty() ? path : anchor);
}

#ifdef EARL_HAVE_OTF2
std::unique_ptr<TraceDecoder> open_reader(const std::string& path, const ReadOptions& options) {
  return std::make_unique<Otf2Decoder>(path, options);
}

std::unique_ptr<ImportSource> open_import(const std::string& path, const ReadOptions& options) {
  return std::make_unique<Otf2Importer>(path, options);
}

std::unique_ptr<TraceWriter> open_writer(const std::string& path, const WriterOptions& options) {
  return std::make_unique<Otf2Writer>(path, options);
}
#endif

}  // namespace

const TraceFormat& otf2_format() {
#ifdef EARL_HAVE_OTF2
  static const TraceFormat format{"otf2", "OTF2: Score-P, Scalasca, Vampir, TAU (through libotf2)",
                                  {".otf2"}, sniff, open_reader, open_import, open_writer, nullptr, files};
#else
  static const TraceFormat format{
      "otf2", "OTF2: Score-P, Scalasca, Vampir, TAU (through libotf2)", {".otf2"}, sniff, nullptr, nullptr, nullptr,
      "this build of EARL has no OTF2 support: install libotf2 (Debian/Ubuntu: "
      "libopen-trace-format2-dev; `make setup` does it) or set OTF2_ROOT, then rebuild", files};
#endif
  return format;
}

}  // namespace earl
