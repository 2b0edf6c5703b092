#include "formats/otf/otf_format.h"

#include "formats/otf/otf_anchor.h"
#ifdef EARL_HAVE_OTF
#include "formats/otf/otf_decoder.h"
#include "formats/otf/otf_importer.h"
#include "formats/otf/otf_writer.h"
#endif

namespace earl {

namespace {

// "vampir" is accepted as this lineage's historical name: VAMPIR's own binary format was
// never published; OTF is its documented successor, written by VampirTrace for Vampir.
bool sniff(const std::string& path, bool, const std::string&) { return !find_otf_anchor(path).empty(); }

std::vector<std::string> files(const std::string& path) {
  std::string anchor = find_otf_anchor(path);
  return otf_archive_files(anchor.empty() ? path : anchor);
}

#ifdef EARL_HAVE_OTF
std::unique_ptr<TraceDecoder> open_reader(const std::string& path, const ReadOptions& options) {
  return std::make_unique<OtfDecoder>(path, options);
}

std::unique_ptr<ImportSource> open_import(const std::string& path, const ReadOptions& options) {
  return std::make_unique<OtfImporter>(path, options);
}

std::unique_ptr<TraceWriter> open_writer(const std::string& path, const WriterOptions& options) {
  return std::make_unique<OtfWriter>(path, options);
}
#endif

constexpr const char* kDescription = "OTF: VampirTrace's Open Trace Format, version 1 (through libotf)";

}  // namespace

const TraceFormat& otf_format() {
#ifdef EARL_HAVE_OTF
  static const TraceFormat format{"otf", kDescription, {".otf"}, sniff, open_reader, open_import, open_writer, nullptr, files, {"vampir"}};
#else
  static const TraceFormat format{
      "otf", kDescription, {".otf"}, sniff, nullptr, nullptr, nullptr,
      "this build of EARL has no OTF support: install libotf (Debian/Ubuntu: libopen-trace-format-dev; "
      "`make setup` does it) or set OTF_ROOT, then rebuild", files, {"vampir"}};
#endif
  return format;
}

}  // namespace earl
