#include "formats/otf/otf_anchor.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>

#include "model/error.h"

namespace earl {

namespace {

constexpr std::size_t kMasterHeadBytes = 4096;

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool regular_file(const std::string& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

std::string head_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(kMasterHeadBytes, '\0');
  in.read(&head[0], static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return head;
}

bool hex_digit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

std::vector<std::string> entries(const std::string& directory) {
  std::vector<std::string> names;
  if (DIR* dir = ::opendir(directory.c_str())) {
    while (dirent* entry = ::readdir(dir)) names.emplace_back(entry->d_name);
    ::closedir(dir);
  }
  std::sort(names.begin(), names.end());
  return names;
}

bool is_master(const std::string& path) {
  if (!ends_with(path, ".otf") || !regular_file(path)) return false;
  const std::string head = head_of(path);
  if (looks_like_otf_master(head)) return true;
  // A trace without events has an empty master control file: its definitions decide
  // (libotf's text records start with a letter, definitions with 'D').
  if (!head.empty()) return false;
  const std::string definitions = path.substr(0, path.size() - 4) + ".0.def";
  return regular_file(definitions + ".z") || head_of(definitions).compare(0, 1, "D") == 0;
}

}  // namespace

bool looks_like_otf_master(const std::string& text) {
  // Every line "hex:hex[,hex...]" (libotf writes stream:processes); at least one line.
  // A file cut off inside its first 4096 bytes may end in a partial line: judged as is.
  std::size_t lines = 0, at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(at, end - at);
    at = end + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    std::size_t colon = line.find(':');
    if (colon == 0 || colon == std::string::npos) return false;
    for (std::size_t i = 0; i < line.size(); ++i)
      if (i != colon && !hex_digit(line[i]) && line[i] != ',') return false;
    ++lines;
  }
  return lines > 0;
}

std::string find_otf_anchor(const std::string& path) {
  struct stat info;
  if (::stat(path.c_str(), &info) != 0) return "";
  if (S_ISREG(info.st_mode)) return is_master(path) ? path : "";
  if (!S_ISDIR(info.st_mode)) return "";
  std::vector<std::string> found;
  for (const std::string& name : entries(path)) {
    std::string candidate = path + (ends_with(path, "/") ? "" : "/") + name;
    if (is_master(candidate)) found.push_back(candidate);
  }
  if (found.size() > 1)
    throw EarlError(path + ": holds several OTF traces (" + found[0] + ", " + found[1] + ", ...): name one of them");
  return found.empty() ? "" : found[0];
}

std::string otf_name_stub(const std::string& anchor) {
  return ends_with(anchor, ".otf") ? anchor.substr(0, anchor.size() - 4) : anchor;
}

std::vector<std::string> otf_archive_files(const std::string& anchor) {
  std::vector<std::string> files{anchor};
  const std::string stub = otf_name_stub(anchor);
  const std::size_t slash = stub.rfind('/');
  const std::string directory = slash == std::string::npos ? "." : (slash == 0 ? "/" : stub.substr(0, slash));
  const std::string prefix = (slash == std::string::npos ? stub : stub.substr(slash + 1)) + ".";
  static const char* const kinds[] = {".def", ".events", ".marker", ".stats", ".snaps"};
  for (const std::string& name : entries(directory)) {
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    std::string bare = ends_with(name, ".z") ? name.substr(0, name.size() - 2) : name;
    bool member = false;
    for (const char* kind : kinds) member = member || ends_with(bare, kind);
    std::string full = slash == std::string::npos ? name : directory + (directory == "/" ? "" : "/") + name;
    if (member && regular_file(full)) files.push_back(full);
  }
  return files;
}

}  // namespace earl
