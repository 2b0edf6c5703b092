#include "formats/chrome/chrome_importer.h"

#include <exception>
#include <vector>

namespace earl {

namespace {
constexpr std::size_t kBatchEvents = 512;
}

ChromeImporter::ChromeImporter(const std::string& path, const ReadOptions& options)
    : trace_(read_chrome_trace(path, options)), expected_(trace_.records.size()), damage_(trace_.damages()) {
  if (!trace_.records.empty() && trace_.records.front().tick < 0)
    offset_ = 0 - static_cast<std::uint64_t>(trace_.records.front().tick);
}

ChromeImporter::~ChromeImporter() {
  stop();
  wait();
}

void ChromeImporter::start(EventSink& sink) {
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
