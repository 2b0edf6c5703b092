#pragma once
#include <cstdint>
#include <mutex>
#include <vector>

#include "model/definitions.h"
#include "model/event.h"

namespace earl {

// A decoder that reads ahead of the merged order (OTF2's lookahead record per location) or
// on a thread of its own (the cache importer) meets record types, undefined regions and
// string values in an order of its own. It interns them into its own Definitions (the
// "met" ones) and hands every event out through an AppearanceOrder, which interns a name
// into the published Definitions when an event uses it for the first time. The published
// lists are then in order of first appearance in the trace, whichever way it was read.
class AppearanceOrder {
 public:
  // `declared`: what the trace defines before its events (copied: it keeps its ids).
  // `met`: declared plus what decoding met since, read under `guard` when one is given
  // (the decoder interns on another thread).
  AppearanceOrder(const Definitions& declared, const Definitions& met, std::mutex* guard = nullptr);

  const Definitions& published() const { return published_; }

  // The met-to-published maps of types, regions and strings (for DecoderState), and
  // taking them back with the published definitions they belong to: events met before
  // then publish without looking at the met definitions.
  std::vector<std::vector<std::uint64_t>> maps() const;
  void restore(Definitions published, const std::vector<std::uint64_t>& types,
               const std::vector<std::uint64_t>& regions, const std::vector<std::uint64_t>& strings);

  // Turns the met ids of `event` into published ones.
  void publish(Event& event) {
    if (event.type >= declared_types_) event.type = published_type(event.type);
    if ((event.kind == EventKind::Enter || is_exit(event.kind)) && event.region >= declared_regions_)
      event.region = published_region(event.region);
    if (event.data1.kind == Value::Kind::String && event.data1.string >= declared_strings_)
      event.data1.string = published_string(event.data1.string);
    if (event.data2.kind == Value::Kind::String && event.data2.string >= declared_strings_)
      event.data2.string = published_string(event.data2.string);
  }

 private:
  static constexpr SymbolId kUnpublished = ~SymbolId(0);
  SymbolId published_type(SymbolId met);
  SymbolId published_region(SymbolId met);
  SymbolId published_string(SymbolId met);
  SymbolId published_symbol(std::vector<SymbolId>& map, SymbolId declared, const SymbolTable& met_table,
                            SymbolTable& published_table, SymbolId met);
  static SymbolId& slot(std::vector<SymbolId>& map, SymbolId index);

  Definitions published_;
  const Definitions& met_;
  std::mutex* guard_;
  SymbolId declared_types_, declared_regions_, declared_strings_;
  std::vector<SymbolId> types_, regions_, strings_;  // by met id - declared count
};

}  // namespace earl
