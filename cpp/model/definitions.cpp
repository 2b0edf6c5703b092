#include "model/definitions.h"

namespace earl {

Definitions::Definitions() {
  types.intern("enter");
  types.intern("exit");
  types.intern("send");
  types.intern("recv");
}

SymbolId Definitions::define_region(const std::string& name, const std::string& group) {
  SymbolId id = regions.intern(name);
  SymbolId group_id = groups.intern(group);
  if (region_group.size() <= id) region_group.resize(id + 1, group_id);
  region_group[id] = group_id;
  return id;
}

void Definitions::ensure_location(Location loc) {
  if (loc >= location_count) location_count = loc + 1;
}

void Definitions::name_location(Location loc, std::string name) {
  ensure_location(loc);
  if (location_names.size() <= static_cast<std::size_t>(loc)) location_names.resize(loc + 1);
  location_names[loc] = std::move(name);
}

const std::string& Definitions::location_name(Location loc) const {
  static const std::string none;
  if (loc < 0 || static_cast<std::size_t>(loc) >= location_names.size()) return none;
  return location_names[loc];
}

bool Definitions::outside_declared_span(double time) const {
  if (declared_end <= declared_begin) return false;
  const double span = declared_end - declared_begin;
  return time < declared_begin - span || time > declared_end + span;
}

}  // namespace earl
