#pragma once
#include <atomic>
#include <mutex>
#include <string>
#include <thread>

#include "format_interface/import_source.h"
#include "formats/chrome/chrome_records.h"

namespace earl {

// Chrome trace-event JSON into EARL's event cache: the file is parsed and ordered when the
// importer is made (ChromeTrace; errors surface at open), and start() hands every
// location's records to the sink in batches, on a thread of its own, then releases them.
class ChromeImporter : public ImportSource {
 public:
  ChromeImporter(const std::string& path, const ReadOptions& options);
  ~ChromeImporter() override;

  std::string format() const override { return "chrome"; }
  std::string file() const override { return trace_.file; }
  std::size_t location_count() const override {
    return static_cast<std::size_t>(trace_.definitions.location_count);
  }
  const Definitions& declared_definitions() const override { return trace_.definitions; }
  const Definitions& met_definitions() const override { return trace_.definitions; }
  std::mutex& met_guard() const override { return guard_; }
  std::uint64_t tick_offset() const override { return offset_; }
  std::uint64_t ticks_per_second() const override { return 1000000000ull; }
  std::uint64_t expected_events() const override { return expected_; }

  std::vector<StreamDamage> damage() const override { return damage_; }

  void start(EventSink& sink) override;
  void stop() override { stop_ = true; }
  void wait() override;

 private:
  void run(EventSink& sink);

  ChromeTrace trace_;
  // Ticks are unsigned: nanoseconds shifted by `offset_` (the earliest time when that is
  // negative), so that tick - offset is the time in nanoseconds exactly.
  std::uint64_t offset_ = 0;
  std::uint64_t expected_ = 0;  // the records' count (they are released after the import)
  std::vector<StreamDamage> damage_;  // fixed when made: safe to read while importing
  std::thread thread_;
  std::atomic<bool> stop_{false};
  mutable std::mutex guard_;  // the definitions are final before start(): nothing to guard
};

}  // namespace earl
