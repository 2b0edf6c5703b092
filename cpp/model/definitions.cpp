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
  if (loc >= location_count) {
    location_count = loc + 1;
    if (location_names.size() < static_cast<std::size_t>(location_count))
      location_names.resize(location_count);
  }
}

}  // namespace earl
