#pragma once
// The input of the OTF fuzz target: a small OTF (version 1) trace written once per
// process with libotf's own writer (2 processes in one stream, each record kind EARL maps,
// a marker file), in which one file is replaced by the fuzzed bytes before every run.
// fuzz/seed_corpora.py seeds the target with the event files of the tests' OTF traces.
#include <cstdint>
#include <filesystem>

namespace earl::fuzz {

// Writes `data` over `file` (relative to the trace's folder: "trace.1.events",
// "trace.0.def") and reads the trace through the registry twice: with the direct OTF
// reader and through the event cache. Both must end, throw only EarlError, and when both
// read the trace, read the same events; the direct reader reads each event again after a
// seek to the position saved before it.
void read_otf_with(const std::filesystem::path& file, const std::uint8_t* data, std::size_t size);

}  // namespace earl::fuzz
