#include "convert/wait_annotations.h"

#include <algorithm>
#include <tuple>

#include "analysis/analysis.h"
#include "analysis/callpath_names.h"
#include "analysis/metric_tree.h"
#include "model/clock.h"

namespace earl::convert {

WaitAnnotations wait_annotations(const std::string& input, const std::string& format, bool strict,
                                 std::size_t limit, const std::function<bool(double)>& progress) {
  analysis::AnalysisOptions options;
  options.format = format;
  options.strict = strict;
  options.kept_worst = limit;
  options.progress = progress;
  const analysis::AnalysisResult result = analysis::analyze(input, options);
  // Named as every report names them, each once.
  std::vector<std::int64_t> parents;
  std::vector<std::uint32_t> call_regions;
  for (const auto& node : result.callpaths) {
    parents.push_back(node.parent == analysis::kNoCallPath ? -1 : static_cast<std::int64_t>(node.parent));
    call_regions.push_back(node.region);
  }
  const std::vector<std::string> names = analysis::callpath_names(parents, call_regions, result.regions);
  WaitAnnotations out;
  out.left_out = result.severities.worst_left_out();
  for (const analysis::WaitInstance& w : result.severities.worst()) {
    WriterAnnotation a;
    a.loc = static_cast<std::int32_t>(w.loc);
    a.begin = w.begin * kMicrosecondsPerSecond;
    a.duration = w.idle * kMicrosecondsPerSecond;
    const analysis::MetricInfo& info = analysis::metric_info(w.metric);
    a.name = info.name;
    a.metric = info.id;
    a.callpath = w.callpath < names.size() ? names[w.callpath] : "";
    out.annotations.push_back(std::move(a));
  }
  std::sort(out.annotations.begin(), out.annotations.end(), [](const WriterAnnotation& a, const WriterAnnotation& b) {
    return std::tie(a.loc, a.begin) < std::tie(b.loc, b.begin);
  });
  return out;
}

}  // namespace earl::convert
