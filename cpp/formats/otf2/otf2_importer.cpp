#include "formats/otf2/otf2_importer.h"

#include <exception>
#include <functional>
#include <mutex>
#include <queue>
#include <utility>
#include <vector>

#include "model/error.h"

namespace earl {

namespace {
// Records per turn of one location: large enough that libotf2's per-call cost vanishes,
// small enough that every location stays close in time to the others.
constexpr std::size_t kBatchRecords = 512;
// What the open location readers may hold (one event chunk each, often 1 MiB): an archive
// of more locations is read a window of locations at a time, each to its end.
constexpr std::uint64_t kReaderMemory = 64ull << 20;
}  // namespace

Otf2Importer::Otf2Importer(const std::string& path, const ReadOptions& options)
    : archive_(path, options), declared_(archive_.met_definitions()) {}

Otf2Importer::~Otf2Importer() {
  stop();
  wait();
}

void Otf2Importer::start(EventSink& sink) {
  thread_ = std::thread([this, &sink] { run(sink); });
}

void Otf2Importer::wait() {
  if (thread_.joinable()) thread_.join();
}

void Otf2Importer::run(EventSink& sink) {
  try {
    using Turn = std::pair<std::uint64_t, Location>;  // (last timestamp read, location)
    std::priority_queue<Turn, std::vector<Turn>, std::greater<Turn>> behind;
    const std::size_t locations = archive_.location_count();
    const std::size_t window = archive_.readers_within(kReaderMemory);
    std::size_t admitted = 0;
    auto admit = [&] {
      while (admitted < locations && behind.size() < window) behind.push({0, static_cast<Location>(admitted++)});
    };
    admit();
    while (!behind.empty() && !stop_) {
      Location loc = behind.top().second;
      std::uint64_t last = behind.top().first;
      behind.pop();
      bool more;
      {
        std::lock_guard<std::mutex> decoding(met_guard_);
        more = archive_.read_batch(loc, kBatchRecords);
      }
      const Otf2Archive::Stream& batch = archive_.stream(loc);
      static_assert(sizeof(OTF2_TimeStamp) == sizeof(std::uint64_t), "ticks are passed as uint64");
      sink.append(loc, batch.pending.data(), batch.pending_ticks.data(), batch.pending.size());
      if (!batch.pending_ticks.empty()) last = batch.pending_ticks.back();
      if (more) {
        behind.push({last, loc});
      } else {
        sink.finish(loc);
        archive_.release_batch(loc);
        admit();
      }
    }
    if (!stop_) archive_.close();
  } catch (const std::exception& error) {
    sink.fail(error.what());
  }
}

}  // namespace earl
