#include "index/index_settings.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>

#include "index/index_file.h"
#include "index/index_hash.h"
#include "index/path_parts.h"
#include "model/error.h"

namespace earl {

namespace {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool make_directories(const std::string& path) {
  struct stat info;
  if (::stat(path.c_str(), &info) == 0) return S_ISDIR(info.st_mode);
  std::string parent = directory_of(path);
  if (parent != path && parent != "." && parent != "/" && !make_directories(parent)) return false;
  return ::mkdir(path.c_str(), 0755) == 0 || errno == EEXIST;
}

std::string user_cache_directory() {
  std::string xdg = env("XDG_CACHE_HOME");
  if (!xdg.empty() && xdg[0] == '/') return xdg + "/earl";
  std::string home = env("HOME");
  return home.empty() ? "" : home + "/.cache/earl";
}

// <hash of the absolute path>-<file name>.earlidx: one name per trace, readable by people.
std::string hashed_name(const std::string& anchor) {
  char resolved[PATH_MAX];
  std::string absolute = ::realpath(anchor.c_str(), resolved) ? resolved : anchor;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(index_hash(absolute.data(), absolute.size())));
  return std::string(hex) + "-" + base_of(absolute) + kIndexSuffix;
}

bool removed(const std::string& path) { return ::unlink(path.c_str()) == 0; }

}  // namespace

IndexPolicy index_policy(IndexMode mode) {
  IndexPolicy policy;
  std::string min = env(kIndexMinBytesEnv);
  policy.min_bytes = kDefaultIndexMinBytes;
  if (!min.empty()) {
    char* end = nullptr;
    errno = 0;
    unsigned long long value = std::strtoull(min.c_str(), &end, 10);
    if (errno != 0 || !end || *end != '\0' || min[0] == '-')
      throw EarlError(std::string(kIndexMinBytesEnv) + " must be a number of bytes, got '" + min + "'");
    policy.min_bytes = value;
  }
  if (mode == IndexMode::Off) {
    policy.why_off = "turned off (index=False)";
    return policy;
  }
  if (mode == IndexMode::On) {
    policy.enabled = true;
    policy.min_bytes = 0;
    return policy;
  }
  std::string setting = env(kIndexEnv);
  if (setting == "0") {
    policy.why_off = std::string("turned off (") + kIndexEnv + "=0)";
    return policy;
  }
  if (!setting.empty() && setting != "1")
    throw EarlError(std::string(kIndexEnv) + " must be 0 or 1, got '" + setting + "'");
  policy.enabled = true;
  return policy;
}

std::vector<std::string> index_directories() {
  std::vector<std::string> out;
  std::string chosen = env(kIndexDirEnv);
  if (!chosen.empty()) out.push_back(chosen);
  std::string user = user_cache_directory();
  if (!user.empty()) out.push_back(user);
  return out;
}

std::string index_path_for(const std::string& anchor) {
  std::string chosen = env(kIndexDirEnv);
  if (!chosen.empty()) return make_directories(chosen) ? chosen + "/" + hashed_name(anchor) : "";
  if (::access(directory_of(anchor).c_str(), W_OK) == 0) return anchor + kIndexSuffix;
  std::string user = user_cache_directory();
  if (user.empty() || !make_directories(user)) return "";
  return user + "/" + hashed_name(anchor);
}

std::vector<std::string> index_places(const std::string& anchor) {
  std::vector<std::string> places{anchor + kIndexSuffix};
  for (const std::string& directory : index_directories()) places.push_back(directory + "/" + hashed_name(anchor));
  return places;
}

std::vector<std::string> remove_index(const std::string& index) {
  std::vector<std::string> gone;
  if (removed(index)) gone.push_back(index);
  for (const std::string& temporary : stale_temporary_files(index, true))
    if (removed(temporary)) gone.push_back(temporary);
  return gone;
}

std::vector<std::string> remove_indexes_in(const std::string& directory) {
  std::vector<std::string> gone;
  DIR* dir = ::opendir(directory.c_str());
  if (!dir) return gone;
  std::vector<std::string> names;
  while (dirent* entry = ::readdir(dir)) names.push_back(entry->d_name);
  ::closedir(dir);
  const std::string temporary = std::string(kIndexSuffix) + ".tmp.";
  for (const std::string& name : names) {
    if (!ends_with(name, kIndexSuffix) && name.find(temporary) == std::string::npos) continue;
    std::string path = directory + "/" + name;
    struct stat info;
    if (::lstat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) && removed(path)) gone.push_back(path);
  }
  return gone;
}

}  // namespace earl
