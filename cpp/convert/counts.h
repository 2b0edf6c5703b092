#pragma once
// What a conversion or merge left out or changed, counted by kind in order of first
// appearance (a few distinct entries each): the summaries' dropped/refused/renamed lists.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace earl::convert {

using Counts = std::vector<std::pair<std::string, std::uint64_t>>;

inline void add_count(Counts& counts, const std::string& what) {
  auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& entry) { return entry.first == what; });
  if (it == counts.end()) it = counts.insert(counts.end(), {what, 0});
  ++it->second;
}

}  // namespace earl::convert
