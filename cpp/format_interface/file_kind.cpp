#include "format_interface/file_kind.h"

#include <sys/stat.h>

#include "model/error.h"

namespace earl {

std::string special_file_kind(const std::string& path) {
  struct stat info;
  if (::stat(path.c_str(), &info) != 0) return "";
  if (S_ISREG(info.st_mode) || S_ISDIR(info.st_mode)) return "";
  if (S_ISFIFO(info.st_mode)) return "a named pipe (FIFO)";
  if (S_ISSOCK(info.st_mode)) return "a socket";
  if (S_ISCHR(info.st_mode)) return "a character device";
  if (S_ISBLK(info.st_mode)) return "a block device";
  return "a special file";
}

void refuse_special_file(const std::string& path) {
  std::string kind = special_file_kind(path);
  if (!kind.empty()) throw EarlError(path + ": is " + kind + ", not a trace file (EARL reads regular files)");
}

}  // namespace earl
