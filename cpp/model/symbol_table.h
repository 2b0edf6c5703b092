#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace earl {

using SymbolId = std::uint32_t;

// Interned strings: events carry small ids instead of names, so the scan path never
// allocates a string. Ids are dense, in order of first interning.
class SymbolTable {
 public:
  SymbolId intern(std::string_view name);
  // Returns true and sets id when name is known.
  bool find(std::string_view name, SymbolId& id) const;
  const std::string& name(SymbolId id) const { return names_.at(id); }
  std::size_t size() const { return names_.size(); }
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, SymbolId> ids_;
};

}  // namespace earl
