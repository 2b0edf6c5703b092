#include "analysis/region_catalog.h"

namespace earl::analysis {

void RegionCatalog::grow(SymbolId region) {
  const SymbolTable& names = definitions_.regions;
  for (SymbolId r = static_cast<SymbolId>(classes_.size()); r <= region; ++r)
    classes_.push_back(r < names.size() ? classify_region(names.name(r)) : RegionClass{});
}

}  // namespace earl::analysis
