#include "formats/otf2/otf2_anchor.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <vector>

#include "model/error.h"

namespace earl {

namespace {

bool is_directory(const std::string& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

bool ends_with_otf2(const std::string& name) {
  return name.size() > 5 && name.compare(name.size() - 5, 5, ".otf2") == 0;
}

}  // namespace

static bool is_regular(const std::string& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

bool has_otf2_magic(const std::string& file) {
  if (!is_regular(file)) return false;  // a named pipe would block the read
  std::ifstream in(file, std::ios::binary);
  char head[16] = {};
  in.read(head, sizeof(head));
  return std::string(head, static_cast<std::size_t>(in.gcount())).find("OTF2") != std::string::npos;
}

std::string find_otf2_anchor(const std::string& path) {
  if (!is_directory(path)) return has_otf2_magic(path) ? path : "";
  std::vector<std::string> anchors;
  if (DIR* dir = ::opendir(path.c_str())) {
    while (dirent* entry = ::readdir(dir)) {
      std::string name = entry->d_name;
      if (ends_with_otf2(name) && is_regular(path + "/" + name)) anchors.push_back(name);
    }
    ::closedir(dir);
  }
  std::sort(anchors.begin(), anchors.end());
  if (anchors.size() > 1) {
    std::string list;
    for (const auto& name : anchors) list += (list.empty() ? "" : ", ") + name;
    throw EarlError(path + ": holds several OTF2 anchor files (" + list + "); name one");
  }
  if (anchors.empty()) return "";
  std::string anchor = path + (path.back() == '/' ? "" : "/") + anchors[0];
  return has_otf2_magic(anchor) ? anchor : "";
}

namespace {
void collect_files(const std::string& directory, std::vector<std::string>& out) {
  DIR* dir = ::opendir(directory.c_str());
  if (!dir) return;
  std::vector<std::string> names;
  while (dirent* entry = ::readdir(dir)) {
    std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(dir);
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    std::string path = directory + "/" + name;
    if (is_directory(path)) collect_files(path, out);
    else if (is_regular(path)) out.push_back(path);
  }
}
}  // namespace

std::vector<std::string> otf2_archive_files(const std::string& anchor) {
  std::vector<std::string> files{anchor};
  if (!ends_with_otf2(anchor)) return files;
  std::string stem = anchor.substr(0, anchor.size() - 5);
  if (is_regular(stem + ".def")) files.push_back(stem + ".def");
  if (is_directory(stem)) collect_files(stem, files);
  return files;
}

}  // namespace earl
