// Python binding of the wait-state analysis: _core.analyze(file, format=None,
// progress=None) runs cpp/analysis with the GIL released and returns plain data (the
// report classes live in earl.analysis); _core.analysis_metrics() is the metric tree.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/analysis.h"
#include "analysis/callpath_names.h"
#include "analysis/metric_tree.h"
#include "bindings/python/bindings.h"
#include "bindings/python/open_options_binding.h"
#include "bindings/python/callbacks.h"
#include "bindings/python/lists.h"
#include "bindings/python/text.h"
#include "bindings/python/metric_fields.h"
#include "model/error.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace earl::bindings {

namespace {

// A 128-bit byte sum as an exact Python int (pybind11 converts no __int128).
py::object exact_int(analysis::ByteSum v) {
  const py::int_ high(static_cast<std::uint64_t>(v >> 64)), low(static_cast<std::uint64_t>(v));
  return (high << py::int_(64)) | low;
}

// A call path id for Python: -1 for none.
long callpath_id(analysis::CallPathId cp) { return cp == analysis::kNoCallPath ? -1 : static_cast<long>(cp); }

py::list metric_rows() {
  return list_of(analysis::metric_table(), [](const analysis::MetricInfo& m) {
    py::object parent = m.parent == analysis::Metric::Count ? py::object(py::none())
                                                            : py::object(py::str(analysis::metric_info(m.parent).id));
    return py::dict("id"_a = m.id, "parent"_a = parent, "name"_a = m.name, "unit"_a = m.unit,
                    "pattern"_a = m.is_pattern, "description"_a = m.description,
                    "derived"_a = m.in_scout.derived,
                    "scout_name"_a = m.in_scout.name ? m.in_scout.name : m.name);
  });
}

py::list cell_list(const std::unordered_map<std::uint64_t, double>& cells) {
  return list_of(cells, [](const auto& cell) {
    return py::make_tuple(callpath_id(analysis::cell_callpath(cell.first)), analysis::cell_location(cell.first),
                          cell.second);
  });
}

// Each counter: its definition (trace/metric_fields.h, as EventTrace.metrics() gives it)
// and its exclusive and inclusive cells.
py::list counter_rows(const std::vector<analysis::CounterResult>& counters) {
  return list_of(counters, [](const analysis::CounterResult& counter) {
    py::dict row = metric_dict(counter.metric);
    row["exclusive"] = cell_list(counter.exclusive);
    row["inclusive"] = cell_list(counter.inclusive);
    return row;
  });
}

// Region details as rows of report_schema.RegionDetails.
py::list region_detail_rows(const std::vector<RegionDetails>& details) {
  return list_of(details, [](const RegionDetails& d) {
    return py::make_tuple(text(d.canonical_name), text(d.file), d.begin_line, d.end_line, text(d.paradigm),
                          text(d.role), text(d.description));
  });
}

// The system tree as report_schema.SystemTree.
py::dict system_tree_dict(const SystemTree& tree) {
  py::dict out;
  out["levels"] = list_of(tree.levels, [](const SystemTree::Level& level) {
    return py::make_tuple(text(level.name), text(level.kind), level.parent);
  });
  out["processes"] = list_of(tree.processes, [](const SystemTree::Process& process) {
    return py::make_tuple(text(process.name), process.rank, process.level);
  });
  out["location_process"] = tree.location_process;
  return out;
}

py::dict to_python(const analysis::AnalysisResult& r) {
  py::dict out;
  out["file"] = text(r.file);
  out["format"] = r.format;
  out["events"] = r.events;
  out["messages"] = r.messages;
  out["collective_instances"] = r.collective_instances;
  out["clock_jumps"] = r.clock_jumps;
  out["regions"] = texts(r.regions);
  out["locations"] = texts(r.locations);
  out["callpaths"] =
      list_of(r.callpaths, [](const auto& node) { return py::make_tuple(callpath_id(node.parent), node.region); });
  py::dict values, instances;
  for (const analysis::MetricInfo& m : analysis::metric_table()) {
    values[m.id] = cell_list(r.severities.cells(m.metric));
    if (m.is_pattern) instances[m.id] = r.severities.instances(m.metric);
  }
  out["values"] = values;
  out["instances"] = instances;
  py::dict problems;
  for (int p = 0; p < static_cast<int>(analysis::Problem::Count); ++p) {
    const auto problem = static_cast<analysis::Problem>(p);
    problems[analysis::problem_name(problem)] = r.problems[problem];
  }
  out["problems"] = problems;
  // one line per location read only up to damage in its input
  out["damaged"] = list_of(r.damaged, [](const StreamDamage& damage) { return text(damage.message); });
  out["traffic"] = list_of(r.traffic, [](const analysis::TrafficCell& t) {
    return py::make_tuple(t.src, t.dest, exact_int(t.bytes), t.messages);
  });
  out["worst"] = list_of(r.severities.worst(), [](const analysis::WaitInstance& w) {
    return py::make_tuple(analysis::metric_info(w.metric).id, callpath_id(w.callpath), w.loc, w.begin, w.idle);
  });
  out["counters"] = counter_rows(r.counters);
  // only where the format describes them (keys absent otherwise, as in the schema)
  if (!r.region_details.empty()) out["region_details"] = region_detail_rows(r.region_details);
  if (!r.system_tree.location_process.empty()) out["system_tree"] = system_tree_dict(r.system_tree);
  return out;
}

}  // namespace

