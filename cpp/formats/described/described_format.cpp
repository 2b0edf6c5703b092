#include "formats/described/described_format.h"

#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>

#include "formats/described/described_decoder.h"
#include "formats/described/description_loader.h"
#include "model/error.h"

namespace earl {

namespace {

const char* const kPrefix = "described:";
const char* const kSearchPathEnv = "EARL_DESCRIPTIONS";

bool is_file(const std::string& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

std::string absolute(const std::string& path) {
  char resolved[PATH_MAX];
  if (::realpath(path.c_str(), resolved)) return resolved;
  return path;
}

bool sniff(const std::string&, bool, const std::string&) { return false; }  // never by content

std::unique_ptr<TraceDecoder> open_reader(const std::string& path, const ReadOptions&) {
  throw EarlError(path + ": format 'described' needs its description: described:DESC.toml (earl describe --template)");
}

}  // namespace

const TraceFormat& described_format() {
  static const TraceFormat format{
      "described",
      "a format described in TOML: -f described:DESC.toml, or a shipped one by name (earl describe --list)",
      {},
      sniff,
      descriptions_available() ? open_reader : nullptr,
      nullptr,
      nullptr,
      descriptions_available() ? "no writer: a description says how to read a format (earl convert writes its traces "
                                 "in any other)"
                               : descriptions_unavailable(),
      nullptr};
  return format;
}

bool is_described_format(const std::string& format) { return format.rfind(kPrefix, 0) == 0; }

std::string description_file(const std::string& format) {
  const std::string spec = format.substr(std::string(kPrefix).size());
  if (spec.empty()) throw EarlError("format 'described:' names no description (described:DESC.toml)");
  const bool short_name = spec.find('/') == std::string::npos && spec.size() > 0 &&
                          !(spec.size() > 5 && spec.compare(spec.size() - 5, 5, ".toml") == 0);
  if (!short_name || is_file(spec)) {
    if (!is_file(spec)) throw EarlError(spec + ": cannot open the format description");
    return absolute(spec);
  }
  std::string searched;
  if (const char* folders = std::getenv(kSearchPathEnv)) {
    std::string list = folders;
    std::size_t start = 0;
    while (start <= list.size()) {
      const std::size_t end = std::min(list.find(':', start), list.size());
      const std::string folder = list.substr(start, end - start);
      if (!folder.empty()) {
        const std::string candidate = folder + "/" + spec + ".toml";
        if (is_file(candidate)) return absolute(candidate);
        searched += (searched.empty() ? "" : ", ") + folder;
      }
      start = end + 1;
    }
  }
  throw EarlError("no format description '" + spec + "': not a file, nor " + spec + ".toml in " +
                  (searched.empty() ? std::string("the folders of ") + kSearchPathEnv + " (unset)" : searched));
}

std::string resolved_described_format(const std::string& format) { return kPrefix + description_file(format); }

std::unique_ptr<TraceDecoder> open_described(const std::string& path, const std::string& format,
                                              const ReadOptions& options) {
  if (!descriptions_available()) throw EarlError(path + ": " + descriptions_unavailable());
  const std::string file = description_file(format);
  return std::make_unique<DescribedDecoder>(path, load_description(file), kPrefix + file, options);
}

}  // namespace earl
