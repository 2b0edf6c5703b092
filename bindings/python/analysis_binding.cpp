// Python binding of the wait-state analysis: _core.analyze(file, format=None,
// progress=None) runs cpp/analysis with the GIL released and returns plain data (the
// report classes live in earl.analysis); _core.analysis_metrics() is the metric tree.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/analysis.h"
#include "analysis/metric_tree.h"
#include "bindings/python/bindings.h"
#include "bindings/python/open_options_binding.h"
#include "bindings/python/callbacks.h"
#include "bindings/python/text.h"
#include "bindings/python/metric_fields.h"
#include "model/error.h"

namespace py = pybind11;

namespace earl::bindings {

namespace {

py::list metric_rows() {
  py::list rows;
  for (const analysis::MetricInfo& m : analysis::metric_table()) {
    py::dict row;
    row["id"] = m.id;
    row["parent"] = m.parent == analysis::Metric::Count ? py::object(py::none())
                                                        : py::object(py::str(analysis::metric_info(m.parent).id));
    row["name"] = m.name;
    row["unit"] = m.unit;
    row["pattern"] = m.is_pattern;
    row["description"] = m.description;
    rows.append(row);
  }
  return rows;
}

py::list cell_list(const std::unordered_map<std::uint64_t, double>& cells) {
  py::list out;
  for (const auto& [key, value] : cells) {
    const analysis::CallPathId cp = analysis::cell_callpath(key);
    out.append(py::make_tuple(cp == analysis::kNoCallPath ? -1 : static_cast<long>(cp),
                              analysis::cell_location(key), value));
  }
  return out;
}

// Each counter: its definition (trace/metric_fields.h, as EventTrace.metrics() gives it)
// and its exclusive and inclusive cells.
py::list counter_rows(const std::vector<analysis::CounterResult>& counters) {
  py::list rows;
  for (const analysis::CounterResult& counter : counters) {
    py::dict row = metric_dict(counter.metric);
    row["exclusive"] = cell_list(counter.exclusive);
    row["inclusive"] = cell_list(counter.inclusive);
    rows.append(row);
  }
  return rows;
}

py::dict to_python(const analysis::AnalysisResult& r) {
  py::dict out;
  out["file"] = r.file;
  out["format"] = r.format;
  out["events"] = r.events;
  out["messages"] = r.messages;
  out["collective_instances"] = r.collective_instances;
  out["clock_jumps"] = r.clock_jumps;
  out["regions"] = r.regions;
  out["locations"] = r.locations;
  py::list callpaths;
  for (const auto& node : r.callpaths)
    callpaths.append(py::make_tuple(node.parent == analysis::kNoCallPath ? -1 : static_cast<long>(node.parent),
                                    node.region));
  out["callpaths"] = callpaths;
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
  py::list damaged;  // one line per location read only up to damage in its input
  for (const StreamDamage& damage : r.damaged) damaged.append(text(damage.message));
  out["damaged"] = damaged;
  py::list traffic;
  for (const analysis::TrafficCell& t : r.traffic) traffic.append(py::make_tuple(t.src, t.dest, t.bytes, t.messages));
  out["traffic"] = traffic;
  py::list worst;
  for (const analysis::WaitInstance& w : r.severities.worst())
    worst.append(py::make_tuple(analysis::metric_info(w.metric).id,
                                w.callpath == analysis::kNoCallPath ? -1 : static_cast<long>(w.callpath),
                                w.loc, w.begin, w.idle));
  out["worst"] = worst;
  out["counters"] = counter_rows(r.counters);
  return out;
}

}  // namespace

void bind_analysis(py::module_& m) {
  m.def("analysis_metrics", &metric_rows,
        "The analysis' metric tree: dicts with id, parent, name, unit, pattern, description, "
        "parents before children.");
  m.def(
      "analyze",
      [](const std::string& file, const py::object& format, const py::object& progress,
         bool time_correct, const py::object& min_latency, bool strict) {
        // The options the analysis shares with opening a trace: converted and checked by
        // the one table (trace/open_options.h).
        OpenOptions open;
        set_python_option(open, "time_correct", py::bool_(time_correct));
        set_python_option(open, "min_latency", min_latency);
        set_python_option(open, "strict", py::bool_(strict));
        analysis::AnalysisOptions options;
        options.time_correct = open.time_correct;
        options.clock = open.clock;
        options.strict = open.strict;
        if (!format.is_none()) {
          if (!py::isinstance<py::str>(format)) throw EarlError("earl analyze: format must be a string");
          options.format = format.cast<std::string>();
        }
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