void bind_analysis(py::module_& m) {
  m.def(
      "callpath_names",
      [](const std::vector<std::pair<std::int64_t, std::uint32_t>>& callpaths, const std::vector<std::string>& regions) {
        std::vector<std::int64_t> parents;
        std::vector<std::uint32_t> call_regions;
        for (const auto& [parent, region] : callpaths) {
          parents.push_back(parent);
          call_regions.push_back(region);
        }
        return analysis::callpath_names(parents, call_regions, regions);
      },
      py::arg("callpaths"), py::arg("regions"),
      "The name of every call path ((parent, region) pairs, parents first, -1: a root) as "
      "every report names it (cpp/analysis/callpath_names.h).");
  m.attr("CALLPATH_NAMED_LEVELS") = analysis::kNamedLevels;
  m.attr("CALLPATH_HEAD_LEVELS") = analysis::kHeadLevels;
  m.def("analysis_metrics", &metric_rows,
        "The analysis' metric tree: dicts with id, parent, name, unit, pattern, description, "
        "parents before children.");
  m.def(
      "analyze",
      [](const py::object& path, const py::object& format, const py::object& progress,
         bool time_correct, const py::object& min_latency, bool strict) {
        const std::string file = path_argument(path, "file");
        // The options the analysis shares with opening a trace: converted and checked by
        // the one table (trace/open_options.h).
        OpenOptions open;
        set_python_option(open, "format", format);
        set_python_option(open, "time_correct", py::bool_(time_correct));
        set_python_option(open, "min_latency", min_latency);
        set_python_option(open, "strict", py::bool_(strict));
        analysis::AnalysisOptions options;
        options.format = open.format;
        options.time_correct = open.time_correct;
        options.clock = open.clock;
        options.strict = open.strict;
        PythonCallbacks callbacks;
        options.progress = [&callbacks, &progress](double fraction) {
          return callbacks.progress(progress, fraction);
        };
        const analysis::AnalysisResult result =
            callbacks.without_gil([&] { return analysis::analyze(file, options); });
        return to_python(result);
      },
      py::arg("file"), py::arg("format") = py::none(), py::arg("progress") = py::none(),
      py::kw_only(), py::arg("time_correct") = false, py::arg("min_latency") = py::none(),
      py::arg("strict") = false,
      "Runs the wait-state analysis over the trace `file` and returns its results as plain "
      "data (earl.analysis.analyze wraps it in a Report).");
}

}  // namespace earl::bindings
