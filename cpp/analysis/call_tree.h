#pragma once
// Call paths from the region stacks: a call path is a region under a parent call path,
// interned so that each location's pass names it by a small id.
#include <cstdint>
#include <utility>
#include <vector>

#include "model/symbol_table.h"

namespace earl::analysis {

using CallPathId = std::uint32_t;
constexpr CallPathId kNoCallPath = UINT32_MAX;

class CallTree {
 public:
  struct Node {
    CallPathId parent;  // kNoCallPath for a root
    SymbolId region;
  };

  // The call path of `region` called from `parent` (kNoCallPath: a root), made on first use.
  CallPathId child(CallPathId parent, SymbolId region);
  const std::vector<Node>& nodes() const { return nodes_; }

 private:
  using Children = std::vector<std::pair<SymbolId, CallPathId>>;
  std::vector<Node> nodes_;
  std::vector<Children> children_;  // per node; few callees each, searched linearly
  Children roots_;
};

}  // namespace earl::analysis
