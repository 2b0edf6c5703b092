#pragma once
// How every report names a call path (text, JSON, HTML, Cube, pandas, the wait-state slices
// of earl convert): its regions from the root joined by "/".
#include <cstdint>
#include <string>
#include <vector>

namespace earl::analysis {

// Call paths deeper than kNamedLevels levels are named by their first and last kHeadLevels
// regions around "/...N levels.../" and their id: a full name per call path costs memory
// with the square of the depth (a recursion 10^5 deep made 5 * 10^9 characters).
constexpr int kNamedLevels = 24;
constexpr int kHeadLevels = 6;

// The name of every call path, given each one's parent (-1: a root; parents come before
// their children) and region (an index into `regions`; beyond it "region N"). Time and
// memory are linear in the number of call paths whatever their depth: a shallow name
// extends its parent's, a deep one takes its ancestor's kHeadLevels deep and its own last
// kHeadLevels regions, "[call path ID]" keeping it unique.
std::vector<std::string> callpath_names(const std::vector<std::int64_t>& parents,
                                        const std::vector<std::uint32_t>& call_regions,
                                        const std::vector<std::string>& regions);

}  // namespace earl::analysis
