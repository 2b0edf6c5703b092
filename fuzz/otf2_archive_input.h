#pragma once
// The input of the OTF2 fuzz targets: a small archive written once per process by the
// generator (2 locations, about 60 events), in which one file is replaced by the fuzzed
// bytes before every run. fuzz/seed_corpora.py seeds the targets with the files of
// archives of the same generator, this one (`earl gen -n 2 -e 60 -s 1`) among them.
#include <cstdint>
#include <filesystem>

namespace earl::fuzz {

// Writes `data` over `file` (relative to the archive's folder: "traces.def",
// "traces/0.evt") and reads the archive through the registry twice: with the OTF2
// decoder and through the event cache. Both must end, throw only EarlError, and when both
// read the archive, read the same events; the decoder reads each event again after a
// seek to the position saved before it.
void read_archive_with(const std::filesystem::path& file, const std::uint8_t* data, std::size_t size);

}  // namespace earl::fuzz
