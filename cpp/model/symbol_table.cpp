#include "model/symbol_table.h"

namespace earl {

SymbolId SymbolTable::intern(std::string_view name) {
  auto found = ids_.find(std::string(name));
  if (found != ids_.end()) return found->second;
  SymbolId id = static_cast<SymbolId>(names_.size());
  names_.emplace_back(name);
  ids_.emplace(names_.back(), id);
  return id;
}

bool SymbolTable::find(std::string_view name, SymbolId& id) const {
  auto found = ids_.find(std::string(name));
  if (found == ids_.end()) return false;
  id = found->second;
  return true;
}

}  // namespace earl
