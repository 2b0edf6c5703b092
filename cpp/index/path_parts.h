#pragma once
// The parts of a file path that index files are named and placed by.
#include <string>

namespace earl {

// The directory holding `path` ("." for a bare name, "/" for a file in the root).
inline std::string directory_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
}

// The last component of `path`.
inline std::string base_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace earl
