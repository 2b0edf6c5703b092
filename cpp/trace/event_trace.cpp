#include "trace/event_trace.h"

#include <cstdlib>

#include "registry/format_registry.h"
#include "trace/event_attributes.h"
#include "model/error.h"
#include "timecorrect/corrected_decoder.h"

namespace earl {

namespace {

std::uint64_t checked_bdist(std::int64_t bdist) {
  if (bdist < 0) throw EarlError("bdist must be a nonnegative integer, got " + std::to_string(bdist));
  return static_cast<std::uint64_t>(bdist);
}

std::uint64_t checked_hsize(std::int64_t hsize) {
  if (hsize < 1) throw EarlError("hsize must be a positive integer, got " + std::to_string(hsize));
  return static_cast<std::uint64_t>(hsize);
}

// "123", "64K", "256M", "2G" (binary multiples).
std::uint64_t parse_memory(const std::string& text, const std::string& where) {
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  std::string suffix = text.substr(digits);
  int shift = suffix.empty() ? 0 : suffix == "K" || suffix == "k" ? 10 : suffix == "M" || suffix == "m" ? 20
              : suffix == "G" || suffix == "g" ? 30 : -1;
  if (digits == 0 || digits > 15 || shift < 0)
    throw EarlError(where + " must be a number of bytes, optionally with K, M or G, got '" + text + "'");
  std::uint64_t value = std::stoull(text.substr(0, digits)) << shift;
  if (value == 0) throw EarlError(where + " must be positive, got '" + text + "'");
  return value;
}

std::unique_ptr<TraceDecoder> open_checked(const std::string& file,
                                           const EventTrace::Options& options,
                                           const ProgressCallback& progress,
                                           const ClockCorrections*& corrections) {
  checked_bdist(options.bdist);  // arguments first, before any file is touched
  checked_hsize(options.hsize);
  EventTrace::memory_budget(options.memory);
  if (options.time_correct) options.clock.validate();
  std::unique_ptr<TraceDecoder> decoder = open_decoder(file, options.format, options.cache);
  if (!options.time_correct) return decoder;
  auto corrected = std::make_unique<CorrectedDecoder>(std::move(decoder), options.clock, progress);
  corrections = &corrected->corrections();
  return corrected;
}

}  // namespace

std::uint64_t EventTrace::memory_budget(std::int64_t memory) {
  if (memory > 0) return static_cast<std::uint64_t>(memory);
  if (memory != -1) throw EarlError("memory must be a positive number of bytes, got " + std::to_string(memory));
  const char* env = std::getenv("EARL_MEMORY");
  if (env && *env) return parse_memory(env, "EARL_MEMORY");
  return RandomAccessTrace::kDefaultMemory;
}

EventTrace::EventTrace(const std::string& file, const Options& options,
                       const ProgressCallback& progress)
    : file_(file),
      access_(open_checked(file, options, progress, corrections_), checked_bdist(options.bdist),
              checked_hsize(options.hsize), progress, memory_budget(options.memory)) {}

std::vector<const char*> EventTrace::attribute_names(EventKind kind) {
  std::vector<const char*> names;
  for (const AttributeSpec& spec : attribute_specs(kind)) names.push_back(attribute_name(spec.name));
  return names;
}

Position EventTrace::next() {
  if (iterator_ + 1 > size()) return 0;
  return ++iterator_;
}

Position EventTrace::prev() {
  if (iterator_ <= 1) return 0;
  return --iterator_;
}

Position EventTrace::jump(std::int64_t pos) {
  if (pos <= 0 || static_cast<Position>(pos) > size()) return 0;
  iterator_ = static_cast<Position>(pos);
  return iterator_;
}

Position EventTrace::resolve(std::int64_t pos) const {
  return pos < 0 ? iterator_ : static_cast<Position>(pos);
}

const Event& EventTrace::event(std::int64_t pos, const ProgressCallback& progress) {
  return access_.event(resolve(pos), progress);
}

std::vector<Position> EventTrace::stack(Location loc, std::int64_t pos,
                                        const ProgressCallback& progress) {
  return access_.stack(loc, resolve(pos), progress);
}

std::vector<Position> EventTrace::queue(Location src, Location dest, std::int64_t pos,
                                        const ProgressCallback& progress) {
  return access_.queue(src, dest, resolve(pos), progress);
}

bool EventTrace::is_cheap(std::int64_t pos) const { return access_.is_cheap(resolve(pos)); }

std::optional<std::string> EventTrace::locsym(Location loc) const {
  const Definitions& defs = definitions();
  if (loc < 0 || loc >= defs.location_count)
    throw EarlError("location " + std::to_string(loc) + " is not a location (the trace has " +
                    "locations 0.." + std::to_string(defs.location_count - 1) + ")");
  if (static_cast<std::size_t>(loc) < defs.location_names.size() &&
      !defs.location_names[loc].empty())
    return defs.location_names[loc];
  return std::nullopt;
}

std::vector<std::string> EventTrace::groups() const {
  const auto& names = definitions().groups.names();
  if (names.empty()) return {"All"};
  return names;
}

std::string EventTrace::group(const std::string& region) const {
  const Definitions& defs = definitions();
  SymbolId id;
  if (!defs.regions.find(region, id)) throw EarlError("unknown region '" + region + "'");
  if (id < defs.region_group.size()) return defs.groups.name(defs.region_group[id]);
  return "All";
}

std::vector<std::string> EventTrace::regions(const std::optional<std::string>& group) const {
  const Definitions& defs = definitions();
  if (!group) return defs.regions.names();
  SymbolId group_id;
  bool known = defs.groups.find(*group, group_id);
  if (!known && *group != "All") throw EarlError("unknown group '" + *group + "'");
  if (*group == "All" && (!known || defs.groups.size() == 1)) return defs.regions.names();
  std::vector<std::string> names;
  for (SymbolId id = 0; id < defs.regions.size(); ++id)
    if (id < defs.region_group.size() && defs.region_group[id] == group_id)
      names.push_back(defs.regions.name(id));
  return names;
}

std::vector<std::string> EventTrace::types() const { return definitions().types.names(); }

}  // namespace earl
