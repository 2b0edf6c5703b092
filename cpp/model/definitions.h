#pragma once
#include <string>
#include <vector>

#include "model/event.h"
#include "model/symbol_table.h"

namespace earl {

// What a trace defines besides its events: names of types, regions, groups, locations.
// A decoder fills it; the trace facade answers the header queries from it.
struct Definitions {
  Definitions();

  SymbolTable types;    // 0 enter, 1 exit, 2 send, 3 recv, then format-defined types
  SymbolTable regions;  // in order of definition
  SymbolTable groups;   // region groups; formats without groups use only "All"
  std::vector<SymbolId> region_group;  // group of each region
  SymbolTable strings;  // string values of data1/data2
  std::vector<std::string> location_names;  // "" where the trace names none
  Location location_count = 0;

  SymbolId define_region(const std::string& name, const std::string& group);
  void ensure_location(Location loc);  // grows location_count to include loc
};

}  // namespace earl
