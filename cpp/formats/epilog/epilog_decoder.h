#pragma once
// EPILOG traces (KOJAK / Scalasca 1.x .elg), mapped as in docs/api-contract.md ("EPILOG").
// A merged trace holds its definitions first and then every location's events in time
// order, so the decoder reads it in file order; a position is the byte offset of the next
// record. The constructor reads the definitions (up to the first event record).
//
// Damage (docs/formats.md, "EPILOG"): an event-section record that cannot be read (cut
// short, of an unknown type, of the wrong length, on an undefined location) ends the trace
// there unless `options.strict`: the events before it are read, damage() names it. A bad
// header or definition is always an error.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "format_interface/trace_decoder.h"
#include "formats/epilog/epilog_input.h"
#include "formats/epilog/epilog_records.h"

namespace earl {

class EpilogDecoder : public TraceDecoder {
 public:
  explicit EpilogDecoder(const std::string& path, const ReadOptions& options = {});

  std::string format() const override { return "epilog"; }
  std::string file() const override { return path_; }
  bool read(Event& event) override;
  DecoderPosition position() const override { return {{next_}}; }
  void seek(const DecoderPosition& position) override;
  DecoderPosition start_position() const override { return {{first_event_}}; }
  double progress() const override;
  const Definitions& definitions() const override { return definitions_; }
  // One entry for the whole file (loc -1: every location loses what follows the damage).
  std::vector<StreamDamage> damage() const override;
  // The persisted index keeps the definitions as a full pass left them (the types, regions
  // and metrics met in events); the constructor reads the file's own definitions again,
  // which restoring extends.
  bool save_state(DecoderState& state) const override;
  void restore_state(DecoderState& state) override;

  // True when `head` starts like an (uncompressed) EPILOG file.
  static bool looks_like(std::string_view head);

 private:
  struct LocationDef {
    std::uint32_t lid, machine, node, process, thread;
  };
  void read_header();
  void read_definitions();
  void define(const epilog::RawRecord& record, std::uint64_t& offset);
  void finish_definitions();
  void define_system_tree();
  // Reads the member list of a communicator or group, continuation records included.
  std::vector<std::uint32_t> read_members(epilog::Fields& f, std::uint32_t count, bool bits,
                                          std::uint8_t continuation, std::uint64_t& offset);
  void decode(const epilog::RawRecord& record, Event& event);
  void no_region_exit(Event& event);
  Location location_of_id(std::uint32_t lid, const epilog::RawRecord& record);
  // The location of rank `rank`: of communicator `com` (version >= 1.8), else of the world.
  Location peer(std::uint32_t rank, std::int64_t com, Event& event) const;
  std::int64_t window_comm(std::uint32_t window) const;
  // The type named by one of the decoder's own string constants: interned once, then found
  // by the constant's address (a record of such a type costs no string hashing).
  SymbolId type(const char* name) {
    for (const auto& [known, id] : type_ids_)
      if (known == name) return id;
    const SymbolId id = definitions_.types.intern(name);
    type_ids_.push_back({name, id});
    return id;
  }
  [[noreturn]] void fail(std::uint64_t offset, const std::string& problem) const {
    input_.fail(offset, problem);
  }

  std::string path_;
  mutable epilog::Input input_;
  bool big_endian_ = false;
  std::uint32_t version_ = 0;
  Definitions definitions_;

  std::unordered_map<std::uint32_t, std::string> strings_;
  std::vector<LocationDef> location_defs_;
  std::unordered_map<std::uint32_t, std::uint32_t> machine_name_;  // mid -> string id
  std::unordered_map<std::uint64_t, std::uint32_t> node_name_;     // mid << 32 | nid -> string id
  std::unordered_map<std::uint32_t, std::uint32_t> process_name_;  // pid -> string id
  std::unordered_map<std::uint64_t, std::uint32_t> thread_name_;   // pid << 32 | tid -> string id
  std::unordered_map<std::uint32_t, Location> location_of_lid_;
  std::unordered_map<std::uint32_t, Location> location_of_process_;  // its master thread
  std::uint32_t single_lid_ = epilog::kNoId;
  struct RegionDef {
    std::uint32_t rid, name, group;
  };
  std::vector<RegionDef> region_defs_;
  std::unordered_map<std::uint32_t, SymbolId> regions_;
  std::unordered_map<std::uint32_t, std::uint32_t> call_site_region_;
  std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> comm_members_;  // world ranks
  std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> group_members_;
  std::unordered_map<std::uint32_t, std::uint32_t> comm_group_;
  std::unordered_map<std::uint32_t, std::uint32_t> window_comm_;
  std::uint32_t metrics_ = 0;
  std::vector<std::pair<const char*, SymbolId>> type_ids_;

  std::uint64_t first_event_ = 0;
  std::uint64_t next_ = 0;

  bool strict_ = false;
  struct Damage {
    std::uint64_t offset = 0;         // of the record that cannot be read
    std::uint64_t events_before = 0;
    std::string error;
  };
  std::optional<Damage> damage_;
  // Event records before counted_until_ (an offset) have been counted, whatever the seeks
  // between the passes: the count of those before the damage.
  std::uint64_t counted_until_ = 0;
  std::uint64_t events_counted_ = 0;
};

}  // namespace earl
