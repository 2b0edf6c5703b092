#include "otf2_archive_input.h"

#include <optional>
#include <vector>

#include "decoded_events.h"
#include "gen/generator.h"
#include "model/error.h"
#include "registry/format_registry.h"
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

// The events of the archive read with `cache`, or nothing when it is rejected.
std::optional<std::vector<Event>> read_through(bool cache) {
  try {
    auto decoder = open_decoder(archive_anchor().string(), "otf2", cache);
    std::vector<DecoderPosition> positions;
    std::vector<Event> events = decode_all(*decoder, &positions);
    if (!cache) check_seeks(*decoder, events, positions);
    return events;
  } catch (const EarlError&) {
    return std::nullopt;
  }
}

}  // namespace

void read_archive_with(const std::filesystem::path& file, const std::uint8_t* data, std::size_t size) {
  write_file(archive_anchor().parent_path() / file, data, size);
  const auto direct = read_through(false);
  const auto cached = read_through(true);
  if (direct && cached) {
    require(direct->size() == cached->size(), "the decoder and the cache read as many events");
    for (std::size_t i = 0; i < direct->size(); ++i)
      require(same_event((*direct)[i], (*cached)[i]), "the decoder and the cache read the same events");
  }
}

}  // namespace earl::fuzz
