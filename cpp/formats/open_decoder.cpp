#include "formats/open_decoder.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "formats/alog_decoder.h"
#include "model/error.h"

namespace earl {

namespace {

std::string join(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

std::string detect_format(const std::string& file) {
  struct stat info;
  if (::stat(file.c_str(), &info) != 0)
    throw EarlError(file + ": cannot open: " + std::strerror(errno));
  if (S_ISDIR(info.st_mode))
    throw EarlError(file + ": is a directory holding no trace this build can read");
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

std::vector<std::string> known_formats() { return {"alog"}; }

std::unique_ptr<TraceDecoder> open_decoder(const std::string& file, const std::string& format) {
  std::string chosen = format.empty() ? detect_format(file) : format;
  if (chosen == "alog") return std::make_unique<AlogDecoder>(file);
  throw EarlError(file + ": unknown format '" + format + "' (known formats: " +
                  join(known_formats()) + ")");
}

}  // namespace earl
