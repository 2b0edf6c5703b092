#pragma once
#include <atomic>
#include <mutex>
#include <string>
#include <thread>

#include "format_interface/import_source.h"
#include "formats/otf2/otf2_archive.h"

namespace earl {

// Reads an OTF2 archive once into EARL's event cache: each location's records strictly
// forward in batches (no libotf2 seeks), always the location that is furthest behind in
// time next, so that the merging reader on the other thread rarely waits. Archives with
// more locations than 64 MiB of libotf2 chunk buffers hold are read a window of locations
// at a time, each to its end.
class Otf2Importer : public ImportSource {
 public:
  explicit Otf2Importer(const std::string& path, const ReadOptions& options = {});
  ~Otf2Importer() override;

  std::string format() const override { return "otf2"; }
  std::string file() const override { return archive_.file(); }
  std::size_t location_count() const override { return archive_.location_count(); }
  const Definitions& declared_definitions() const override { return declared_; }
  const Definitions& met_definitions() const override { return archive_.met_definitions(); }
  std::mutex& met_guard() const override { return met_guard_; }
  std::uint64_t tick_offset() const override { return archive_.otf2().global_offset; }
  std::uint64_t ticks_per_second() const override { return archive_.otf2().timer_resolution; }
  std::uint64_t expected_events() const override { return archive_.total_records(); }

  std::vector<StreamDamage> damage() const override {
    std::lock_guard<std::mutex> decoding(met_guard_);
    return archive_.damage();
  }

  void start(EventSink& sink) override;
  void stop() override { stop_ = true; }
  void wait() override;

 private:
  void run(EventSink& sink);

  Otf2Archive archive_;
  Definitions declared_;  // the archive's definitions before any event was read
  std::thread thread_;
  std::atomic<bool> stop_{false};
  mutable std::mutex met_guard_;  // held while a batch is decoded
};

}  // namespace earl
