#include "formats/chrome/chrome_importer.h"

#include <exception>
#include <vector>

namespace earl {

namespace {
constexpr std::size_t kBatchEvents = 512;
}

ChromeImporter::ChromeImporter(const std::string& path, const ReadOptions& options)
    : path_(path), options_(options) {}

const ChromeTrace& ChromeImporter::parsed() const {
  if (parsed_) return trace_;
  trace_ = read_chrome_trace(path_, options_);
  expected_ = trace_.records.size();
  damage_ = trace_.damages();
  if (!trace_.records.empty() && trace_.records.front().tick < 0)
    offset_ = 0 - static_cast<std::uint64_t>(trace_.records.front().tick);
  parsed_ = true;
  return trace_;
}

namespace {
// restorable_facts: a version, then the location count, the tick offset, the event count.
constexpr std::uint64_t kFactsVersion = 1;
}  // namespace

std::vector<std::uint64_t> ChromeImporter::restorable_facts() const {
  if (!parsed_ || !damage_.empty()) return {};
  return {kFactsVersion, static_cast<std::uint64_t>(trace_.definitions.location_count), offset_, expected_};
}

void ChromeImporter::restore_facts(const std::vector<std::uint64_t>& facts, const Definitions& published) {
  if (parsed_ || facts.size() != 4 || facts[0] != kFactsVersion ||
      facts[1] != static_cast<std::uint64_t>(published.location_count))
    return;  // not ours: parse when asked
  trace_ = ChromeTrace{};
  trace_.file = path_;
  trace_.definitions = published;
  offset_ = facts[2];
  expected_ = facts[3];
  parsed_ = true;
}

ChromeImporter::~ChromeImporter() {
  stop();
  wait();
}

void ChromeImporter::start(EventSink& sink) {
  parsed();
  thread_ = std::thread([this, &sink] { run(sink); });
}

void ChromeImporter::wait() {
  if (thread_.joinable()) thread_.join();
}

void ChromeImporter::run(EventSink& sink) {
  try {
    const std::size_t locations = location_count();
    std::vector<std::vector<Event>> events(locations);
    std::vector<std::vector<std::uint64_t>> ticks(locations);
    auto flush = [&](std::size_t loc) {
      sink.append(static_cast<Location>(loc), events[loc].data(), ticks[loc].data(), events[loc].size());
      events[loc].clear();
      ticks[loc].clear();
    };
    for (std::size_t i = 0; i < trace_.records.size() && !stop_; ++i) {
      const ChromeRecord& r = trace_.records[i];
      events[r.loc].push_back(trace_.event(i));
      ticks[r.loc].push_back(static_cast<std::uint64_t>(r.tick) + offset_);
      if (events[r.loc].size() == kBatchEvents) flush(r.loc);
    }
    if (stop_) return;
    for (std::size_t loc = 0; loc < locations; ++loc) {
      if (!events[loc].empty()) flush(loc);
      sink.finish(static_cast<Location>(loc));
    }
    // The cache holds the events now: the records' memory goes back.
    std::vector<ChromeRecord>().swap(trace_.records);
    std::vector<ChromeCollective>().swap(trace_.collectives);
  } catch (const std::exception& error) {
    sink.fail(error.what());
  }
}

}  // namespace earl
