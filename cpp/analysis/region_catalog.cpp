#include "analysis/region_catalog.h"

namespace earl::analysis {

void RegionCatalog::grow(SymbolId region) {
  const SymbolTable& names = definitions_.regions;
  for (SymbolId r = static_cast<SymbolId>(classes_.size()); r <= region; ++r)
    classes_.push_back(r < names.size() ? classify_region(names.name(r)) : RegionClass{});
}

bool RegionCatalog::program_region(SymbolId program, SymbolId& region) const {
  if (program >= definitions_.strings.size()) return false;
  const std::string& path = definitions_.strings.name(program);
  const std::size_t slash = path.find_last_of('/');
  const std::string executable = slash == std::string::npos ? path : path.substr(slash + 1);
  return !executable.empty() && definitions_.regions.find(executable, region);
}

void RegionCatalog::grow_types(SymbolId type) {
  const SymbolTable& names = definitions_.types;
  for (SymbolId t = static_cast<SymbolId>(request_records_.size()); t <= type; ++t) {
    const std::string name = t < names.size() ? names.name(t) : std::string();
    request_records_.push_back(name == "mpi_isend_complete"  ? RequestRecord::SendComplete
                               : name == "mpi_irecv_request" ? RequestRecord::RecvPosted
                               : name == "rma_group_sync"    ? RequestRecord::RmaGroupSync
                               : name == "wlock"             ? RequestRecord::WindowLock
                               : name == "wunlock"           ? RequestRecord::WindowUnlock
                               : name == "put_1ts"           ? RequestRecord::PutStart
                               : name == "get_1to"           ? RequestRecord::GetStart
                               : name == "program_begin"     ? RequestRecord::ProgramBegin
                               : name == "program_end"       ? RequestRecord::ProgramEnd
                                                             : RequestRecord::None);
  }
}

}  // namespace earl::analysis
