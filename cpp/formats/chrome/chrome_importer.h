#pragma once
#include <atomic>
#include <mutex>
#include <string>
#include <thread>

#include "format_interface/import_source.h"
#include "formats/chrome/chrome_records.h"

namespace earl {

// Chrome trace-event JSON into EARL's event cache: the file is parsed and ordered
// (ChromeTrace) when first needed, which on a fresh open is when the cache is made (errors
// surface at open); start() hands every location's records to the sink in batches, on a
// thread of its own, then releases them. A restored open (a persisted index) never parses:
// the index keeps the location count, the tick offset and the event count
// (restorable_facts), and the definitions are the restored ones (declared and published
// are the same for Chrome JSON: every name is defined before the import starts). A damaged
// trace gives no facts (EARL keeps no index of one: its damage is found at every open).
class ChromeImporter : public ImportSource {
 public:
  ChromeImporter(const std::string& path, const ReadOptions& options);
  ~ChromeImporter() override;

  std::string format() const override { return "chrome"; }
  std::string file() const override { return path_; }
  std::size_t location_count() const override {
    return static_cast<std::size_t>(parsed().definitions.location_count);
  }
  const Definitions& declared_definitions() const override { return parsed().definitions; }
  const Definitions& met_definitions() const override { return parsed().definitions; }
  std::mutex& met_guard() const override { return guard_; }
  std::uint64_t tick_offset() const override { return parsed(), offset_; }
  std::uint64_t ticks_per_second() const override { return 1000000000ull; }
  std::uint64_t expected_events() const override { return parsed(), expected_; }

  std::vector<StreamDamage> damage() const override { return parsed(), damage_; }

  std::vector<std::uint64_t> restorable_facts() const override;
  void restore_facts(const std::vector<std::uint64_t>& facts, const Definitions& published) override;

  void start(EventSink& sink) override;
  void stop() override { stop_ = true; }
  void wait() override;

 private:
  // The parsed trace (parsing it on the first call; restored: the restored facts).
  const ChromeTrace& parsed() const;
  void run(EventSink& sink);

  std::string path_;
  ReadOptions options_;
  mutable bool parsed_ = false;
  mutable ChromeTrace trace_;
  // Ticks are unsigned: nanoseconds shifted by `offset_` (the earliest time when that is
  // negative), so that tick - offset is the time in nanoseconds exactly.
  mutable std::uint64_t offset_ = 0;
  mutable std::uint64_t expected_ = 0;  // the records' count (they are released after the import)
  mutable std::vector<StreamDamage> damage_;  // fixed when parsed: safe to read while importing
  std::thread thread_;
  std::atomic<bool> stop_{false};
  mutable std::mutex guard_;  // the definitions are final before start(): nothing to guard
};

}  // namespace earl
