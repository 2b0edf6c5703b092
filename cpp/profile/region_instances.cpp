#include "profile/region_instances.h"

#include <cmath>
#include <limits>

#include "analysis/callpath_names.h"
#include "profile/event_pass.h"

namespace earl::profile {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

InstanceBuilder::InstanceBuilder(Location locations, std::size_t metrics)
    : metrics_(metrics), locations_(static_cast<std::size_t>(locations > 0 ? locations : 0)) {
  out_.metrics = metrics;
}

InstanceBuilder::LocationState& InstanceBuilder::state(Location loc) {
  // Decoders keep loc below nrlocs(); a negative one has no state to keep.
  const std::size_t at = static_cast<std::size_t>(loc);
  if (at >= locations_.size()) locations_.resize(at + 1);
  LocationState& s = locations_[at];
  if (s.value.size() != metrics_) s.value.assign(metrics_, kNaN);
  return s;
}

void InstanceBuilder::add(const Event& e) {
  if (e.loc < 0) return;
  LocationState& s = state(e.loc);
  if (e.time != s.time) {
    s.entered_now.clear();
    s.exited_now.clear();
    s.time = e.time;
  }
  if (e.kind == EventKind::Enter) enter(s, e);
  else if (is_exit(e.kind)) leave(s, e);
  else if (e.kind == EventKind::Metric) sample(s, e);
}

void InstanceBuilder::sample(LocationState& s, const Event& e) {
  if (e.tag < 0 || static_cast<std::size_t>(e.tag) >= metrics_) return;
  const std::size_t m = static_cast<std::size_t>(e.tag);
  double v = kNaN;
  switch (e.data2.kind) {
    case Value::Kind::Int: v = static_cast<double>(e.data2.integer); break;
    case Value::Kind::UInt: v = static_cast<double>(e.data2.unsigned_integer); break;
    case Value::Kind::Float: v = e.data2.real; break;
    default: return;
  }
  s.value[m] = v;
  for (std::size_t row : s.entered_now) at_enter_[row * metrics_ + m] = v;
  for (std::size_t row : s.exited_now) at_exit_[row * metrics_ + m] = v;
}

void InstanceBuilder::enter(LocationState& s, const Event& e) {
  const std::size_t row = out_.loc.size();
  const analysis::CallPathId parent = s.stack.empty() ? analysis::kNoCallPath : s.stack.back().path;
  const analysis::CallPathId path = tree_.child(parent, e.region);
  out_.loc.push_back(e.loc);
  out_.region.push_back(static_cast<std::int32_t>(e.region));
  out_.callpath.push_back(static_cast<std::int32_t>(path));
  out_.enter_pos.push_back(e.pos);
  out_.exit_pos.push_back(0);
  out_.enter_time.push_back(e.time);
  out_.exit_time.push_back(kNaN);
  out_.inclusive.push_back(kNaN);
  out_.exclusive.push_back(kNaN);
  if (metrics_) {
    at_enter_.insert(at_enter_.end(), s.value.begin(), s.value.end());
    at_exit_.insert(at_exit_.end(), metrics_, kNaN);
    s.entered_now.push_back(row);
  }
  s.stack.push_back({row, 0.0, path});
}

void InstanceBuilder::leave(LocationState& s, const Event& e) {
  if (s.stack.empty()) return;  // an exit with no enter (the state counts it as a problem)
  const Frame frame = s.stack.back();
  s.stack.pop_back();
  const double inclusive = e.time - out_.enter_time[frame.row];
  out_.exit_pos[frame.row] = e.pos;
  out_.exit_time[frame.row] = e.time;
  out_.inclusive[frame.row] = inclusive;
  out_.exclusive[frame.row] = inclusive - frame.child_time;
  if (!s.stack.empty()) s.stack.back().child_time += inclusive;
  if (metrics_) {
    std::copy(s.value.begin(), s.value.end(), at_exit_.begin() + static_cast<std::ptrdiff_t>(frame.row * metrics_));
    s.exited_now.push_back(frame.row);
  }
}

RegionInstances InstanceBuilder::finish() {
  out_.counters.resize(at_enter_.size());
  for (std::size_t i = 0; i < at_enter_.size(); ++i) out_.counters[i] = at_exit_[i] - at_enter_[i];
  for (const analysis::CallTree::Node& node : tree_.nodes()) {
    out_.callpath_parent.push_back(node.parent == analysis::kNoCallPath ? -1 : static_cast<std::int64_t>(node.parent));
    out_.callpath_region.push_back(node.region);
  }
  return std::move(out_);
}

RegionInstances region_instances(EventTrace& trace, const ProgressCallback& progress) {
  InstanceBuilder builder(trace.nrlocs(), trace.metrics().size());
  each_event(trace, progress, [&](const Event& e) { builder.add(e); });
  RegionInstances out = builder.finish();
  out.callpath_names = analysis::callpath_names(out.callpath_parent, out.callpath_region, trace.regions());
  return out;
}

}  // namespace earl::profile
