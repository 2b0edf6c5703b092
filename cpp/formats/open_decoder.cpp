#include "formats/open_decoder.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "formats/alog_decoder.h"
#ifdef EARL_HAVE_OTF2
#include "cache/cached_decoder.h"
#include "formats/otf2_decoder.h"
#include "formats/otf2_importer.h"
#endif
#include "model/error.h"

namespace earl {

namespace {

std::string join(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

const char* const kNoOtf2 =
    ": is an OTF2 archive, but this build of EARL has no OTF2 support: install libotf2 "
    "(Debian/Ubuntu: libopen-trace-format2-dev; `make setup` does it) or set OTF2_ROOT, "
    "then rebuild";

// An OTF2 anchor file or a directory holding one (without libotf2: the magic bytes).
bool is_otf2(const std::string& file, bool directory) {
#ifdef EARL_HAVE_OTF2
  return !Otf2Decoder::find_anchor(file).empty();
#else
  if (directory) return false;
  std::ifstream in(file, std::ios::binary);
  char head[16] = {};
  in.read(head, sizeof(head));
  return std::string(head, static_cast<std::size_t>(in.gcount())).find("OTF2") != std::string::npos;
#endif
}

std::string detect_format(const std::string& file) {
  struct stat info;
  if (::stat(file.c_str(), &info) != 0)
    throw EarlError(file + ": cannot open: " + std::strerror(errno));
  bool directory = S_ISDIR(info.st_mode);
  if (is_otf2(file, directory)) return "otf2";
  if (directory)
    throw EarlError(file + ": is a directory holding no trace this build can read (known formats: " +
                    join(known_formats()) + ")");
  std::ifstream in(file, std::ios::binary);
  std::string head(4096, '\0');
  in.read(&head[0], static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  if (head.empty()) throw EarlError(file + ": empty file, not a trace");
  if (AlogDecoder::looks_like(head)) return "alog";
  throw EarlError(file + ": cannot detect the trace format (known formats: " +
                  join(known_formats()) + ")");
}

}  // namespace

std::vector<std::string> known_formats() {
#ifdef EARL_HAVE_OTF2
  return {"alog", "otf2"};
#else
  return {"alog"};
#endif
}

std::unique_ptr<TraceDecoder> open_decoder(const std::string& file, const std::string& format,
                                           bool cache) {
  std::string chosen = format.empty() ? detect_format(file) : format;
  if (chosen == "alog") return std::make_unique<AlogDecoder>(file);
#ifdef EARL_HAVE_OTF2
  if (chosen == "otf2") {
    if (cache) return std::make_unique<CachedDecoder>(std::make_unique<Otf2Importer>(file));
    return std::make_unique<Otf2Decoder>(file);
  }
#else
  (void)cache;
  if (chosen == "otf2") throw EarlError(file + kNoOtf2);
#endif
  throw EarlError(file + ": unknown format '" + format + "' (known formats: " +
                  join(known_formats()) + ")");
}

}  // namespace earl
