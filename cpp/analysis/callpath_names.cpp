#include "analysis/callpath_names.h"

#include "model/error.h"

namespace earl::analysis {

std::vector<std::string> callpath_names(const std::vector<std::int64_t>& parents,
                                        const std::vector<std::uint32_t>& call_regions,
                                        const std::vector<std::string>& regions) {
  const std::size_t n = parents.size();
  if (call_regions.size() != n) throw EarlError("callpath_names: as many regions as parents are needed");
  auto region_name = [&](std::uint32_t r) {
    return r < regions.size() ? regions[r] : "region " + std::to_string(r);
  };
  std::vector<int> depth(n);
  std::vector<std::size_t> head(n);
  std::vector<std::string> names(n);
  for (std::size_t cp = 0; cp < n; ++cp) {
    const std::int64_t parent = parents[cp];
    if (parent >= static_cast<std::int64_t>(cp))
      throw EarlError("callpath_names: call path " + std::to_string(cp) + " has a parent after it");
    const std::string name = region_name(call_regions[cp]);
    const int d = parent < 0 ? 1 : depth[static_cast<std::size_t>(parent)] + 1;
    depth[cp] = d;
    head[cp] = d <= kHeadLevels ? cp : head[static_cast<std::size_t>(parent)];
    if (d <= kNamedLevels) {
      names[cp] = parent < 0 ? name : names[static_cast<std::size_t>(parent)] + "/" + name;
      continue;
    }
    // The last kHeadLevels regions, walking up from cp.
    std::vector<std::string> tail;
    std::int64_t at = static_cast<std::int64_t>(cp);
    for (int k = 0; k < kHeadLevels; ++k, at = parents[static_cast<std::size_t>(at)])
      tail.push_back(region_name(call_regions[static_cast<std::size_t>(at)]));
    std::string text = names[head[cp]] + "/..." + std::to_string(d - 2 * kHeadLevels) + " levels...";
    for (auto it = tail.rbegin(); it != tail.rend(); ++it) text += "/" + *it;
    names[cp] = text + " [call path " + std::to_string(cp) + "]";
  }
  return names;
}

}  // namespace earl::analysis
