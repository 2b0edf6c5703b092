#include "otf2_archive_input.h"

#include <vector>

#include "direct_and_cached.h"
#include "gen/generator.h"
#include "scratch_dir.h"

namespace earl::fuzz {

namespace {

const std::filesystem::path& archive_anchor() {
  static const std::filesystem::path anchor = [] {
    gen::GenOptions options;
    options.locations = 2;
    options.events = 60;
    options.seed = 1;
    options.format = "otf2";
    const auto path = scratch_dir() / "archive" / "traces.otf2";
    std::filesystem::create_directories(path.parent_path());
    gen::generate(options, path.string());
    return path;
  }();
  return anchor;
}

}  // namespace

void read_archive_with(const std::filesystem::path& file, const std::uint8_t* data, std::size_t size) {
  write_file(archive_anchor().parent_path() / file, data, size);
  require_direct_and_cached_agree(archive_anchor().string(), "otf2");
}

}  // namespace earl::fuzz
