#pragma once
#include <atomic>
#include <mutex>
#include <string>
#include <thread>

#include "format_interface/import_source.h"
#include "formats/otf/otf_archive.h"

namespace earl {

// Reads an OTF trace once into EARL's event cache: libotf's merged reader strictly
// forward (no libotf seeks), each event appended to its location's stream in the order
// libotf delivers that process's records, which is its stream order.
class OtfImporter : public ImportSource {
 public:
  explicit OtfImporter(const std::string& path, const ReadOptions& options = {});
  ~OtfImporter() override;

  std::string format() const override { return "otf"; }
  std::string file() const override { return archive_.file(); }
  std::size_t location_count() const override { return archive_.location_count(); }
  const Definitions& declared_definitions() const override { return archive_.declared_definitions(); }
  const Definitions& met_definitions() const override { return archive_.met_definitions(); }
  std::mutex& met_guard() const override { return met_guard_; }
  std::uint64_t tick_offset() const override { return 0; }
  std::uint64_t ticks_per_second() const override { return archive_.ticks_per_second(); }
  std::uint64_t expected_events() const override { return archive_.estimated_events(); }
  std::vector<StreamDamage> damage() const override {
    std::lock_guard<std::mutex> decoding(met_guard_);
    return archive_.damage();
  }

  void start(EventSink& sink) override;
  void stop() override { stop_ = true; }
  void wait() override;

 private:
  void run(EventSink& sink);

  OtfArchive archive_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  mutable std::mutex met_guard_;  // held while a batch is decoded
};

}  // namespace earl
