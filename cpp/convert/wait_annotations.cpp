#include "convert/wait_annotations.h"

#include <algorithm>
#include <tuple>

#include "analysis/analysis.h"
#include "analysis/metric_tree.h"
#include "model/clock.h"

namespace earl::convert {

namespace {

// "main/step/MPI_Recv": the regions from the root down to `callpath`.
std::string callpath_text(const analysis::AnalysisResult& result, analysis::CallPathId callpath) {
  std::vector<analysis::CallPathId> chain;
  for (analysis::CallPathId at = callpath; at != analysis::kNoCallPath && at < result.callpaths.size();
       at = result.callpaths[at].parent)
    chain.push_back(at);
  std::string text;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const SymbolId region = result.callpaths[*it].region;
    if (!text.empty()) text += "/";
    text += region < result.regions.size() ? result.regions[region] : "?";
  }
  return text;
}

}  // namespace

WaitAnnotations wait_annotations(const std::string& input, const std::string& format, bool strict,
                                 std::size_t limit, const std::function<bool(double)>& progress) {
  analysis::AnalysisOptions options;
  options.format = format;
  options.strict = strict;
  options.kept_worst = limit;
  options.progress = progress;
  const analysis::AnalysisResult result = analysis::analyze(input, options);
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
    a.callpath = callpath_text(result, w.callpath);
    out.annotations.push_back(std::move(a));
  }
  std::sort(out.annotations.begin(), out.annotations.end(), [](const WriterAnnotation& a, const WriterAnnotation& b) {
    return std::tie(a.loc, a.begin) < std::tie(b.loc, b.begin);
  });
  return out;
}

}  // namespace earl::convert
