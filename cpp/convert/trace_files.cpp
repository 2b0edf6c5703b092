#include "convert/trace_files.h"

#include <filesystem>
#include <system_error>
#include <vector>

namespace earl::convert {

namespace fs = std::filesystem;

namespace {

bool same_file(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) {
    const bool equal = fs::equivalent(a, b, ec);
    if (!ec) return equal;
  }
  const fs::path ca = fs::weakly_canonical(a, ec);
  if (ec) return false;
  const fs::path cb = fs::weakly_canonical(b, ec);
  return !ec && ca == cb;
}

// `path` is `directory` or lies directly inside it (an archive's event files do).
bool at_or_in(const fs::path& path, const fs::path& directory) {
  if (same_file(path, directory)) return true;
  std::error_code ec;
  const fs::path parent = fs::weakly_canonical(path, ec).parent_path();
  return !ec && same_file(parent, directory);
}

// The files a path stands for: itself and, for an OTF2 anchor, STEM.def and STEM/.
std::vector<fs::path> files_of(const std::string& path) {
  std::vector<fs::path> files{path};
  const std::string suffix = ".otf2";
  if (path.size() > suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0) {
    const std::string stem = path.substr(0, path.size() - suffix.size());
    files.emplace_back(stem + ".def");
    files.emplace_back(stem);
  }
  return files;
}

}  // namespace

bool overwrites_trace(const std::string& trace, const std::string& output) {
  const std::vector<fs::path> ins = files_of(trace), outs = files_of(output);
  for (const fs::path& in : ins)
    for (const fs::path& out : outs)
      if (at_or_in(out, in) || at_or_in(in, out)) return true;
  return false;
}

}  // namespace earl::convert
