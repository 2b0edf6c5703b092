#pragma once
// The class of every region of a trace, filled as regions appear (definitions grow while a
// trace is read).
#include <vector>

#include "analysis/mpi_functions.h"
#include "model/definitions.h"

namespace earl::analysis {

class RegionCatalog {
 public:
  explicit RegionCatalog(const Definitions& definitions) : definitions_(definitions) {}

  const RegionClass& of(SymbolId region) {
    if (region >= classes_.size()) grow(region);
    return classes_[region];
  }

 private:
  void grow(SymbolId region);

  const Definitions& definitions_;
  std::vector<RegionClass> classes_;
};

}  // namespace earl::analysis
