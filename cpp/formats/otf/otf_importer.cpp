#include "formats/otf/otf_importer.h"

#include <exception>
#include <vector>

namespace earl {

namespace {
// Records per libotf call: large enough that its per-call cost vanishes, small enough
// that the merging reader on the other thread gets events early.
constexpr std::uint64_t kBatchRecords = 4096;
}  // namespace

OtfImporter::OtfImporter(const std::string& path, const ReadOptions& options) : archive_(path, options) {}

OtfImporter::~OtfImporter() {
  stop();
  wait();
}

void OtfImporter::start(EventSink& sink) {
  thread_ = std::thread([this, &sink] { run(sink); });
}

void OtfImporter::wait() {
  if (thread_.joinable()) thread_.join();
}

void OtfImporter::run(EventSink& sink) {
  try {
    const std::size_t locations = archive_.location_count();
    std::vector<std::vector<Event>> events(locations);
    std::vector<std::vector<std::uint64_t>> ticks(locations);
    std::vector<OtfEvent> batch;
    bool more = true;
    while (more && !stop_) {
      batch.clear();
      {
        std::lock_guard<std::mutex> decoding(met_guard_);
        more = archive_.read(kBatchRecords, batch);
      }
      for (const OtfEvent& e : batch) {
        std::size_t loc = static_cast<std::size_t>(e.loc);
        events[loc].push_back(e.event);
        ticks[loc].push_back(e.tick);
      }
      for (std::size_t loc = 0; loc < locations; ++loc) {
        if (events[loc].empty()) continue;
        sink.append(static_cast<Location>(loc), events[loc].data(), ticks[loc].data(), events[loc].size());
        events[loc].clear();
        ticks[loc].clear();
      }
    }
    if (stop_) return;
    for (std::size_t loc = 0; loc < locations; ++loc) sink.finish(static_cast<Location>(loc));
  } catch (const std::exception& error) {
    sink.fail(error.what());
  }
}

}  // namespace earl
