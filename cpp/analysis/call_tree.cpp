#include "analysis/call_tree.h"

namespace earl::analysis {

CallPathId CallTree::child(CallPathId parent, SymbolId region) {
  Children& children = parent == kNoCallPath ? roots_ : children_[parent];
  for (const auto& [r, id] : children)
    if (r == region) return id;
  const auto id = static_cast<CallPathId>(nodes_.size());
  nodes_.push_back({parent, region});
  children_.emplace_back();
  // children_ may have moved: look the parent's list up again.
  (parent == kNoCallPath ? roots_ : children_[parent]).emplace_back(region, id);
  return id;
}

}  // namespace earl::analysis
