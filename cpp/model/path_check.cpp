#include "model/path_check.h"

#include "model/error.h"

namespace earl {

void check_path(const std::string& path, const std::string& what) {
  if (path.find('\0') == std::string::npos) return;
  // EarlError shows the NUL as \0 (model/error.h).
  throw EarlError(what + " '" + path + "' contains a NUL byte, which no path can hold");
}

}  // namespace earl
